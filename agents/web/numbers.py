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

import math
import time
from fractions import Fraction

import numpy as np

from minesweep_env.compiled import ready
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_sum
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import Weights, count_position

from ..progress import FLOAT_CELLS, number_range

Chances = list[float] | None
"""P(shows 0) ... P(shows 8) of one cell, or ``None`` (not covered, or a mine in every layout)."""


def isolated_shapes(board: Board) -> np.ndarray:
    """Per cell (flat), ``covered * 9 + flagged`` neighbours when no opened cell lies
    within two steps of it (its counts then depend on nothing else), else -1."""
    grid = board.grid
    opened = (grid >= 0).astype(np.int8)
    near = neighbour_sum(opened) + opened  # an opened cell in the 3x3 block
    far = neighbour_sum((near > 0).astype(np.int8)) + (near > 0)  # ... in the 5x5 block
    flags = neighbour_sum((grid == FLAGGED).astype(np.int8)).astype(np.int64)
    cells = neighbour_sum(np.ones_like(opened)).astype(np.int64)
    shapes = (cells - flags) * 9 + flags
    return np.where(far == 0, shapes, -1).reshape(-1)


def _compiled_chances(board: Board, cell: int, isolated: bool) -> list[float] | None:
    """The chances from the compiled trial count, or ``None`` to ask the exact engine."""
    if board.total_mines is None or board.grid.size > FLOAT_CELLS or not ready():
        return None
    from ..float_weights import trial_weights

    numbers = number_range(board, cell)
    logs = trial_weights(board, cell, np.array(numbers, np.int64), isolated)[0].tolist()
    finite = [v for v in logs if math.isfinite(v)]
    if any(math.isnan(v) for v in logs) or not finite:
        return None
    top = max(finite)
    # A few numbers per cell: plain floats cost less than numpy's per-call overhead.
    weights = [math.exp(v - top) if math.isfinite(v) else 0.0 for v in logs]
    total = math.fsum(weights)
    chances = [0.0] * 9
    for number, weight in zip(numbers, weights, strict=True):
        chances[number] = weight / total
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
    shape_of = isolated_shapes(board).tolist()
    cache: dict = {}
    shapes: dict[int, list[float]] = {}
    found: list[Chances] = [None] * (width * height)
    complete = True
    for cell, value in enumerate(flat):
        if value != COVERED or weights.mine_weight.get(cell) == weights.layouts:
            continue
        if deadline is not None and time.monotonic() > deadline:
            complete = False
            break
        shape = shape_of[cell]
        if shape in shapes:
            found[cell] = shapes[shape]
            continue
        allowed = number_range(board, cell)
        if len(allowed) == 1:  # the cell can be safe (checked above) and show only this
            chances = [0.0] * 9
            chances[allowed[0]] = 1.0
        else:
            chances = _compiled_chances(board, cell, shape >= 0)
        if chances is None:
            chances = _cell_chances(board, cell, cache)
        if shape >= 0:
            shapes[shape] = chances
        found[cell] = chances
    return [found[y * width : (y + 1) * width] for y in range(height)], complete
