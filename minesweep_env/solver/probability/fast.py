"""The float fast path of :func:`~.engine.mine_probabilities`: one compiled call per position.

The exact engine stays the reference and the path for everything that needs
exact counts (:func:`~.engine.analyse_position`, :func:`~.engine.count_position`,
the ``complete`` rule set). This path answers only the float question, with
probabilities equal to the exact engine's within 1e-12, and hands back ``None``
whenever the exact engine must answer instead (see :mod:`.kernels`).
"""

from __future__ import annotations

import numpy as np

from ...core.board import Board
from .kernels import OK, mine_probabilities_into


def fast_mine_probabilities(board: Board, total_mines: int | None = None) -> np.ndarray | None:
    """Mine probabilities of ``board`` as float64 (H, W), or ``None`` to ask the exact engine.

    :param total_mines: overrides ``board.total_mines`` when given.
    """
    total = board.total_mines if total_mines is None else total_mines
    grid = np.ascontiguousarray(board.grid, dtype=np.int8)
    out = np.empty(grid.shape)
    status = mine_probabilities_into(grid, -1 if total is None else int(total), out)
    return out if status == OK else None
