"""The compiled float path of mine_probabilities against the exact engine.

The exact engine (itself checked against the brute-force enumerator in
test_probability.py) is the reference: the fast path must give the same
probabilities within 1e-12, the same NaN cells, exact 0.0 and 1.0 where the
exact engine has them, equal floats where the exact probabilities are equal
(callers break ties with ``==``), and hand every position it cannot count to
the exact engine (inconsistent, too wide, beyond the float range).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from brute_force import exact_probabilities
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_position

from minesweep_env import (
    STANDARD_BOARDS,
    Board,
    InconsistentBoardError,
    Minefield,
    MineLayout,
    analyse_position,
    mine_probabilities,
)
from minesweep_env.core.cells import COVERED, KNOWN_SAFE
from minesweep_env.solver.probability.engine_compiled import fast_mine_probabilities


def _assert_matches_exact(board: Board, total: int | None) -> None:
    """The fast path answers, and agrees with the exact engine cell by cell."""
    fast = fast_mine_probabilities(board, total)
    assert fast is not None, board.rows()
    analysis = analyse_position(board, total)
    exact = analysis.probabilities
    assert np.array_equal(np.isnan(fast), np.isnan(exact))
    known = ~np.isnan(exact)
    assert np.abs(fast[known] - exact[known]).max(initial=0.0) <= 1e-12
    weights = analysis.mine_weights[known]
    assert np.array_equal(fast[known] == 0.0, weights == 0)
    assert np.array_equal(fast[known] == 1.0, weights == analysis.layouts)
    # Equal exact probabilities give equal floats.
    fractions = [Fraction(int(w), analysis.layouts) for w in weights]
    by_value: dict[Fraction, float] = {}
    for fraction, value in zip(fractions, fast[known], strict=True):
        assert by_value.setdefault(fraction, value) == value


def _with_known_safe(board: Board, layout: MineLayout, seed: int) -> Board:
    rng = np.random.default_rng(seed)
    out = board.copy()
    flat = out.grid.reshape(-1)
    candidates = np.flatnonzero((flat == COVERED) & ~layout.mines.reshape(-1))
    flat[candidates[rng.random(len(candidates)) < 0.35]] = KNOWN_SAFE
    return out


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_random_positions_match_the_exact_engine(seed: int, with_total: bool, safe: bool) -> None:
    board, layout = random_position(seed, max_side=8)
    if safe:
        board = _with_known_safe(board, layout, seed)
    _assert_matches_exact(board, board.total_mines if with_total else None)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_small_positions_match_the_brute_force_enumerator(seed: int, with_total: bool) -> None:
    board, _ = random_position(seed, max_side=4)
    if not with_total:
        board.total_mines = None
    _, expected = exact_probabilities(board, board.total_mines)
    fast = fast_mine_probabilities(board).reshape(-1)
    for index, value in enumerate(fast):
        want = expected.get(index)
        if want is None:
            assert math.isnan(value)
        else:
            assert abs(value - float(want)) <= 1e-12


def _greedy_positions(level: str, seed: int) -> list[Board]:
    """Positions of one game played by exact lowest-probability guessing (first-cell ties)."""
    width, height, mines = STANDARD_BOARDS[level]
    rng = np.random.default_rng(seed)
    field = Minefield(MineLayout.random(width, height, mines, rng), first_click="safe", rng=rng)
    field.probe(width // 2, height // 2)
    positions = []
    while field.state == "playing":
        board = field.board()
        positions.append(board)
        analysis = analyse_position(board)
        weights = analysis.mine_weights.reshape(-1)
        covered = np.flatnonzero(board.grid.reshape(-1) == COVERED)
        for index in covered:
            if weights[index] == analysis.layouts:
                field.set_flag(int(index) % width, int(index) // width)
        candidates = [i for i in covered if weights[i] != analysis.layouts]
        safest = min(candidates, key=lambda i: weights[i])
        field.probe(int(safest) % width, int(safest) // width)
    return positions


@pytest.mark.parametrize(("level", "seed"), [("expert", 0), ("expert", 1), ("intermediate", 2)])
def test_positions_from_real_play_match_the_exact_engine(level: str, seed: int) -> None:
    positions = _greedy_positions(level, seed)
    assert len(positions) > 5
    for board in positions:
        _assert_matches_exact(board, board.total_mines)
        _assert_matches_exact(board, None)
        # Cells ranked by probability exactly as the exact engine ranks them (ties
        # included): a lowest-probability player makes the same choices on either.
        covered = board.grid == COVERED
        fast = fast_mine_probabilities(board)[covered]
        exact = analyse_position(board).probabilities[covered]
        fast_ranks = np.unique(fast, return_inverse=True)[1]
        assert np.array_equal(fast_ranks, np.unique(exact, return_inverse=True)[1])


def _strip(columns: int, seed: int = 0) -> Board:
    """Three rows: covered, numbers, covered. One long component whose number of
    frontier configurations grows by about 2**0.5 per column."""
    rng = np.random.default_rng(seed)
    mines = np.zeros((3, columns), dtype=bool)
    mines[[0, 2]] = rng.random((2, columns)) < 0.5
    padded = np.pad(mines, 1).astype(int)
    around = sum(
        padded[1 + dy : 4 + dy, 1 + dx : columns + 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)
    )
    grid = np.full((3, columns), COVERED, dtype=np.int8)
    grid[1] = around[1]
    return Board(grid, None)


def test_counts_beyond_the_float_range_go_to_the_exact_engine() -> None:
    board = _strip(2200)
    analysis = analyse_position(board)
    assert analysis.layouts > 2**1024  # more than any float64 holds
    assert fast_mine_probabilities(board) is None
    assert np.array_equal(mine_probabilities(board), analysis.probabilities, equal_nan=True)
    # The same shape, short enough for floats, stays on the fast path.
    _assert_matches_exact(_strip(200), None)


def test_components_too_wide_to_count_go_to_the_exact_engine() -> None:
    # Alternate covered and number rows, a few mines: any sweep keeps more numbers
    # open at once than a state holds (the exact engine copes: most needs are 0).
    width, height = 16, 33
    rng = np.random.default_rng(3)
    mines = np.zeros((height, width), dtype=bool)
    mines[::2] = rng.random((len(range(0, height, 2)), width)) < 0.03
    padded = np.pad(mines, 1).astype(int)
    around = sum(
        padded[1 + dy : height + 1 + dy, 1 + dx : width + 1 + dx]
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
    )
    grid = np.full((height, width), COVERED, dtype=np.int8)
    grid[1::2] = around[1::2]
    board = Board(grid, int(mines.sum()))
    assert fast_mine_probabilities(board) is None
    assert np.array_equal(
        mine_probabilities(board), analyse_position(board).probabilities, equal_nan=True
    )


@pytest.mark.parametrize(
    ("rows", "total"),
    [
        (["3?", "?1"], None),
        (["1!", "!?"], None),
        (["?3?", "0??"], None),
        (["!?", "??"], 0),
        (["1?", "??"], 2),
        (["?1?", "???", "?1?"], 0),
    ],
)
def test_inconsistent_positions_raise_as_the_exact_engine_does(rows, total) -> None:
    board = Board.from_rows(rows, total)
    assert fast_mine_probabilities(board) is None
    with pytest.raises(InconsistentBoardError) as exact:
        analyse_position(board)
    with pytest.raises(InconsistentBoardError) as fast:
        mine_probabilities(board)
    assert (str(fast.value), fast.value.cell) == (str(exact.value), exact.value.cell)
