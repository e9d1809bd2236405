"""The probability engine against the brute-force enumerator, plus hand cases.

The enumerator (tests/brute_force.py) walks frontier cells one by one; the engine
groups, splits into components and convolves. Agreement as exact fractions on
thousands of random consistent positions is the evidence that the engine is right.
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

from minesweep_env import Board, InconsistentBoardError, analyse_position, mine_probabilities
from minesweep_env.core.cells import COVERED, KNOWN_SAFE


def _with_known_safe(board: Board, mines: np.ndarray, seed: int) -> Board:
    """Mark about a third of the covered safe cells known-safe (still consistent)."""
    rng = np.random.default_rng(seed)
    out = board.copy()
    flat = out.grid.reshape(-1)
    candidates = np.flatnonzero((flat == COVERED) & ~mines.reshape(-1))
    flat[candidates[rng.random(len(candidates)) < 0.35]] = KNOWN_SAFE
    return out


def _check_against_brute_force(board: Board, total: int | None) -> None:
    position = board.copy()
    position.total_mines = total
    layouts, expected = exact_probabilities(position, total)
    analysis = analyse_position(position)
    assert analysis.layouts == layouts
    w = board.width
    flat = position.grid.reshape(-1)
    probabilities = analysis.probabilities.reshape(-1)
    for index in range(board.width * board.height):
        want = expected.get(index)
        got = analysis.probability(index % w, index // w)
        assert got == want, (position.rows(), total, index)
        if want is None:
            assert math.isnan(probabilities[index])
        else:
            assert abs(probabilities[index] - float(want)) <= 1e-12
            weight = analysis.mine_weights.reshape(-1)[index]
            assert Fraction(weight, layouts) == want
        if flat[index] >= 0 or flat[index] == -2:
            assert math.isnan(probabilities[index])


@settings(max_examples=2500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_engine_matches_brute_force(seed: int, known_safe: bool) -> None:
    board, layout = random_position(seed)
    if known_safe:
        board = _with_known_safe(board, layout.mines, seed)
    _check_against_brute_force(board, None)
    _check_against_brute_force(board, board.total_mines)


def test_mine_probabilities_is_float_array_with_nan_where_no_probability() -> None:
    board = Board.from_rows(["1?", "??", "??"])
    probabilities = mine_probabilities(board)
    assert probabilities.dtype == np.float64 and probabilities.shape == (3, 2)
    assert math.isnan(probabilities[0, 0])
    assert probabilities[0, 1] == pytest.approx(1 / 3)
    assert math.isnan(probabilities[2, 0])  # off the frontier, total unknown
    with_total = mine_probabilities(board, total_mines=2)
    # Frontier mine: 3 places, one more mine among the 2 other cells: 3 * 2 layouts.
    assert with_total[0, 1] == pytest.approx(1 / 3)
    assert with_total[2, 0] == pytest.approx(1 / 2)


def test_total_mine_count_decides_off_frontier_cells() -> None:
    board = Board.from_rows(["1???", "????"], total_mines=1)
    analysis = analyse_position(board)
    # One mine, and the 1 needs it: it is in one of its 3 cells, never off the frontier.
    assert analysis.layouts == 3
    assert analysis.probability(1, 0) == Fraction(1, 3)
    assert analysis.probability(3, 1) == 0
    assert (3, 1) in analysis.safe_cells


def test_exact_integers_beyond_float_range() -> None:
    # Expert-sized empty board with 99 mines and one probed zero-free corner: the
    # layout count is astronomically large and must stay exact.
    grid = np.full((16, 30), COVERED, dtype=np.int8)
    grid[0, 0] = 1
    analysis = analyse_position(Board(grid, 99))
    off = 30 * 16 - 4
    expected = 3 * math.comb(off, 98)
    assert analysis.layouts == expected
    assert analysis.probability(1, 0) == Fraction(1, 3)
    assert analysis.probability(29, 15) == Fraction(98, off)
    # Two zeros in a corner force their 4 covered neighbours safe; C(394, 99)
    # layouts remain, far beyond float range.
    big = Board(np.full((20, 20), COVERED, dtype=np.int8), 99)
    big.grid[0, 0] = 0
    big.grid[0, 1] = 0
    count = analyse_position(big)
    assert count.layouts == math.comb(394, 99)
    assert count.probability(2, 1) == 0
    assert count.probability(10, 10) == Fraction(99, 394)


def test_total_weights_frontier_configurations_by_binomials() -> None:
    # Either the middle cell is the mine of both 1s (one mine, leaving one for
    # the six cells off the frontier: 6 ways) or the two outer cells are (2 mines,
    # 1 way). Without the total, each configuration counts once.
    board = Board.from_rows(["?1?1???????"])
    free = analyse_position(board)
    assert free.layouts == 2
    assert free.probability(2, 0) == Fraction(1, 2)
    assert free.probability(6, 0) is None
    counted = analyse_position(board, total_mines=2)
    assert counted.layouts == 7
    assert counted.probability(2, 0) == Fraction(6, 7)
    assert counted.probability(0, 0) == Fraction(1, 7)
    assert counted.probability(6, 0) == Fraction(1, 7)
    _check_against_brute_force(board, 2)
    _check_against_brute_force(board, None)


@pytest.mark.parametrize(
    ("rows", "total", "cells"),
    [
        (["3?", "?1"], None, {(0, 0)}),  # a 3 with two covered neighbours
        (["1!", "!?"], None, {(0, 0)}),  # a 1 with two flags
        (["?3?", "0??"], None, {(1, 0), (0, 1)}),  # each number alone is fine, not both
        (["!?", "??"], 0, {None}),  # more flags than mines
        (["1?", "??"], 2, {None}),  # the 1 takes exactly one of the two mines, no room left
        (["?1?1?"], None, None),  # consistent: no error
    ],
)
def test_inconsistent_positions_name_a_contradicted_cell(rows, total, cells) -> None:
    board = Board.from_rows(rows, total)
    if cells is None:
        assert analyse_position(board).layouts > 0
        return
    with pytest.raises(InconsistentBoardError) as caught:
        mine_probabilities(board)
    assert caught.value.cell in cells
    if caught.value.cell is not None:
        x, y = caught.value.cell
        assert f"({x}, {y})" in str(caught.value)


def test_known_safe_cells_are_zero_and_never_mines() -> None:
    board = Board.from_rows(["?1?"])
    board.grid[0, 0] = KNOWN_SAFE
    analysis = analyse_position(board)
    assert analysis.probabilities[0, 0] == 0
    assert analysis.probability(2, 0) == 1
    assert analysis.mine_cells == frozenset({(2, 0)})
    assert analysis.safe_cells == frozenset({(0, 0)})


def _expert_positions(seed: int, moves: int) -> list[Board]:
    """Positions from an expert game played by probing the lowest-probability cell."""
    from minesweep_env import Minefield, MineLayout

    rng = np.random.default_rng(seed)
    field = Minefield(MineLayout.random(30, 16, 99, rng), first_click="safe", rng=rng)
    field.probe(15, 8)
    positions = []
    while field.state == "playing" and len(positions) < moves:
        board = field.board()
        positions.append(board)
        analysis = analyse_position(board)
        probabilities = np.where(board.grid == COVERED, analysis.probabilities, np.inf)
        y, x = np.unravel_index(int(np.argmin(probabilities)), probabilities.shape)
        field.probe(int(x), int(y))
    return positions


@pytest.mark.parametrize("seed", range(3))
def test_expert_weights_add_up_to_the_mines_left(seed: int) -> None:
    # Beyond brute force's reach: the exact identity sum(weights) == left * layouts
    # (every layout places exactly the mines left), and the no-total answer
    # agrees with the total one on which cells are certain only in one direction.
    for board in _expert_positions(seed, 40):
        analysis = analyse_position(board)
        weights = [w for w in analysis.mine_weights.reshape(-1) if w is not None]
        assert sum(weights) == board.mines_left * analysis.layouts
        assert all(0 <= w <= analysis.layouts for w in weights)
        free = analyse_position(Board(board.grid, None))
        for x, y in free.safe_cells:
            assert analysis.probability(x, y) == 0
        for x, y in free.mine_cells:
            assert analysis.probability(x, y) == 1


@pytest.mark.parametrize("seed", range(3))
def test_component_counts_do_not_depend_on_the_group_order(seed: int) -> None:
    # The counting DP's states depend on the order; its answer must not. Checked
    # on expert components far larger than brute force can enumerate.
    # (Row-major and the reversed sweep: both narrow enough to stay cheap.)
    from minesweep_env.solver.probability.counting import count_component, group_order
    from minesweep_env.solver.probability.frontier import read_frontier

    compared = 0
    for board in _expert_positions(seed, 100):
        for component in read_frontier(board).components:
            if len(component.groups) < 5:
                continue
            default = count_component(component)
            groups = component.groups
            row_major = sorted(range(len(groups)), key=lambda g, groups=groups: groups[g].cells)
            for order in (row_major, group_order(component)[::-1]):
                assert count_component(component, order) == default
            compared += 1
    assert compared >= 10


def test_big_scattered_component_counts_agree_across_sweeps() -> None:
    # An expert board with a fifth of the safe cells shown at random: one
    # component of ~200 groups, where the count picks a straight sweep over the
    # breadth-first one. Both must give the same exact counts, and the weights
    # must add up to the mines left times the layouts.
    from minesweep_env import MineLayout
    from minesweep_env.solver.probability.counting import (
        _breadth_first,
        count_component,
        group_order,
    )
    from minesweep_env.solver.probability.frontier import read_frontier

    rng = np.random.default_rng(175)
    layout = MineLayout.random(30, 16, 99, rng)
    shown = ~layout.mines & (rng.random((16, 30)) < rng.uniform(0.1, 0.45))
    grid = np.full((16, 30), COVERED, dtype=np.int8)
    grid[shown] = layout.numbers[shown]
    board = Board(grid, 99)
    big = max(read_frontier(board).components, key=lambda c: len(c.groups))
    assert len(big.groups) > 100
    chosen = group_order(big)
    breadth_first = _breadth_first(big)
    assert chosen != breadth_first
    assert count_component(big, chosen) == count_component(big, breadth_first)
    analysis = analyse_position(board)
    weights = [w for w in analysis.mine_weights.reshape(-1) if w is not None]
    assert sum(weights) == board.mines_left * analysis.layouts
    assert not (layout.mines & (analysis.probabilities == 0)).any()  # a real mine never 0
