"""The batched zero flood in plain Python: the reference the compiled flood is tested against.

:func:`open_cells` is :meth:`minesweep_env.core.minefield.Minefield._flood` on
many boards at once, written as plain loops over arrays, the shape a compiled
kernel takes as it is; :class:`~minesweep_env.envs.board_batch.BoardBatch`
plays it when the kernels are not loaded.
"""

from __future__ import annotations

import numpy as np

from ..core.cells import COVERED, neighbour_table


def neighbour_array(width: int, height: int) -> np.ndarray:
    """``int64`` (W*H, 8): the flat neighbours of every cell, padded with -1."""
    table = neighbour_table(width, height)
    out = np.full((width * height, 8), -1, dtype=np.int64)
    for cell, around in enumerate(table):
        out[cell, : len(around)] = around
    return out


def open_cells(
    view: np.ndarray,
    numbers: np.ndarray,
    neighbours: np.ndarray,
    boards: np.ndarray,
    cells: np.ndarray,
) -> np.ndarray:
    """Open cell ``cells[k]`` of board ``boards[k]`` for every k, flooding zeros.

    The batched :meth:`Minefield._flood`: a seed shows its number, a zero
    opens its covered neighbours, and zeros opened that way go on; flags are
    never opened (no flag touches a zero) and open cells are skipped, so a
    seed another seed's flood opened costs nothing. ``view`` and ``numbers``
    are (N, W*H), ``view`` is written in place; ``neighbours`` is
    :func:`neighbour_array`; seeds must be safe. Returns ``int64`` (N,): the
    cells each board opened. The reference of
    :func:`~minesweep_env.solver.rules.complete_play_compiled.open_many` (its docstring
    names the tests).

    Plain loops over arrays, the shape a compiled kernel (numba ``@njit``)
    takes as it is. A whole-array version (one pass per ring of the flood over
    all boards) was measured 3x slower than this loop on expert boards: floods
    are sparse, so a stack touches far fewer cells than a pass over the board.
    """
    opened = np.zeros(view.shape[0], dtype=np.int64)
    for board, start in zip(boards.tolist(), cells.tolist(), strict=True):
        board_view, board_numbers = view[board], numbers[board]
        if board_view[start] != COVERED:
            continue
        board_view[start] = board_numbers[start]
        count = 1
        stack = [start] if board_numbers[start] == 0 else []
        while stack:
            for cell in neighbours[stack.pop()].tolist():
                if cell >= 0 and board_view[cell] == COVERED:
                    board_view[cell] = board_numbers[cell]
                    count += 1
                    if board_numbers[cell] == 0:
                        stack.append(cell)
        opened[board] += count
    return opened
