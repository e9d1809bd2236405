"""What every local rule set reads off a position: one constraint per probed number.

A probed number that still touches covered cells says "``need`` of these
``unknown`` cells are mines", where ``need`` is the number minus the flags
around it. Cells already proven safe (:data:`KNOWN_SAFE`) are known not to be
mines, so they are in neither count. The MySweeper, seed 002 and seed 004 rule
sets all start from this list.
"""

from __future__ import annotations

from typing import NamedTuple

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


def number_constraints(board: Board, frontier_only: bool = True) -> list[NumberConstraint]:
    """One constraint per probed number, in row-major order of the numbers.

    :param frontier_only: leave out numbers that touch no unknown cell.
    :raises InconsistentBoardError: a number with more flags around it than its
        value, or fewer unknown neighbours than mines still to find.
    """
    width = board.width
    flat = board.grid.reshape(-1).tolist()
    table = board.neighbours()
    constraints: list[NumberConstraint] = []
    for index, value in enumerate(flat):
        if value < 0:
            continue
        unknown: list[int] = []
        flags = 0
        for n in table[index]:
            code = flat[n]
            if code == COVERED:
                unknown.append(n)
            elif code == FLAGGED:
                flags += 1
        need = value - flags
        if need < 0 or need > len(unknown):
            cell = (index % width, index // width)
            problem = (
                f"{value} has {flags} flags around it"
                if need < 0
                else f"{value} has only {flags + len(unknown)} cells around it that can be mines"
            )
            raise InconsistentBoardError(problem, cell)
        if unknown or not frontier_only:
            constraints.append(NumberConstraint(index, need, tuple(unknown)))
    return constraints


def covered_cells(board: Board) -> list[int]:
    """Flat indices of covered cells that are neither flagged nor known safe."""
    return [i for i, v in enumerate(board.grid.reshape(-1).tolist()) if v == COVERED]
