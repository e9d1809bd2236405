"""``ms-toollib`` (PyPI, Rust): its exact probability engine and no-guess generator.

``cal_probability_onboard(board, mines)`` is a port of JSMinesweeper's engine;
its board is H lists of W ints (10 covered, 11 flag, 0-8 a number) and ``mines``
the total, flags included. ``laymine_solvable`` draws layouts until its
``is_solvable`` accepts one; that check ignores the total mine count.
"""

from __future__ import annotations

import numpy as np

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, FLAGGED

from . import require_module

COVERED_CODE = 10
FLAG_CODE = 11


def load():
    """The ``ms_toollib`` module, or :class:`~peers.PeerMissing`."""
    return require_module("ms_toollib", "ms-toollib 1.5.20")


def to_toollib(board: Board) -> list[list[int]]:
    """A position in ms-toollib's board format (its native input, built outside the timing)."""
    grid = board.grid.astype(np.int64)
    if np.any(grid < FLAGGED):
        raise ValueError("ms-toollib has no code for a covered cell known safe")
    grid[grid == COVERED] = COVERED_CODE
    grid[grid == FLAGGED] = FLAG_CODE
    return grid.tolist()


def mine_probabilities(toollib, cells: list[list[int]], mines: int) -> np.ndarray:
    """ms-toollib's mine probability per cell, float64 (H, W)."""
    probabilities, _ = toollib.cal_probability_onboard(cells, mines)
    return np.asarray(probabilities, dtype=np.float64)


def laymine_solvable(toollib, width: int, height: int, mines: int, start: tuple[int, int]):
    """One no-guess layout from ms-toollib (its rows first, then columns); True when found."""
    _, found = toollib.laymine_solvable(height, width, mines, start[1], start[0])
    return found
