"""``semiautomines guess``: which cell to probe in a position, and why.

The analyser's job (what people use JSMinesweeper's for): read a
position, ask the ``search`` agent, print the advised cell and the candidates
it weighed with their mine probability, chance of progress and survival over
the next guesses.
"""

from __future__ import annotations

import argparse
import json

from minesweep_env import compiled
from minesweep_env.cli.errors import CliError
from minesweep_env.cli.position_input import PositionFile
from minesweep_env.errors import InconsistentBoardError

from ..search import SearchAgent
from ..search.advice_report import (
    NothingToProbe,
    advice_json,
    advice_text,
    position_advice,
    search_agent,
)

__all__ = ["add_parser", "advice_json", "advice_text", "advising_agent", "run"]

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
50/50 pair, that no future number can settle: best taken now), "book" (with
search:book=1, a first-guess position whose cell was measured by play-on races) or
"search" (the best two-move survival, times a factor for risk in 50/50s that may form
anyway). When another candidate has the higher survival, the deciding quantity is the
score (survival x 50/50 factor + progress bonus) and its value is shown. When the
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
        "board",
        metavar="BOARD",
        help="position file (a player's view: ? covered, ! flag, digits; "
        "or JSMinesweeper's position text)",
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


def advising_agent(name: str) -> SearchAgent:
    """The agent ``--agent`` names, which must be a search agent (one line otherwise)."""
    try:
        return search_agent(name)
    except ValueError as error:
        raise CliError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    # One position: the exact engine answers it sooner than numba loads (same counts).
    compiled.exact_only()
    agent = advising_agent(args.agent)
    position = PositionFile(args.board, args.mines)
    try:
        report = position_advice(agent, position.board)
    except NothingToProbe as error:
        raise CliError(f"{args.board}: {error}") from None
    except InconsistentBoardError as error:
        raise position.inconsistent(error) from None
    if args.json:
        print(json.dumps(report))
    else:
        print(advice_text(report, agent.depth))
    return 0
