"""Why the search agent advises the cell it does, in figures and in words.

A user who reads ``semiautomines guess`` sees the advised cell above a table in which
another cell may be safer. The advice must then name the quantity that decided it
(the two-move survival, or the score when another candidate survives better but
scores lower, a forced 50/50, the exact endgame's win probability) and
say in a sentence why the advised cell beats the safest one, from the very figures
the agent ranked by, so the output never seems to contradict itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import Weights

from .agent import Advice, SearchAgent
from .candidates import rank
from .lookahead import Assessment


@dataclass(frozen=True)
class Explanation:
    """The quantity that decided the advice, and why it is not the safest cell."""

    decided_by: str
    """The deciding quantity, in words (e.g. ``"two-move survival"``)."""
    value: float | None
    """Its value for the advised cell (``None`` where it has none)."""
    safest: int
    """The safest covered cell (flat index): the advised one when it is among the safest."""
    safest_probability: float
    why: str | None
    """A sentence saying why the advised cell beats :attr:`safest`, when it is another."""


def survival_name(depth: int) -> str:
    """The search step's quantity at ``depth`` guesses."""
    words = {1: "safety", 2: "two-move survival", 3: "three-move survival"}
    return words.get(depth, f"{depth}-move survival")


def score_name(depth: int) -> str:
    """The search step's score, with its terms (see :meth:`SearchAgent.score`)."""
    return f"score ({survival_name(depth)} x 50/50 factor + progress bonus)"


def _at(cell: int, width: int) -> str:
    return f"({cell % width}, {cell // width})"


def safest_cell(board: Board, weights: Weights, advised: int) -> int:
    """The covered cell with the lowest mine probability: ``advised`` when it ties for
    it, else the first of the greedy ranking."""
    flat = board.grid.reshape(-1)
    mine = {c: w for c, w in weights.mine_weight.items() if w is not None and flat[c] == COVERED}
    lowest = min(mine.values())
    if mine.get(advised) == lowest:
        return advised
    return rank(board.grid, weights, [c for c, w in mine.items() if w == lowest])[0]


def explain(agent: SearchAgent, board: Board, weights: Weights, advice: Advice) -> Explanation:
    """The deciding quantity of ``advice`` (made by ``agent`` on ``board``, whose engine
    weights are ``weights``) and, when it is not the safest cell, why not."""
    width, layouts = board.width, weights.layouts
    safest = safest_cell(board, weights, advice.cell)
    probability = (weights.mine_weight.get(safest) or 0) / layouts
    reason, cell = advice.reason, advice.cell
    by_cell = {a.cell: a for a in advice.candidates}
    if reason == "safe":
        decided, value = "safe in every layout", 1.0
        why = None
    elif reason == "endgame":
        decided, value = "win probability with best play", advice.win_probability
        why = (
            f"the exact endgame over all {layouts} layouts: probing {_at(cell, width)} wins "
            f"with best play more often than any other probe, the safest cell included"
        )
    elif reason == "forced":
        decided, value = "forced 50/50", advice.safety
        why = (
            f"{_at(cell, width)} lies in a 50/50 that no future number can settle: it must "
            "be guessed sometime, and guessing it now risks no progress made in between"
        )
    elif reason == "book":
        decided, value = "book of first guesses", advice.safety
        why = (
            f"the book holds this position: {_at(cell, width)} won most when every "
            "candidate was played on to the end on thousands of common layouts"
        )
    elif reason == "opening":
        decided, value, why = "opening table", None, "the measured best first click"
    else:
        survival = survival_name(agent.depth)
        chosen = by_cell.get(cell)
        decided, value = survival, None if chosen is None else chosen.survival
        if chosen is not None and any(a.survival > chosen.survival for a in advice.candidates):
            # Another candidate survives better: the survival alone did not decide, the
            # score (what the agent ranks by) did, and the report must name it.
            decided, value = score_name(agent.depth), agent.score(chosen)
        why = _search_why(agent, width, survival, chosen, advice.candidates, safest)
    if why is None or (safest == cell and reason != "search"):
        why = None
    return Explanation(decided, value, safest, probability, why)


def _search_why(
    agent: SearchAgent,
    width: int,
    decided: str,
    chosen: Assessment | None,
    weighed: tuple[Assessment, ...],
    safest: int,
) -> str | None:
    """Why the search step's ``chosen`` candidate beats the candidate that looks better in
    the table (the safest cell, else one with a higher survival or the same score),
    from the figures the agent ranked them by (see :meth:`SearchAgent.score`)."""
    if chosen is None:
        return None
    rivals = [a for a in weighed if a.cell == safest and a.cell != chosen.cell]
    if safest != chosen.cell and not rivals:
        return f"{_at(safest, width)} is safer but was not among the candidates weighed"
    ours = agent.score(chosen)
    rivals += [
        a
        for a in weighed
        if a.cell != chosen.cell and (a.survival > chosen.survival or agent.score(a) == ours)
    ]
    return _versus(agent, width, decided, chosen, rivals[0]) if rivals else None


def _versus(
    agent: SearchAgent, width: int, decided: str, chosen: Assessment, rival: Assessment
) -> str:
    """One sentence: why ``chosen`` ranks above ``rival``."""
    here, there = _at(chosen.cell, width), _at(rival.cell, width)
    if rival.safety > chosen.safety:
        lead = f"{there} is safer (mine {1 - rival.safety:.4f} against {1 - chosen.safety:.4f})"
    elif rival.survival > chosen.survival:
        lead = (
            f"{there} has the higher {decided} ({rival.survival:.4f} against {chosen.survival:.4f})"
        )
    else:
        lead = f"{there} is as safe and has the same {decided}"
    ours, theirs = agent.score(chosen), agent.score(rival)
    if theirs < 0 <= ours:
        return (
            f"{lead}, but it can show only one number, so probing it would prove nothing: "
            "such cells rank last"
        )
    if ours > theirs and (chosen.factor != 1.0 or rival.factor != 1.0):
        return (
            f"{lead}, but {here} scores higher once each {decided} is multiplied by its "
            f"factor for risk in 50/50s that may form anyway: {chosen.survival:.4f} x "
            f"{chosen.factor:.4f} against {rival.survival:.4f} x {rival.factor:.4f}"
        )
    if ours > theirs and chosen.survival > rival.survival:
        return (
            f"{lead}, but {here} has the better {decided}: "
            f"{chosen.survival:.4f} against {rival.survival:.4f}"
        )
    if ours > theirs:
        return (
            f"{lead}, but {here} scores higher with the small bonus for a chance of "
            f"progress ({chosen.progress:.4f} against {rival.progress:.4f})"
        )
    if ours == theirs and chosen.expected_clears > rival.expected_clears:
        return (
            f"{lead}; with equal scores {here} is expected to prove more cells safe "
            f"({chosen.expected_clears:.2f} against {rival.expected_clears:.2f})"
        )
    if ours == theirs:
        return f"{lead}; with equal scores the greedy ranking (likeliest zero first) chose {here}"
    return f"{lead}; the agent's further rules (exact settling, dominance) chose {here}"
