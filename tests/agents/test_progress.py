"""The chance of progress (agents/progress.py): the shortcuts change no chance and no choice."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from brute_force import exact_probabilities
from positions import random_position

from minesweep_env import Board, InconsistentBoardError, compiled
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.solver.probability import count_position
from semiautomines_agents import progress
from semiautomines_agents.greedy import clear_lowest
from semiautomines_agents.progress import (
    best_progress,
    isolated_shape,
    number_range,
    progress_chance,
)


@cache
def _positions(count: int, max_side: int) -> tuple[Board, ...]:
    """Random positions with a covered safe cell and no covered cell certain either way."""
    found = []
    for seed in range(50 * count):
        board, layout = random_position(seed, max_side=max_side)
        flat = board.grid.reshape(-1)
        covered = np.flatnonzero(flat == COVERED)
        if not any(not layout.mines.flat[i] for i in covered):
            continue
        _, probabilities = exact_probabilities(board, board.total_mines)
        if all(0 < probabilities[i] < 1 for i in covered):
            found.append(board)
        if len(found) == count:
            return tuple(found)
    raise AssertionError(f"only {len(found)} positions fit")


def _safe_layouts(board: Board, cell: int) -> int:
    weights = count_position(board)
    weight = weights.mine_weight[cell]
    assert weight is not None
    return weights.layouts - weight


@pytest.mark.parametrize("case", range(40))
def test_number_range_keeps_every_number_some_layout_allows(case):
    board = _positions(40, 7)[case]
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    for cell in np.flatnonzero(flat == COVERED).tolist():
        flags = sum(1 for n in table[cell] if flat[n] == FLAGGED)
        covered = sum(1 for n in table[cell] if flat[n] == COVERED)
        allowed = number_range(board, cell)
        for number in range(flags, flags + covered + 1):
            trial = board.copy()
            trial.grid.reshape(-1)[cell] = number
            try:
                count_position(trial)
            except InconsistentBoardError:
                continue
            assert number in allowed, (board.rows(), cell, number)


def test_number_range_drops_what_a_neighbouring_number_rules_out():
    # The 1 at (1, 0) has one mine among its five covered cells; (0, 1) shares two of
    # them, (0, 0) and (1, 1), and has no other covered neighbour: it shows 0 or 1, not 2.
    board = Board.from_rows(["?1?", "???"], total_mines=1)
    assert number_range(board, 3) == range(0, 2)


@pytest.mark.parametrize("case", range(40))
def test_fast_route_gives_the_exact_routes_float(case):
    assert compiled.ready()  # tests load the compiled path (conftest)
    board = _positions(40, 7)[case]
    for cell in np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist():
        exact = progress_chance(board, cell)
        assert progress_chance(board, cell, safe_layouts=_safe_layouts(board, cell)) == exact


def test_fast_route_counts_only_the_shorter_side(monkeypatch):
    # The corner (0, 3) is far from the only number: a 0 there makes progress, 1-3 do not.
    board = Board.from_rows(["????????", "??????1?", "????????", "????????"], total_mines=9)
    corner = 3 * 8
    safe = _safe_layouts(board, corner)
    calls = []
    real = progress.count_trial  # one exact count (the engine's or the compiled one's)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(progress, "count_trial", counting)
    exact = progress_chance(board, corner)
    assert len(calls) == 4  # one count per number 0..3
    calls.clear()
    assert progress_chance(board, corner, safe_layouts=safe) == exact
    assert len(calls) == 1  # the 0 alone
    assert 0 < exact < 1


@pytest.mark.parametrize("case", range(20))
def test_isolated_cells_of_one_shape_have_one_chance(case):
    rng = np.random.default_rng(case)
    width, height = int(rng.integers(6, 10)), int(rng.integers(6, 10))
    board = Board(np.full((height, width), COVERED, dtype=np.int8), int(rng.integers(3, 12)))
    # A few open cells in the middle (numbers consistent with some layout).
    x, y = int(rng.integers(2, width - 2)), int(rng.integers(2, height - 2))
    board.grid[y, x] = int(rng.integers(0, 3))
    by_shape: dict[int, set[float]] = {}
    for cell in np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist():
        shape = isolated_shape(board, cell)
        if shape is not None:
            by_shape.setdefault(shape, set()).add(progress_chance(board, cell))
    assert by_shape and all(len(chances) == 1 for chances in by_shape.values())


def test_isolated_shape_needs_every_neighbour_away_from_the_numbers():
    rows = ["???????"] * 7
    rows[3] = "???1???"
    board = Board.from_rows(rows, total_mines=3)
    assert isolated_shape(board, 0) == 3  # the corner (0, 0)
    assert isolated_shape(board, 3 * 7) == 5  # (0, 3) on the edge
    assert isolated_shape(board, 1 * 7 + 1) is None  # its neighbour (2, 2) touches the 1
    assert isolated_shape(board, 2 * 7 + 2) is None  # it touches the 1 itself


@pytest.mark.parametrize("case", range(40))
def test_best_progress_is_the_earliest_highest_chance(case):
    board = _positions(40, 8)[case]
    weights = count_position(board)
    ranked = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()[:6]
    chances = [progress_chance(board, cell) for cell in ranked]
    expected = max(range(len(ranked)), key=lambda k: (chances[k], -k))
    assert best_progress(board, ranked, weights) == expected


@pytest.mark.parametrize("case", range(40))
def test_clear_lowest_is_the_exact_unique_lowest_or_nothing(case):
    board = _positions(40, 8)[case]
    valid = board.grid.reshape(-1) == COVERED
    weights = count_position(board)
    open_cells = {c: w for c, w in weights.mine_weight.items() if w is not None and valid[c]}
    lowest = min(open_cells.values())
    tied = [c for c, w in open_cells.items() if w == lowest]
    clear = clear_lowest(board, valid)
    if clear is not None:
        assert tied == [clear]


def test_clear_lowest_leaves_a_tie_to_the_exact_weights():
    board = Board(np.full((5, 5), COVERED, dtype=np.int8), 5)  # every cell ties
    assert clear_lowest(board, board.grid.reshape(-1) == COVERED) is None
    board.grid[2, 2] = 1  # its neighbours (1/8) are now clearly below the rest
    assert clear_lowest(board, board.grid.reshape(-1) == COVERED) is None  # 8 tie
    board = Board.from_rows(["1??", "???"], total_mines=2)
    # The 1's three covered cells are 1/3 each (a tie), the two others 1/2.
    assert clear_lowest(board, board.grid.reshape(-1) == COVERED) is None
    board = Board.from_rows(["1??"], total_mines=1)  # (1, 0) is the mine, (2, 0) safe
    assert clear_lowest(board, board.grid.reshape(-1) == COVERED) == 2
