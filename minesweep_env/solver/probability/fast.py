"""The float fast path of :func:`~.engine.mine_probabilities`: one compiled call per position.

The exact engine stays the reference and the path for everything that needs
exact counts (:func:`~.engine.analyse_position`, :func:`~.engine.count_position`,
the ``complete`` rule set). This path answers only the float question, with
probabilities equal to the exact engine's within 1e-12, and hands back ``None``
whenever the exact engine must answer instead (see :mod:`.kernels`).

Importing this module imports numba; :mod:`.jit` decides when that is worth it.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ...core.board import Board
from .kernels import OK, mine_probabilities_into

SIGNATURE = (types.Array(types.int8, 2, "C"), types.int64, types.Array(types.float64, 2, "C"))
"""The one signature the kernel is called with: :func:`fast_mine_probabilities` brings
every board to it, so the cache holds all a process needs."""


def load_kernels() -> bool:
    """Load the kernel for :data:`SIGNATURE` (from numba's cache, else by compiling it),
    then forbid further compiles: an unforeseen argument type raises instead of
    compiling in a caller's path.

    :returns: whether the kernel came from the cache.
    """
    # Once compiles are off numba refuses even a signature it holds: ask only once.
    if SIGNATURE not in mine_probabilities_into.overloads:
        mine_probabilities_into.compile(SIGNATURE)
    mine_probabilities_into.disable_compile()
    return not mine_probabilities_into.stats.cache_misses


def cache_index() -> str | None:
    """numba's index file for the kernel's cache, if numba says where it is."""
    cache_file = getattr(getattr(mine_probabilities_into, "_cache", None), "_cache_file", None)
    return getattr(cache_file, "_index_path", None)


def fast_mine_probabilities(board: Board, total_mines: int | None = None) -> np.ndarray | None:
    """Mine probabilities of ``board`` as float64 (H, W), or ``None`` to ask the exact engine.

    :param total_mines: overrides ``board.total_mines`` when given.
    """
    total = board.total_mines if total_mines is None else total_mines
    # Writable too: numba types a read-only array apart, which would be a new compile.
    grid = np.require(board.grid, np.int8, ["C", "W"])
    out = np.empty(grid.shape)
    status = mine_probabilities_into(grid, -1 if total is None else int(total), out)
    return out if status == OK else None
