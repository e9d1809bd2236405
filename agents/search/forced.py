"""Forced guesses: 50/50s that no future information can ever settle.

Two covered cells ``a`` and ``b`` holding exactly one mine between them in
every layout are a *dead* 50/50 when every cell that touches one of them but
not the other is a known mine: then no number, seen now or later, counts them
differently, so every layout stays just as likely with the mine swapped to
the other cell. The player must guess it at 1/2 sooner or later to win, so
the best time is now: a loss costs nothing that waiting would have saved, and
a win opens a number that may inform the rest (the classic pair against the
edge behind a wall of flags is the common case).
"""

from __future__ import annotations

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE, neighbour_table
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import Weights, count_position


def _exactly_one_mine(board: Board, a: int, b: int, cache: dict | None) -> bool:
    """Whether every layout has a mine on exactly one of ``a`` and ``b``."""
    for mark, b_weight_wanted in ((FLAGGED, 0), (KNOWN_SAFE, None)):
        trial = board.copy()
        trial.grid.reshape(-1)[a] = mark
        try:
            weights = count_position(trial, cache=cache)
        except InconsistentBoardError:
            return False
        weight = weights.mine_weight.get(b)
        wanted = weights.layouts if b_weight_wanted is None else b_weight_wanted
        if weight != wanted:
            return False
    return True


def forced_guess(board: Board, weights: Weights, cache: dict | None = None) -> int | None:
    """A cell of a dead 50/50 (the lower flat index of the first pair found), or ``None``."""
    if weights.mines_left is None:
        return None  # without the total the swap argument does not hold for the count
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    layouts = weights.layouts
    halves = [
        cell
        for cell, weight in weights.mine_weight.items()
        if weight is not None and 2 * weight == layouts and flat[cell] == COVERED
    ]
    half_set = set(halves)
    for a in sorted(halves):
        for b in table[a]:
            if b <= a or b not in half_set:
                continue
            differ = (set(table[a]) ^ set(table[b])) - {a, b}
            if any(flat[c] != FLAGGED for c in differ):
                continue
            if _exactly_one_mine(board, a, b, cache):
                return a
    return None
