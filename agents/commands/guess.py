"""``semiautomines guess``: which cell to probe in a position, and why.

The analyser's job (what people use JSMinesweeper's for): read a
position, ask the ``search`` agent, print the advised cell and the candidates
it weighed with their mine probability, chance of progress and survival over
the next guesses.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import numpy as np

from minesweep_env import compiled
from minesweep_env.cli.errors import CliError
from minesweep_env.cli.position_input import PositionFile
from minesweep_env.core.cells import COVERED
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import count_position

from .. import parse_agent_name
from ..search import Advice, SearchAgent
from ..search.explain import Explanation, explain

EXAMPLES = """\
examples:
  semiautomines guess board.txt
  semiautomines guess board.txt --mines 99 --json
  semiautomines guess board.txt --agent search:depth=3

BOARD is a position file (what a player sees; see `semiautomines probabilities --help`):
a header "width height [mines]", then one row per line: ? covered, ! a known mine,
a digit a probed cell. Coordinates are (x, y) from the top left, 0-based.

The advice says how it was found and the quantity that decided it: "safe" (a
covered cell no layout mines), "endgame" (few layouts left: the exact best probe, by
its win probability with best play), "forced" (a 50/50 pair or 2x2 box, or a pseudo
50/50 pair, that no future number can settle: best taken now) or "search" (the best
two-move survival, times a factor for risk in 50/50s that may form anyway). When the
advised cell is not the safest, a sentence says why it beats the safest cell.
Candidates: mine probability, chance that the auto-solver can move after the probe
(progress), the chance of surviving this guess and the next (survival), the factor
for risk in 50/50s that may form anyway (50/50) and the score the agent ranks by
(survival x factor plus a small bonus for progress; "dead" for a cell that can show
one number only, ranked last).

Without a mine total (a header of two numbers and no --mines), every layout of any
mine count is taken as equally likely: frontier cells get the probabilities
`probabilities` prints, a cell no number touches is a mine with probability 0.5, and
every probability and survival is a true chance in [0, 1]. The endgame and the
forced 50/50s need the total and are not used without it.

--json prints {"x", "y", "probability", "reason", "win_probability", "mines",
"decided_by", "value", "why", "safest": {"x", "y", "probability"},
"candidates": [{"x", "y", "probability", "progress", "survival", "factor", "score"}, ...]}:
"decided_by" names the deciding quantity and "value" is its value for the advised
cell; "why" is null when the advised cell is the safest.

exit status: 0 success, 2 bad input, an impossible position or nothing left to probe
(one line on stderr)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "guess",
        help="the best cell to probe in a position, with the candidates weighed",
        description="Advise the probe the search agent makes in BOARD, and show the "
        "candidates it weighed.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "board", metavar="BOARD", help="position file (a player's view: ? covered, ! flag, digits)"
    )
    parser.add_argument(
        "--mines",
        type=int,
        metavar="N",
        help="total mines on the board, flags included (overrides the header's count)",
    )
    parser.add_argument(
        "--agent",
        default=SearchAgent.name,
        help="the advising agent, settings included (default search; e.g. search:depth=3)",
    )
    parser.add_argument("--json", action="store_true", help="write JSON instead of a table")
    parser.set_defaults(func=run)


def _agent(name: str) -> SearchAgent:
    try:
        cls, options = parse_agent_name(name)
        if not (isinstance(cls, type) and issubclass(cls, SearchAgent)):
            raise ValueError(f"--agent: only the search agent advises on a position, not {name!r}")
        return cls(**options)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise CliError(str(error)) from None


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def advice_json(
    advice: Advice,
    width: int,
    probability: float | None,
    mines: int | None,
    explanation: Explanation | None = None,
    agent: SearchAgent | None = None,
) -> dict:
    """The advice as the ``--json`` object (with ``explanation``: what decided it, and
    why it beats the safest cell; with ``agent``: each candidate's score)."""
    report: dict[str, Any] = {
        "x": advice.cell % width,
        "y": advice.cell // width,
        "probability": probability,
        "reason": advice.reason,
        "win_probability": advice.win_probability,
        "mines": mines,
        "candidates": [
            {
                "x": a.cell % width,
                "y": a.cell // width,
                "probability": 1.0 - a.safety,
                "progress": a.progress,
                "survival": a.survival,
                "factor": a.factor,
                "score": None if agent is None else agent.score(a),
            }
            for a in advice.candidates
        ],
    }
    if explanation is not None:
        report["decided_by"] = explanation.decided_by
        report["value"] = explanation.value
        report["why"] = explanation.why
        report["safest"] = {
            "x": explanation.safest % width,
            "y": explanation.safest // width,
            "probability": explanation.safest_probability,
        }
    return report


def _score(value: float | None) -> str:
    """A candidate's score for the table: ``dead`` for a cell that can show one number."""
    if value is None:
        return "-"
    return "dead" if value < 0 else f"{value:.4f}"


def advice_text(report: dict[str, Any], depth: int) -> str:
    """The advice as lines for a person: the cell and what decided it, why it beats
    the safest cell when it is another, then the candidates table."""
    p = report["probability"]
    chance = "no probability (the mine total is unknown)" if p is None else f"mine {p:.4f}"
    decided = report.get("decided_by") or report["reason"]
    lines = [f"probe ({report['x']}, {report['y']}): {decided}, {chance}"]
    if report.get("value") is not None and report.get("reason") != "endgame":
        lines.append(f"{decided}: {report['value']:.4f}")
    if report["win_probability"] is not None:
        lines.append(f"win probability with best play: {report['win_probability']:.4f}")
    if report.get("why"):
        lines.append(f"why this cell: {report['why']}")
    if report["candidates"]:
        lines += [
            "",
            f"{'x':>3} {'y':>3} {'mine':>7} {'progress':>9} {f'survival ({depth})':>13}"
            f" {'50/50':>7} {'score':>7}",
        ]
        for c in report["candidates"]:
            mark = " <" if (c["x"], c["y"]) == (report["x"], report["y"]) else ""
            lines.append(
                f"{c['x']:>3} {c['y']:>3} {c['probability']:>7.4f} {c['progress']:>9.4f} "
                f"{c['survival']:>13.4f} {c.get('factor', 1.0):>7.4f} "
                f"{_score(c.get('score')):>7}{mark}"
            )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    # One position: the exact engine answers it sooner than numba loads (same counts).
    compiled.exact_only()
    agent = _agent(args.agent)
    position = PositionFile(args.board, args.mines)
    board = position.board
    try:
        # Counted first: an impossible position is refused as `probabilities` refuses it,
        # whether or not a covered cell is left.
        weights = count_position(board, any_count=True)
        if not (board.grid == COVERED).any():
            raise CliError(f"{args.board}: no covered cell left to probe")
        covered = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()
        if all(weights.mine_weight.get(cell) == weights.layouts for cell in covered):
            raise CliError(f"{args.board}: every covered cell is a mine: nothing left to probe")
        advice = agent.advise(board)
        if not advice.candidates:
            advice = Advice(
                advice.cell,
                advice.reason,
                advice.safety,
                agent.weigh(board, weights),
                advice.win_probability,
            )
    except InconsistentBoardError as error:
        raise position.inconsistent(error) from None
    mine = weights.mine_weight.get(advice.cell)
    probability = None if mine is None else mine / weights.layouts
    explanation = explain(agent, board, weights, advice)
    report = advice_json(
        advice, board.width, _number(probability), board.total_mines, explanation, agent
    )
    if args.json:
        print(json.dumps(report))
    else:
        print(advice_text(report, agent.depth))
    return 0
