"""What every local rule set reads off a position: one constraint per probed number.

A probed number that still touches covered cells says "``need`` of these
``unknown`` cells are mines", where ``need`` is the number minus the flags
around it. Cells already proven safe (:data:`KNOWN_SAFE`) are known not to be
mines, so they are in neither count. The MySweeper, "Mines" and mine-solver rule
sets all start from this list.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED
from ..numbers import read_numbers


class NumberConstraint(NamedTuple):
    """``need`` of the cells in ``unknown`` are mines (read off the number at ``cell``)."""

    cell: int
    """Flat index of the probed number."""
    need: int
    """The number minus the flags around it: mines still buried around it."""
    unknown: tuple[int, ...]
    """Flat indices of its covered, unflagged, not-known-safe neighbours (ascending)."""


def number_constraints(board: Board, frontier_only: bool = True) -> list[NumberConstraint]:
    """One constraint per probed number, in row-major order of the numbers.

    Neighbour counts are taken for the whole board at once (the auto-solver asks
    after every step, :func:`~minesweep_env.solver.numbers.read_numbers`), and
    neighbour lists built only for the numbers kept.

    :param frontier_only: leave out numbers that touch no unknown cell.
    :raises InconsistentBoardError: see :func:`~minesweep_env.solver.numbers.read_numbers`.
    """
    counts = read_numbers(board)
    numbers = counts.view >= 0
    kept = numbers & (counts.room > 0) if frontier_only else numbers
    flat = counts.view.tolist()
    flat_need = counts.need
    table = board.neighbours()
    return [
        NumberConstraint(
            index,
            int(flat_need[index]),
            tuple(n for n in table[index] if flat[n] == COVERED),
        )
        for index in np.flatnonzero(kept).tolist()
    ]


def covered_cells(board: Board) -> list[int]:
    """Flat indices of covered cells that are neither flagged nor known safe."""
    return [i for i, v in enumerate(board.grid.reshape(-1).tolist()) if v == COVERED]
