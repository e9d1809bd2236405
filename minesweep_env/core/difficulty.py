"""How hard a layout is, in the measures Minesweeper players use.

- **openings**: the 8-connected regions of cells showing 0; one click opens each.
- **islands**: the 8-connected regions of numbered cells that touch no 0 (each
  must be cleared cell by cell).
- **3BV** (``bbbv``, Bechtel's Board Benchmark Value): the fewest left clicks
  that clear the board, one per opening plus one per numbered cell that no
  opening reveals.
- **ZiNi**: the clicks (chords and flags included) a greedy chording strategy
  needs, an estimate of the fewest; computed by ``ms-toollib``, the Metasweeper
  community's library that the ranking sites' figures come from.

The first three are counted here (iteratively, so a board of any allowed size
is measured) and equal ``ms-toollib``'s ``cal_op``, ``Board(...).isl`` and
``cal_bbbv`` (tested on thousands of layouts). ZiNi is ``ms-toollib``'s
``cal_zini``; its recursion overflows the stack on large empty regions, so it is
computed for boards of at most :data:`ZINI_MAX_CELLS` cells only (``None`` above).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .cells import adjacent_mine_counts

ZINI_MAX_CELLS = 4096
"""Largest board (64x64 cells) whose ZiNi is computed: ms-toollib's ZiNi recurses
once per cell of an opening and crashed the process on a 300x300 empty board."""


@dataclass(frozen=True)
class Difficulty:
    """The difficulty measures of one layout."""

    bbbv: int
    zini: int | None
    """``None`` on boards larger than :data:`ZINI_MAX_CELLS` cells."""
    openings: int
    islands: int


def _regions(mask: np.ndarray) -> int:
    """The number of 8-connected regions of ``True`` cells.

    Counted over row runs, not cells: each run of ``True`` cells in a row is
    joined (union-find) to the runs of the row above that touch it, diagonals
    included. A board has far fewer runs than cells, and no recursion is needed.
    """
    height, width = mask.shape
    padded = np.zeros((height, width + 2), dtype=bool)
    padded[:, 1:-1] = mask
    rows, starts = np.nonzero(padded[:, 1:] & ~padded[:, :-1])  # row-major, as are the ends
    ends = np.nonzero(padded[:, :-1] & ~padded[:, 1:])[1]  # one past each run's last cell
    parent = list(range(rows.size))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    count = rows.size
    above = below = 0  # runs [above, below) lie on the row above the current one
    row_list, start_list, end_list = rows.tolist(), starts.tolist(), ends.tolist()
    for k, row in enumerate(row_list):
        if k == 0 or row != row_list[k - 1]:  # a new row: the previous row is "above"
            above, below = (below, k) if k and row_list[k - 1] == row - 1 else (k, k)
        start, end = start_list[k], end_list[k]
        for j in range(above, below):
            if start_list[j] <= end and end_list[j] >= start:  # touching, diagonals included
                a, b = root(j), root(k)
                if a != b:
                    parent[b] = a
                    count -= 1
    return count


def _touches(mask: np.ndarray) -> np.ndarray:
    """Cells with a ``True`` cell in their 3x3 window (themselves included)."""
    padded = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), dtype=bool)
    padded[1:-1, 1:-1] = mask
    rows = padded[:-2] | padded[1:-1] | padded[2:]
    return rows[:, :-2] | rows[:, 1:-1] | rows[:, 2:]


def zini(mines: np.ndarray) -> int | None:
    """ms-toollib's ZiNi of the layout, or ``None`` on boards too large to measure."""
    mines = np.asarray(mines, dtype=bool)
    if mines.size > ZINI_MAX_CELLS:
        return None
    import ms_toollib

    board = np.where(mines, -1, adjacent_mine_counts(mines)).astype(np.int64).tolist()
    # 1.5.20 takes the board only; its type stub still lists the older loop_count.
    return int(ms_toollib.cal_zini(board))  # type: ignore[call-arg]


def measure(mines: np.ndarray) -> Difficulty:
    """3BV, ZiNi, openings and islands of a (height, width) boolean mine layout."""
    mines = np.asarray(mines, dtype=bool)
    numbers = adjacent_mine_counts(mines)
    zero = ~mines & (numbers == 0)
    isolated = ~mines & ~zero & ~_touches(zero)  # numbered cells no opening reveals
    openings = _regions(zero)
    return Difficulty(
        bbbv=openings + int(np.count_nonzero(isolated)),
        zini=zini(mines),
        openings=openings,
        islands=_regions(isolated),
    )


@lru_cache(maxsize=4096)  # a few hundred bytes an entry
def _measure_packed(height: int, width: int, packed: bytes) -> Difficulty:
    bits = np.unpackbits(np.frombuffer(packed, dtype=np.uint8))[: height * width]
    return measure(bits.astype(bool).reshape(height, width))


def layout_difficulty(mines: np.ndarray) -> Difficulty:
    """:func:`measure`, remembered for the last 4,096 layouts seen: a map played
    thousands of times is measured once (the first-click policy rarely changes it), and
    so is a seeded layout that several agents of a run play in the same process."""
    mines = np.asarray(mines, dtype=bool)
    height, width = mines.shape
    return _measure_packed(height, width, np.packbits(mines.reshape(-1)).tobytes())
