"""What every local rule set reads off a position: one constraint per probed number.

A probed number that still touches covered cells says "``need`` of these
``unknown`` cells are mines", where ``need`` is the number minus the flags
around it. Cells already proven safe (:data:`KNOWN_SAFE`) are known not to be
mines, so they are in neither count. The MySweeper, seed 002 and seed 004 rule
sets all start from this list.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED, FLAGGED
from ...errors import InconsistentBoardError


class NumberConstraint(NamedTuple):
    """``need`` of the cells in ``unknown`` are mines (read off the number at ``cell``)."""

    cell: int
    """Flat index of the probed number."""
    need: int
    """The number minus the flags around it: mines still buried around it."""
    unknown: tuple[int, ...]
    """Flat indices of its covered, unflagged, not-known-safe neighbours (ascending)."""


def _around(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Covered and flagged neighbours of every cell, both from one pass of slice sums.

    A covered cell counts 1 and a flag 16, so one sum of the eight shifted
    views holds both counts (at most 8 each).
    """
    height, width = grid.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.int16)
    padded[1:-1, 1:-1] = (grid == COVERED) + 16 * (grid == FLAGGED)
    total = np.zeros((height, width), dtype=np.int16)
    for dy in range(3):
        for dx in range(3):
            if dy != 1 or dx != 1:
                total += padded[dy : dy + height, dx : dx + width]
    return total & 15, total >> 4


def number_constraints(board: Board, frontier_only: bool = True) -> list[NumberConstraint]:
    """One constraint per probed number, in row-major order of the numbers.

    Neighbour counts are taken for the whole board at once (the auto-solver asks
    after every step), and neighbour lists built only for the numbers kept.

    :param frontier_only: leave out numbers that touch no unknown cell.
    :raises InconsistentBoardError: a number with more flags around it than its
        value, or fewer unknown neighbours than mines still to find.
    """
    grid = board.grid
    covered_around, flags_around = _around(grid)
    numbers = grid >= 0
    need = grid.astype(np.int16) - flags_around
    bad = numbers & ((need < 0) | (need > covered_around))
    if bad.any():
        y, x = (int(v) for v in np.argwhere(bad)[0])
        value, flags = int(grid[y, x]), int(flags_around[y, x])
        problem = (
            f"{value} has {flags} flags around it"
            if need[y, x] < 0
            else f"{value} has only {flags + int(covered_around[y, x])} cells around it"
            " that can be mines"
        )
        raise InconsistentBoardError(problem, (x, y))
    kept = numbers & (covered_around > 0) if frontier_only else numbers
    flat = grid.reshape(-1).tolist()
    flat_need = need.reshape(-1)
    table = board.neighbours()
    return [
        NumberConstraint(
            index,
            int(flat_need[index]),
            tuple(n for n in table[index] if flat[n] == COVERED),
        )
        for index in np.flatnonzero(kept.reshape(-1)).tolist()
    ]


def covered_cells(board: Board) -> list[int]:
    """Flat indices of covered cells that are neither flagged nor known safe."""
    return [i for i, v in enumerate(board.grid.reshape(-1).tolist()) if v == COVERED]
