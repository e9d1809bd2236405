"""The layout sampler draws exactly what the engine counts: layout by layout, cell by cell."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import sqrt

import numpy as np
import pytest
from brute_force import frontier_solutions
from positions import random_position

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import count_position
from minesweep_env.solver.probability.counting import count_component
from minesweep_env.solver.probability.frontier import read_frontier
from minesweep_env.solver.probability.sampling import (
    ComponentSampler,
    LayoutSampler,
    sample_layouts,
)

DRAWS = 3000
CHI2_TAIL_Z = 4.7534
"""The standard normal quantile of 1 - 1e-6: a biased sampler fails by far more."""


def chi2_bound(freedom: int) -> float:
    """The chi-square statistic exceeded with probability about 1e-6 (Wilson and
    Hilferty's cube-root normal approximation, close enough for a test's bound)."""
    k = max(freedom, 1)
    return k * (1 - 2 / (9 * k) + CHI2_TAIL_Z * sqrt(2 / (9 * k))) ** 3


def _every_layout(board: Board) -> list[frozenset[int]]:
    """Every whole layout consistent with ``board`` and its total, by brute force."""
    flat = board.grid.reshape(-1)
    covered = set(np.flatnonzero(flat == COVERED).tolist())
    flags = frozenset(np.flatnonzero(flat == FLAGGED).tolist())
    solutions = frontier_solutions(board)
    frontier = {c for c in covered if any(flat[n] >= 0 for n in _neighbours(board)[c])}
    off = sorted(covered - frontier)
    left = board.total_mines - len(flags)
    layouts = []
    for solution in solutions:
        rest = left - len(solution)
        if 0 <= rest <= len(off):
            layouts += [flags | solution | frozenset(c) for c in combinations(off, rest)]
    return layouts


def _neighbours(board: Board) -> tuple:
    return neighbour_table(board.width, board.height)


def _small_positions(count: int, most: int) -> list[Board]:
    """Positions with at most ``most`` layouts whose frontier solutions use different
    numbers of mines and leave cells off the frontier: where the total weighs them."""
    found = []
    for seed in range(5000):
        board, _ = random_position(seed, max_side=5, flag_share=0.3)
        solutions = frontier_solutions(board)
        frontier = read_frontier(board)
        if len({len(s) for s in solutions}) < 2 or not frontier.off_frontier:
            continue
        if len(frontier.components) < 2 and max(len(c.groups) for c in frontier.components) < 3:
            continue
        if 3 <= len(_every_layout(board)) <= most:
            found.append(board)
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} small positions")


@pytest.mark.parametrize("board", _small_positions(6, 60))
def test_every_consistent_layout_is_drawn_equally_often(board):
    layouts = _every_layout(board)
    sampler = LayoutSampler(board)
    rng = random.Random(11)
    seen = Counter(frozenset(sampler.sample_cells(rng)) for _ in range(DRAWS))
    assert set(seen) <= set(layouts)  # nothing inconsistent is ever drawn
    expected = DRAWS / len(layouts)
    statistic = sum((seen[layout] - expected) ** 2 / expected for layout in layouts)
    # A fixed seed, so this cannot flake; a biased sampler fails it by far.
    assert statistic < chi2_bound(len(layouts) - 1), (statistic, len(layouts))


@pytest.mark.parametrize("any_count", [False, True])
def test_cell_frequencies_match_the_engine_within_binomial_bounds(any_count):
    checked = 0
    for seed in range(300):
        board, _ = random_position(seed, max_side=7, flag_share=0.2)
        if any_count:
            board = Board(board.grid, None)
        try:
            weights = count_position(board, any_count=any_count)
        except InconsistentBoardError:
            continue
        undecided = {c: w for c, w in weights.mine_weight.items() if 0 < (w or 0) < weights.layouts}
        if not undecided:
            continue
        draws = np.array(sample_layouts(board, 800, seed=seed)).reshape(800, -1)
        for cell, weight in undecided.items():
            p = weight / weights.layouts
            bound = 5 * sqrt(p * (1 - p) / 800) + 1e-9
            assert abs(draws[:, cell].mean() - p) < bound, (seed, cell, p)
        checked += 1
        if checked == 12:
            return
    raise AssertionError(f"only {checked} positions checked")


def test_draws_respect_the_numbers_the_flags_and_the_total():
    for seed in range(40):
        board, _ = random_position(seed, max_side=6, flag_share=0.4)
        flat = board.grid.reshape(-1)
        table = _neighbours(board)
        for mines in sample_layouts(board, 20, seed=seed):
            mine = mines.reshape(-1)
            assert mine.sum() == board.total_mines
            assert mine[flat == FLAGGED].all()
            assert not mine[flat >= 0].any()
            for cell in np.flatnonzero(flat >= 0).tolist():
                assert sum(bool(mine[n]) for n in table[cell]) == flat[cell]


def test_component_layouts_are_the_engine_s_counts():
    for seed in range(60):
        board, _ = random_position(seed, max_side=7)
        for component in read_frontier(board).components:
            count = count_component(component)
            expected = {k: v for k, v in enumerate(count.layouts) if v}
            assert ComponentSampler(component).layouts == expected


def test_the_same_seed_draws_the_same_layouts_and_a_bad_total_is_refused():
    board = _small_positions(1, 60)[0]
    first, again = sample_layouts(board, 5, seed=3), sample_layouts(board, 5, seed=3)
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    covered = int((board.grid == COVERED).sum()) + int((board.grid == FLAGGED).sum())
    with pytest.raises(InconsistentBoardError):
        LayoutSampler(board, total_mines=covered + 1)
