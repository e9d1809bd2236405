"""The number a covered cell would show if it is safe: P(0) ... P(8), exactly.

Each number ``k`` the cell's neighbourhood allows is written on the cell and the
position counted again by the exact engine; the layouts behind the numbers add up
to the layouts where the cell is safe, so the chances are exact fractions of them.

Most covered cells of a board in play lie far from every number: such a cell and
its covered neighbours are off the frontier, and its counts depend only on how many
covered and flagged neighbours it has, so each such shape is counted once.

With the mine total known and the compiled kernels ready, a cell's numbers are
weighed in one compiled call (:func:`~semiautomines_agents.float_weights.trial_weights`:
the log of each number's layouts, within about 1e-12 of the exact one); where
it cannot answer, or without the kernels, the exact engine counts.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from minesweep_env.compiled import ready
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import Weights, count_position

from ..progress import FLOAT_CELLS, number_range

Chances = list[float] | None
"""P(shows 0) ... P(shows 8) of one cell, or ``None`` (not covered, or a mine in every layout)."""


def _isolated_shape(flat: list[int], cell: int, width: int, height: int) -> tuple[int, int] | None:
    """(covered, flagged) neighbours of ``cell`` when no opened cell lies within two
    steps of it (its counts then depend on nothing else), else ``None``."""
    if any(flat[n] >= 0 for n in neighbour_table(width, height, radius=2)[cell]):
        return None
    around = neighbour_table(width, height)[cell]
    flags = sum(1 for n in around if flat[n] == FLAGGED)
    return len(around) - flags, flags


def _compiled_chances(board: Board, cell: int, isolated: bool) -> list[float] | None:
    """The chances from the compiled trial count, or ``None`` to ask the exact engine."""
    if board.total_mines is None or board.grid.size > FLOAT_CELLS or not ready():
        return None
    from ..float_weights import trial_weights

    numbers = np.array(number_range(board, cell), np.int64)
    logs, _ = trial_weights(board, cell, numbers, isolated)
    finite = np.isfinite(logs)
    if np.isnan(logs).any() or not finite.any():
        return None
    weights = np.where(finite, np.exp(logs - logs[finite].max()), 0.0)
    chances = [0.0] * 9
    for number, weight in zip(numbers.tolist(), (weights / weights.sum()).tolist(), strict=True):
        chances[number] = weight
    return chances


def _cell_chances(board: Board, cell: int, cache: dict) -> list[float]:
    """The exact chances of each number on ``cell``, which some layout leaves safe."""
    layouts = [0] * 9
    for number in number_range(board, cell):
        trial = board.copy()
        trial.grid.reshape(-1)[cell] = number
        try:
            layouts[number] = count_position(trial, cache=cache, any_count=True).layouts
        except InconsistentBoardError:
            continue
    safe = sum(layouts)
    return [float(Fraction(count, safe)) for count in layouts]


def number_chances(
    board: Board, weights: Weights | None = None, seconds: float | None = None
) -> tuple[list[list[Chances]], bool]:
    """For every cell (H lists of W), the chances of the number it shows if safe, and
    whether every cell was weighed.

    :param weights: ``count_position(board, any_count=True)`` when the caller has it.
    :param seconds: a time budget: the cells not reached by then are left ``None``
        and the second value is false (a large board on the exact engine).
    :raises InconsistentBoardError: when no layout fits the position.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    if weights is None:
        weights = count_position(board, any_count=True)
    width, height = board.width, board.height
    flat = board.grid.reshape(-1).tolist()
    cache: dict = {}
    shapes: dict[tuple[int, int], list[float]] = {}
    found: list[Chances] = [None] * (width * height)
    complete = True
    for cell, value in enumerate(flat):
        if value != COVERED or weights.mine_weight.get(cell) == weights.layouts:
            continue
        if deadline is not None and time.monotonic() > deadline:
            complete = False
            break
        shape = _isolated_shape(flat, cell, width, height)
        if shape is not None and shape in shapes:
            found[cell] = shapes[shape]
            continue
        chances = _compiled_chances(board, cell, shape is not None)
        if chances is None:
            chances = _cell_chances(board, cell, cache)
        if shape is not None:
            shapes[shape] = chances
        found[cell] = chances
    return [found[y * width : (y + 1) * width] for y in range(height)], complete
