"""Random consistent positions, made by playing random layouts (for property tests)."""

from __future__ import annotations

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import FLAGGED
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import Minefield


def random_position(
    seed: int, max_side: int = 6, flag_share: float = 0.3
) -> tuple[Board, MineLayout]:
    """A position reached by probing random safe cells of a random small layout.

    Some true mines are flagged (about ``flag_share`` of them), so positions
    with flags occur; the board's ``total_mines`` is the layout's mine count.
    """
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, max_side + 1))
    height = int(rng.integers(1, max_side + 1))
    cells = width * height
    mines = int(rng.integers(0, cells))  # at least one safe cell
    layout = MineLayout.random(width, height, mines, rng)
    field = Minefield(layout, first_click="none", rng=rng)
    safe = np.flatnonzero(~layout.mines.reshape(-1))
    for index in rng.permutation(safe)[: int(rng.integers(1, len(safe) + 1))]:
        if rng.random() < 0.5:
            field.probe(int(index) % width, int(index) // width)
    mine_cells = np.flatnonzero(layout.mines.reshape(-1))
    view = field.view.reshape(-1)
    for index in mine_cells:
        if rng.random() < flag_share:
            view[index] = FLAGGED
    return Board(field.view.copy(), mines), layout
