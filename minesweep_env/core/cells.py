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


def neighbours(x: int, y: int, width: int, height: int) -> list[tuple[int, int]]:
    """The (x, y) neighbours of a cell, in row-major order."""
    return [(i % width, i // width) for i in neighbour_table(width, height)[y * width + x]]


def adjacent_mine_counts(mines: np.ndarray) -> np.ndarray:
    """Number of mines around every cell of a boolean (H, W) array, as int8."""
    h, w = mines.shape
    # A zero border by hand: np.pad costs more than the sums on boards this small.
    padded = np.zeros((h + 2, w + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = mines
    total = np.zeros((h, w), dtype=np.int8)
    for dy in range(3):
        for dx in range(3):
            if dx == 1 and dy == 1:
                continue
            total += padded[dy : dy + h, dx : dx + w]
    return total
