"""3BV, ZiNi, openings and islands: ours equal ms-toollib's on thousands of layouts,
hand-counted boards come out right, and large boards are measured without a crash."""

from __future__ import annotations

import ms_toollib
import numpy as np
import pytest

from minesweep_env import MineLayout
from minesweep_env.core.cells import adjacent_mine_counts
from minesweep_env.core.difficulty import (
    ZINI_MAX_CELLS,
    Difficulty,
    layout_difficulty,
    measure,
)


def _theirs(mines: np.ndarray) -> tuple[int, int, int, int]:
    board = np.where(mines, -1, adjacent_mine_counts(mines)).astype(int).tolist()
    return (
        ms_toollib.cal_bbbv(board),
        ms_toollib.cal_zini(board),
        ms_toollib.cal_op(board),
        ms_toollib.Board(board).isl,
    )


def test_equal_to_ms_toollib_on_thousands_of_layouts():
    rng = np.random.default_rng(2024)
    for case in range(3000):
        width, height = int(rng.integers(1, 31)), int(rng.integers(1, 17))
        cells = width * height
        # a third at any density (empty and full boards included), the rest near expert's
        mines = int(rng.integers(0, cells + 1)) if case % 3 == 0 else int(0.2 * cells)
        layout = MineLayout.random(width, height, mines, rng)
        ours = measure(layout.mines)
        assert (ours.bbbv, ours.zini, ours.openings, ours.islands) == _theirs(layout.mines), (
            width,
            height,
            layout.rows(),
        )


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # one mine in a corner: one opening reveals everything
        (["xooo", "oooo", "oooo"], Difficulty(bbbv=1, zini=1, openings=1, islands=0)),
        # a wall of mines: two openings, no island
        (["ooxoo", "ooxoo", "ooxoo"], Difficulty(bbbv=2, zini=2, openings=2, islands=0)),
        # no zero anywhere: every safe cell is its own click; the four touch diagonally,
        # so they make one 8-connected island
        (["xox", "oxo", "xox"], Difficulty(bbbv=4, zini=4, openings=0, islands=1)),
        # two numbered cells far apart, no zero: two islands
        (["oxxxo"], Difficulty(bbbv=2, zini=2, openings=0, islands=2)),
    ],
)
def test_hand_counted_boards(rows, expected):
    mines = np.array([[c == "x" for c in row] for row in rows])
    assert measure(mines) == expected


def test_a_large_empty_board_is_measured_without_recursion_and_without_zini():
    mines = np.zeros((1024, 1024), dtype=bool)
    mines[0, 0] = True
    measured = measure(mines)
    assert measured == Difficulty(bbbv=1, zini=None, openings=1, islands=0)
    assert mines.size > ZINI_MAX_CELLS


def test_the_remembered_measure_is_the_measure():
    layout = MineLayout.random(30, 16, 99, np.random.default_rng(5))
    assert layout_difficulty(layout.mines) == measure(layout.mines)
    assert layout_difficulty(layout.mines.copy()) is layout_difficulty(layout.mines)
