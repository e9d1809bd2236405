"""What the probed numbers of a position say, read once, and the one check that they can hold.

Every reader of constraints (the local rule sets' :func:`number_constraints`,
the probability engine's :func:`read_constraints`) starts here, so a number
that no layout can satisfy on its own is reported with one message whichever
rule set meets it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.board import Board
from ..core.cells import COVERED, FLAGGED, neighbour_sum
from ..errors import InconsistentBoardError

_NEIGHBOUR_CODES = np.zeros(256, dtype=np.int16)
"""Indexed by a view code read as a byte: what a neighbour adds to the count.

A covered cell adds 1 (bits 0-3), a flag 16 (bits 4-7), a number 256 (bits 8+),
so one neighbour sum counts all three; known-safe cells and the border add 0."""
_NEIGHBOUR_CODES[:9] = 256
_NEIGHBOUR_CODES[COVERED & 255] = 1
_NEIGHBOUR_CODES[FLAGGED & 255] = 16


class NumberCounts(NamedTuple):
    """Flat per-cell counts of a position (index ``y * width + x``)."""

    view: np.ndarray
    """The board's codes, flat (int8): a number where ``view >= 0``."""
    need: np.ndarray
    """A number's value minus the flags around it: mines it still needs (int16)."""
    room: np.ndarray
    """Covered, unflagged, not-known-safe neighbours: where those mines can go (int16)."""
    near_number: np.ndarray
    """Whether a cell has a number among its neighbours (bool)."""


def read_numbers(board: Board) -> NumberCounts:
    """Count around every cell at once and check every number against its neighbours.

    :raises InconsistentBoardError: naming the first number (row-major) with
        more flags around it than its value, or fewer cells around it that can
        be mines than mines it still needs.
    """
    grid = board.grid
    around = neighbour_sum(_NEIGHBOUR_CODES[grid.view(np.uint8)]).reshape(-1)
    view = grid.reshape(-1)
    room = around & 15
    flags = around >> 4 & 15
    need = view - flags
    bad = (view >= 0) & ((need < 0) | (need > room))
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        value, flag_count = int(view[index]), int(flags[index])
        problem = (
            f"{value} has {flag_count} flags around it"
            if need[index] < 0
            else f"{value} has only {flag_count + int(room[index])} cells around it"
            " that can be mines"
        )
        raise InconsistentBoardError(problem, (index % board.width, index // board.width))
    return NumberCounts(view, need, room, around >= 256)
