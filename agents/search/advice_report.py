"""The search agent's advice on a position, as the object ``guess --json`` prints.

``semiautomines guess`` and the web app's ``/api/analyse`` both report the advice
through :func:`position_advice`, so the two answer a position with the very same
object (the same cell, figures and explanation) and never disagree.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import Weights, count_position

from .agent import Advice, SearchAgent
from .explain import Explanation, explain


class NothingToProbe(ValueError):
    """The position leaves no cell worth advising: none covered, or every one a mine."""


def search_agent(name: str) -> SearchAgent:
    """The advising agent ``name`` stands for (settings included, ``search:depth=3``).

    :raises ValueError: for an unknown agent, bad settings, or an agent other than
        ``search`` (only it advises on any position).
    """
    from .. import parse_agent_name

    cls, options = parse_agent_name(name)
    if not (isinstance(cls, type) and issubclass(cls, SearchAgent)):
        raise ValueError(f"--agent: only the search agent advises on a position, not {name!r}")
    try:
        return cls(**options)  # type: ignore[arg-type]
    except TypeError as error:
        raise ValueError(str(error)) from None


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


def position_advice(agent: SearchAgent, board: Board, weights: Weights | None = None) -> dict:
    """The ``guess --json`` object for ``board``: the advised cell, the candidates with
    their scores, and the explanation (see :mod:`.explain`).

    :param weights: ``count_position(board, any_count=True)`` when the caller has it.
    :raises InconsistentBoardError: when no layout fits the position.
    :raises NothingToProbe: when no covered cell is left, or every one is a mine.
    """
    # Counted first: an impossible position is refused as `probabilities` refuses it,
    # whether or not a covered cell is left.
    if weights is None:
        weights = count_position(board, any_count=True)
    if not (board.grid == COVERED).any():
        raise NothingToProbe("no covered cell left to probe")
    covered = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()
    if all(weights.mine_weight.get(cell) == weights.layouts for cell in covered):
        raise NothingToProbe("every covered cell is a mine: nothing left to probe")
    advice = agent.advise(board, weights=weights)
    if not advice.candidates:
        advice = Advice(
            advice.cell,
            advice.reason,
            advice.safety,
            agent.weigh(board, weights),
            advice.win_probability,
        )
    mine = weights.mine_weight.get(advice.cell)
    probability = None if mine is None else mine / weights.layouts
    explanation = explain(agent, board, weights, advice)
    return advice_json(
        advice, board.width, _number(probability), board.total_mines, explanation, agent
    )
