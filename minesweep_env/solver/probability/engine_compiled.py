"""The compiled float path of :func:`~.engine.mine_probabilities`, in one call.

The exact engine stays the reference and the path for everything that needs
exact counts (:func:`~.engine.analyse_position`, :func:`~.engine.count_position`,
the ``complete`` rule set). This path answers only the float question, with
probabilities equal to the exact engine's within 1e-12, and hands back ``None``
whenever the exact engine must answer instead (see :mod:`.counting_compiled`).

Importing this module imports numba; :mod:`minesweep_env.compiled` decides when
that is worth it.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ... import compiled
from ...compiled.loading import load_on_first_call
from ...core.board import Board
from .counting_compiled import mine_probabilities_into
from .counting_constants import OK

SIGNATURE = (types.Array(types.int8, 2, "C"), types.int64, types.Array(types.float64, 2, "C"))
"""The one signature the kernel is called with: :func:`fast_mine_probabilities` brings
every board to it, so the cache holds all a process needs."""

KERNELS = ((mine_probabilities_into, SIGNATURE),)
"""What the warm-up compiles for this module."""

CHECK = "minesweep_env.solver.probability.engine:check_compiled"
"""The warm-up's check of this path against the exact engine."""


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


if compiled.loaded():  # imported by the engine once the cache is ready: load on first call
    load_on_first_call(globals(), KERNELS)
