"""Cell codes of the player's view and the neighbourhood tables everything shares.

The view is an ``int8`` grid shaped (height, width). A probed cell holds its
number 0..8; the negative codes below mark what the player does not see. Cells
are addressed as (x, y) in public APIs and as flat indices ``y * width + x``
inside hot loops, where tuples would cost allocations.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

COVERED = -1
"""A covered cell the player knows nothing about (``?`` in text)."""
FLAGGED = -2
"""A covered cell known (or, for a person, believed) to hold a mine (``!``)."""
KNOWN_SAFE = -3
"""A covered cell proven safe whose number is not yet known (solver-internal)."""

STANDARD_BOARDS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
}
"""Name -> (width, height, mines) of the classic Windows difficulty levels."""


@lru_cache(maxsize=64)
def neighbour_table(width: int, height: int, radius: int = 1) -> tuple[tuple[int, ...], ...]:
    """For every flat index, the flat indices of the other cells within ``radius`` steps.

    Radius 1 gives the up to 8 neighbours; radius 2 the 5x5 window the IOCCC
    program compares numbers in. Cached per board size: env steps and solver
    passes reuse one table.
    """
    table = []
    for y in range(height):
        for x in range(width):
            table.append(
                tuple(
                    ny * width + nx
                    for ny in range(max(0, y - radius), min(height, y + radius + 1))
                    for nx in range(max(0, x - radius), min(width, x + radius + 1))
                    if (nx, ny) != (x, y)
                )
            )
    return tuple(table)


@lru_cache(maxsize=64)
def covered_view(width: int, height: int) -> np.ndarray:
    """A read-only (height, width) int8 view with every cell covered: a new game's view is
    its copy (``np.full`` costs several times as much as a copy, on every reset)."""
    view = np.full((height, width), COVERED, dtype=np.int8)
    view.setflags(write=False)
    return view


@lru_cache(maxsize=64)
def cell_coordinates(width: int, height: int) -> tuple[tuple[int, int], ...]:
    """The (x, y) of every flat index: lists of cells in (x, y) form (the env's
    ``info["opened"]``) share these tuples instead of making one per cell and step."""
    return tuple((i % width, i // width) for i in range(width * height))


def neighbours(x: int, y: int, width: int, height: int) -> list[tuple[int, int]]:
    """The (x, y) neighbours of a cell, in row-major order."""
    return [(i % width, i // width) for i in neighbour_table(width, height)[y * width + x]]


def neighbour_sum(values: np.ndarray, border: float = 0, combine: np.ufunc = np.add) -> np.ndarray:
    """``combine`` of the eight neighbours of every cell of a 2-D array (their sum by default).

    The one neighbourhood kernel: mine numbers, the solver's counts of covered
    cells and flags, an agent's product of safe chances. The array is copied
    into a fresh flat buffer with a border of ``border`` (plus one spare cell at
    each end), so every neighbour is a contiguous slice at a fixed offset and
    eight vectorised operations do the whole board, far cheaper than a loop or
    a gather. A fresh buffer per call (a few microseconds) keeps callers on
    different threads apart. Operands are combined in row-major order of the
    neighbours, so float results do not depend on this implementation.

    :param values: (H, W); the result has its dtype (mind overflow: 8 x the largest value).
    :param border: what an off-board neighbour contributes.
    :param combine: a binary ufunc, e.g. ``np.multiply`` with ``border=1``.
    :returns: (H, W), a view into the buffer (not contiguous).
    """
    height, width = values.shape
    stride = width + 2
    buffer = np.full(stride * (height + 2) + 2, border, dtype=values.dtype)
    buffer[1:-1].reshape(height + 2, stride)[1:-1, 1:-1] = values
    # Rows 1..height of the padded grid (their border columns included), flat.
    start, stop = stride + 1, stride * (height + 1) + 1
    total = combine(
        buffer[start - stride - 1 : stop - stride - 1], buffer[start - stride : stop - stride]
    )
    for offset in (1 - stride, -1, 1, stride - 1, stride, stride + 1):
        combine(total, buffer[start + offset : stop + offset], out=total)
    return total.reshape(height, stride)[:, 1:-1]


def adjacent_mine_counts(mines: np.ndarray) -> np.ndarray:
    """Number of mines around every cell of a boolean (H, W) array, as int8 (H, W).

    Also takes a stack of boards, (K, H, W), and counts each. The 3x3 window sums
    of rows then columns, less the cell itself: five additions over a zero-bordered
    copy, fewer numpy calls than :func:`neighbour_sum`'s eight (a new layout per
    game counts its numbers here).
    """
    mines = np.asarray(mines, dtype=bool)
    padded = np.zeros((*mines.shape[:-2], mines.shape[-2] + 2, mines.shape[-1] + 2), np.int8)
    padded[..., 1:-1, 1:-1] = mines
    rows = padded[..., :-2, :] + padded[..., 1:-1, :] + padded[..., 2:, :]
    counts = rows[..., :-2] + rows[..., 1:-1] + rows[..., 2:]
    counts -= padded[..., 1:-1, 1:-1]
    return counts
