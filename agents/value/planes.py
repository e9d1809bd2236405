"""What the value network sees of a position: one plane per fact about each cell.

Numbers are one-hot (a 3 is not "three ones"); the engine's exact mine probability
of each covered cell is given outright, since no small network would learn to count
layouts; the share of mines among the covered cells (0 when the total is unknown) is a
plane of its own, since a convolution cannot count. An on-board plane lets the zero
padding mark the edges.
"""

from __future__ import annotations

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.solver.probability.engine import mine_probabilities

PLANES = 14
"""On board, covered, flagged, numbers 0-8, mine probability, mine density."""


def planes(board: Board) -> np.ndarray:
    """The (PLANES, H, W) float32 input of one position."""
    grid = board.grid
    out = np.zeros((PLANES, *grid.shape), dtype=np.float32)
    out[0] = 1.0
    covered = grid == COVERED
    out[1] = covered
    out[2] = grid == FLAGGED
    for number in range(9):
        out[3 + number] = grid == number
    if covered.any():
        probability = mine_probabilities(board)
        out[12] = np.where(covered, np.nan_to_num(probability, nan=0.0), 0.0)
        if board.total_mines is not None:
            left = board.total_mines - int(np.count_nonzero(grid == FLAGGED))
            out[13] = max(left, 0) / int(np.count_nonzero(covered))
    return out
