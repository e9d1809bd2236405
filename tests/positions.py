"""Random consistent positions, made by playing random layouts (for property tests)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import Minefield
from minesweep_env.solver.probability import Weights, count_position


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


def dense_position(
    seed: int, widths: tuple[int, int], heights: tuple[int, int], density: float, flags: float
) -> Board:
    """A small dense position probed to the end but for one to three safe cells, each
    mine flagged with chance ``flags``: numbers beside known mines, where links, twins
    and isolated edges are common. ``widths`` and ``heights`` are ``[low, high)``."""
    rng = np.random.default_rng(seed)
    width, height = int(rng.integers(*widths)), int(rng.integers(*heights))
    mines = rng.random((height, width)) < density
    safe = np.flatnonzero(~mines.reshape(-1))
    kept = {int(c) for c in rng.permutation(safe)[: int(rng.integers(1, 4))]}
    field = Minefield(MineLayout(mines), first_click="none", rng=rng)
    for cell in safe.tolist():
        if cell not in kept:
            field.probe(cell % width, cell // width)
    view = field.view.reshape(-1)
    for cell in np.flatnonzero(mines.reshape(-1)).tolist():
        if rng.random() < flags:
            view[cell] = FLAGGED
    return Board(field.view.copy(), int(mines.sum()))


def undecided_positions(
    count: int,
    *,
    tries_per_position: int,
    flag_share: float,
    limit: int = 2000,
    accept: Callable[[Board, Weights], bool] | None = None,
) -> list[Board]:
    """The first ``count`` random positions (seeds 0, 1, ...) with at least 6 cells, at most
    ``limit`` layouts and some covered cell undecided (and that ``accept`` takes): the
    inputs of the search tests, small enough to enumerate, with a guess left to make."""
    found = []
    for seed in range(tries_per_position * count):
        board, _ = random_position(seed, max_side=6, flag_share=flag_share)
        if board.grid.size < 6:
            continue
        weights = count_position(board)
        covered = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()
        if weights.layouts > limit or not any(
            0 < (weights.mine_weight[c] or 0) < weights.layouts for c in covered
        ):
            continue
        if accept is not None and not accept(board, weights):
            continue
        found.append(board)
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions fit")
