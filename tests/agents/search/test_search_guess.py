"""The search agent's middle-game settings, checked against every layout of small
positions: common clears and dominance, living cells, candidates beside the frontier."""

from __future__ import annotations

import numpy as np
import pytest
from positions import random_position

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, neighbour_sum, neighbour_table
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import Minefield
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search.candidates import (
    candidates,
    off_frontier,
    rank,
    two_steps,
)
from semiautomines_agents.search.endgame import Endgame, Layouts, TooManyLayouts
from semiautomines_agents.search.lookahead import assess, outcomes


def _guessing_positions(count: int, limit: int = 400) -> list[Board]:
    """Random positions with the mine total known, nothing proven safe, something
    to guess, and at most ``limit`` layouts (so every layout can be listed)."""
    found = []
    for seed in range(100 * count):
        board, _ = random_position(seed)
        covered = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()
        if len(covered) < 3:
            continue
        weights = count_position(board)
        mine = weights.mine_weight
        if weights.layouts > limit or any(mine[c] == 0 for c in covered):
            continue
        if all(mine[c] == weights.layouts for c in covered):
            continue
        found.append(board)
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions fit")


POSITIONS = _guessing_positions(40)


def _undecided(board: Board) -> list[int]:
    weights = count_position(board)
    return [
        c
        for c, w in weights.mine_weight.items()
        if board.grid.reshape(-1)[c] == COVERED and w is not None and 0 < w < weights.layouts
    ]


@pytest.mark.parametrize("board", POSITIONS)
def test_common_clears_are_exactly_the_cells_safe_wherever_the_probe_is(board):
    weights = count_position(board)
    layouts = Layouts(board, limit=10_000)
    bits = {cell: bit for bit, cell in enumerate(layouts.cells)}
    for cell in _undecided(board):
        clears = assess(board, weights, cell, 2).clears
        where_safe = [m for m in layouts.masks if not m >> bits[cell] & 1]
        expected = {
            other
            for other in layouts.cells
            if other != cell and all(not m >> bits[other] & 1 for m in where_safe)
        }
        assert set(clears) == expected


@pytest.mark.parametrize("board", POSITIONS)
def test_a_safer_common_clear_wins_at_least_as_often_as_the_probe(board):
    # Probing a safer cell the probe's every number proves safe never loses more
    # (the argument behind a setting measured no better and removed), by exact play.
    weights = count_position(board)
    try:
        layouts = Layouts(board, limit=400)
    except TooManyLayouts:
        pytest.skip("too many layouts")
    endgame = Endgame(layouts)
    for cell in _undecided(board):
        for other in assess(board, weights, cell, 2).clears:
            if weights.mine_weight[other] < weights.mine_weight[cell]:
                assert (
                    endgame.probe_value(layouts.masks, layouts.cells.index(other))
                    >= endgame.probe_value(layouts.masks, layouts.cells.index(cell)) - 1e-12
                )


@pytest.mark.parametrize("board", POSITIONS)
def test_a_cell_with_no_undecided_neighbour_can_show_one_number_only(board):
    # What `living` calls dead: its number is known before it is probed.
    weights = count_position(board)
    flat = board.grid.reshape(-1)
    undecided = set(_undecided(board))
    table = neighbour_table(board.width, board.height)
    for cell in np.flatnonzero(flat == COVERED).tolist():
        if weights.mine_weight[cell] == weights.layouts:
            continue
        if not any(n in undecided for n in table[cell]):
            assert len(outcomes(board, cell)) == 1


def _opened_expert_board() -> Board:
    """An expert layout (fixed seed) with one zero opened near its middle: a
    frontier, and many covered cells off it."""
    rng = np.random.default_rng(0)
    layout = MineLayout.random(30, 16, 99, rng)
    mines = layout.mines.astype(np.int8)
    around = np.asarray(neighbour_sum(mines))
    zeros = np.flatnonzero((around.reshape(-1) == 0) & (mines.reshape(-1) == 0)).tolist()
    start = min(zeros, key=lambda c: abs(c % 30 - 15) + abs(c // 30 - 8))
    field = Minefield(layout, first_click="none", rng=rng)
    field.probe(start % 30, start // 30)
    return field.board()


def test_two_steps_marks_off_frontier_cells_two_cells_from_a_number_along_a_line():
    board = _opened_expert_board()
    view = board.grid
    marked = two_steps(view)
    outside = off_frontier(view)
    assert marked.any()
    height, width = view.shape
    for y in range(height):
        for x in range(width):
            along = [
                view[y + dy, x + dx] >= 0
                for dy, dx in ((2, 0), (-2, 0), (0, 2), (0, -2))
                if 0 <= y + dy < height and 0 <= x + dx < width
            ]
            assert marked[y, x] == (outside[y, x] and any(along))


def test_offset_adds_cells_two_steps_from_a_number_and_offset_0_changes_nothing():
    board = _opened_expert_board()
    view = board.grid
    weights = count_position(board)
    valid = view.reshape(-1) == COVERED
    plain = candidates(view, weights, valid, 1.0, 8)
    assert candidates(view, weights, valid, 1.0, 8, offset=0) == plain
    wide = candidates(view, weights, valid, 1.0, 8, offset=4)
    extra = set(wide) - set(plain)
    assert set(plain) <= set(wide) and len(extra) == 4 and len(wide) == len(set(wide))
    marked = two_steps(view).reshape(-1)
    assert all(marked[c] for c in extra)
    # The extra cells are the best ranked of the marked ones the plain list left out.
    ranked = [c for c in rank(view, weights, np.flatnonzero(marked)) if c not in plain]
    assert sorted(extra) == sorted(ranked[:4])


def test_offset_margin_admits_the_extra_cells_only_when_the_cells_off_the_frontier_are_close():
    board = _opened_expert_board()
    view = board.grid
    weights = count_position(board)
    valid = view.reshape(-1) == COVERED
    layouts, mine = weights.layouts, weights.mine_weight
    safety = {c: 1.0 - (w or 0) / layouts for c, w in mine.items() if valid[c] and w is not None}
    outside = off_frontier(view).reshape(-1)
    ratio = max(v for c, v in safety.items() if outside[c]) / max(safety.values())
    plain = candidates(view, weights, valid, 1.0, 8)
    wide = candidates(view, weights, valid, 1.0, 8, offset=4)
    for own in (0.0, 1.0 - ratio - 1e-6, 1.0 - ratio + 1e-6, 0.5, 1.0):
        expected = wide if ratio >= 1.0 - own - 1e-12 else plain
        assert candidates(view, weights, valid, 1.0, 8, offset=4, offset_margin=own) == expected
    assert candidates(view, weights, valid, 1.0, 8, offset=4, offset_margin=None) == wide


def test_the_offset_setting_reaches_the_agents_candidates():
    board = _opened_expert_board()
    # offset_margin=None: the agent's own margin, which admits the cells off the frontier.
    plain = {a.cell for a in SearchAgent(margin=1.0, offset=0).weigh(board)}
    wide = {a.cell for a in SearchAgent(margin=1.0, offset=3, offset_margin=None).weigh(board)}
    assert plain < wide and len(wide - plain) == 3
    assert all(two_steps(board.grid).reshape(-1)[c] for c in wide - plain)

