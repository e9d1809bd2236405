"""The greedy agent's float shortcuts (agents/weights_compiled.py, ranking.py, estimate_chance):
each is the exact engine's answer, or says it cannot tell."""

from __future__ import annotations

import math
from functools import cache
from types import ModuleType

import gymnasium as gym
import numpy as np
import pytest
from positions import random_position

from minesweep_env import Board, InconsistentBoardError, compiled
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import count_position
from minesweep_env.solver.probability.engine_compiled import fast_mine_probabilities
from semiautomines_agents import make_agent
from semiautomines_agents import progress as progress_module
from semiautomines_agents.greedy import LOOKAHEAD, neighbour_counts, zero_chance
from semiautomines_agents.progress import (
    ESTIMATE_MARGIN,
    best_progress,
    count_trial,
    estimate_chance,
    isolated_shape,
    number_range,
    progress_chance,
)
from semiautomines_agents.ranking import float_ranking, merge_equal_groups


def _compiled() -> ModuleType:
    assert compiled.ready()  # tests load the compiled path (conftest)
    from semiautomines_agents.greedy import float_choice

    return float_choice


@cache
def _positions(count: int, max_side: int) -> tuple[Board, ...]:
    """Random positions with at least two covered cells."""
    found = []
    for seed in range(10 * count):
        board, _ = random_position(seed, max_side=max_side)
        if np.count_nonzero(board.grid == COVERED) >= 2:
            found.append(board)
        if len(found) == count:
            return tuple(found)
    raise AssertionError(f"only {len(found)} positions fit")


@pytest.mark.parametrize("case", range(40))
@pytest.mark.parametrize("isolated", [False, True])
def test_trial_weights_are_the_exact_counts(case, isolated):
    """Every cell, and (``isolated``) the short way for the isolated ones."""
    board = _positions(40, 7)[case]
    trial_weights = _compiled().trial_weights
    for cell in np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist():
        if isolated and isolated_shape(board, cell) is None:
            continue
        numbers = np.fromiter(number_range(board, cell), np.int64)
        logs, progress = trial_weights(board, cell, numbers, isolated)
        for number, log, flag in zip(numbers.tolist(), logs, progress, strict=True):
            trial = board.copy()
            trial.grid.reshape(-1)[cell] = number
            counted = count_trial(trial, None)
            if np.isnan(log):
                continue  # left to the exact engine
            if counted is None:
                assert log == -np.inf, (board.rows(), cell, number)
                continue
            assert log == pytest.approx(math.log(counted[0]), rel=0, abs=1e-11)
            assert bool(flag) == counted[1], (board.rows(), cell, number)


@pytest.mark.parametrize("case", range(40))
def test_estimate_chance_is_within_its_margin_and_exact_when_it_says_so(case):
    board = _positions(40, 7)[case]
    trial_weights = _compiled().trial_weights
    for cell in np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist():
        isolated = isolated_shape(board, cell) is not None
        estimate = estimate_chance(trial_weights, board, cell, None, isolated)
        chance = progress_chance(board, cell)
        if estimate.exact:
            assert estimate.value == chance
        else:
            assert abs(estimate.value - chance) <= ESTIMATE_MARGIN / 100


@pytest.mark.parametrize("case", range(40))
def test_groups_share_one_exact_weight(case):
    board = _positions(40, 8)[case]
    found = _compiled().group_probabilities(board)
    if found is None:
        return
    probabilities, groups = found
    try:
        weights = count_position(board)
    except InconsistentBoardError:
        pytest.fail("the float path answered a position with no layout")
    by_group: dict[int, set] = {}
    for cell, group in enumerate(groups.tolist()):
        if group != -1:
            by_group.setdefault(group, set()).add(weights.mine_weight[cell])
    assert all(len(found) == 1 for found in by_group.values()), board.rows()
    expected = fast_mine_probabilities(board, None)
    np.testing.assert_array_equal(probabilities, expected)



def _group_weights(board: Board, groups: np.ndarray) -> dict[int, int]:
    """The exact mine weight of one cell of each group."""
    weights = count_position(board)
    return {g: weights.mine_weight[cell] for cell, g in enumerate(groups.tolist()) if g >= 0}


@pytest.mark.parametrize("case", range(60))
def test_weight_classes_join_exactly_the_groups_of_equal_weight(case):
    board = _positions(60, 8)[case]
    found = _compiled().group_probabilities(board)
    classes = _compiled().weight_classes(board)
    if found is None or classes is None:
        return
    weight = _group_weights(board, found[1])
    for g in weight:
        for h in weight:
            assert (classes[g] == classes[h]) == (weight[g] == weight[h]), board.rows()
        assert classes[g] == min(h for h in weight if weight[h] == weight[g])


def test_weight_classes_prove_the_ties_of_symmetric_groups():
    """Four corners alike on expert: four groups of one exact weight, of about 2**340,
    beyond any machine integer; the off-frontier cells weigh otherwise."""
    rows = ["?" * 30 for _ in range(16)]
    for y, x in ((0, 0), (0, 29), (15, 0), (15, 29)):
        rows[y] = rows[y][:x] + "1" + rows[y][x + 1 :]
    board = Board.from_rows(rows, total_mines=99)
    found = _compiled().group_probabilities(board)
    classes = _compiled().weight_classes(board)
    assert found is not None and classes is not None
    weight = _group_weights(board, found[1])
    assert max(weight.values()).bit_length() > 250
    assert len(weight) == 5 and len(set(weight.values())) == 2
    assert classes.tolist() == [0, 0, 0, 0, 4]


def test_weight_classes_defer_without_a_total():
    board = Board.from_rows(["??1", "1??", "???"])
    assert _compiled().weight_classes(board) is None


@pytest.mark.parametrize("case", range(60))
def test_exact_weights_are_the_engines(case):
    board = _positions(60, 8)[case]
    found = _compiled().exact_weights(board)
    try:
        weights = count_position(board)
    except InconsistentBoardError:
        assert found is None
        return
    if found is None:
        return
    assert found.layouts == weights.layouts
    assert found.mine_weight == weights.mine_weight
    assert found.mines_left == weights.mines_left
    assert sorted(found.component_sizes) == sorted(weights.component_sizes)


@pytest.mark.parametrize("case", range(60))
def test_exact_layouts_and_groups_are_the_engines(case):
    board = _positions(60, 8)[case]
    assert compiled.ready()  # tests load the compiled path (conftest)
    from semiautomines_agents import float_weights

    grouped = float_weights.exact_groups(board)
    layouts = float_weights.exact_layouts(board)
    try:
        weights = count_position(board)
    except InconsistentBoardError:
        assert grouped is None and layouts is None
        return
    if grouped is None:
        return
    assert layouts == grouped.layouts == weights.layouts
    assert grouped.weights().mine_weight == weights.mine_weight
    counted = grouped.groups >= 0
    # Every counted cell's group holds its weight.
    for cell in np.flatnonzero(counted).tolist():
        assert grouped.values[grouped.groups[cell]] == weights.mine_weight[cell]


def test_exact_weights_on_expert_are_the_engines():
    """Weights of about 2**340, and an off-frontier count, as the engine counts them."""
    rows = ["?" * 30 for _ in range(16)]
    rows[0] = "01" + rows[0][2:]
    rows[1] = "12" + rows[1][2:]
    rows[8] = rows[8][:14] + "3" + rows[8][15:]
    board = Board.from_rows(rows, total_mines=99)
    found = _compiled().exact_weights(board)
    assert found is not None
    weights = count_position(board)
    assert found.layouts == weights.layouts and found.layouts.bit_length() > 300
    assert found.mine_weight == weights.mine_weight


def test_exact_weights_defer_without_a_total_or_a_layout():
    assert _compiled().exact_weights(Board.from_rows(["??1", "1??", "???"])) is None
    assert _compiled().exact_weights(Board.from_rows(["??1", "1??", "???"], total_mines=9)) is None

def test_merged_groups_take_one_float_per_class():
    probabilities = np.array([0.25, 0.25 + 1e-16, 0.5, np.nan, 0.0])
    groups = np.array([0, 1, 2, -1, -2])
    unified, merged = merge_equal_groups(probabilities, groups, np.array([0, 0, 2]))
    assert merged.tolist() == [0, 0, 2, -1, -2]
    assert unified[0] == unified[1] and unified[0] in probabilities[:2]
    assert unified[2] == 0.5 and np.isnan(unified[3]) and unified[4] == 0.0

def _exact_ranking(board: Board, valid: np.ndarray) -> tuple[list[int], bool]:
    """The greedy agent's exact ranking of the tied cells (as GreedyAgent._break_tie)."""
    weights = count_position(board)
    candidates = {i: w for i, w in weights.mine_weight.items() if w is not None and valid[i]}
    lowest = min(candidates.values())
    tied = np.array(sorted(i for i, w in candidates.items() if w == lowest))
    probabilities = np.full(board.grid.size, np.nan)
    for index, weight in weights.mine_weight.items():
        if weight is not None:
            probabilities[index] = weight / weights.layouts
    zero = zero_chance(board.grid, probabilities.reshape(board.grid.shape)).reshape(-1)[tied]
    neighbours = neighbour_counts(board.height, board.width).reshape(-1)[tied]
    ranked = tied[np.lexsort((tied, neighbours, -np.round(zero, 12)))]
    return ranked.tolist(), lowest == 0


def test_float_ranking_is_the_exact_ranking_when_it_answers():
    answered = 0
    for board in _positions(300, 9):
        valid = board.grid.reshape(-1) == COVERED
        try:
            ranked, certain = _exact_ranking(board, valid)
        except InconsistentBoardError:
            continue
        found = _compiled().group_probabilities(board)
        if found is None:
            continue
        probabilities, groups = found
        zero = zero_chance(board.grid, probabilities).reshape(-1)
        neighbours = neighbour_counts(board.height, board.width).reshape(-1)
        for keep in (1, LOOKAHEAD):
            ranking = float_ranking(
                board.grid, valid, probabilities.reshape(-1), groups, zero, neighbours, keep
            )
            if ranking is None:
                continue
            answered += 1
            assert ranking.ranked == ranked[:keep], board.rows()
            assert ranking.certain_safe == certain
    assert answered > 150  # of 600: small random positions tie across groups often


def test_float_ranking_leaves_groups_of_equal_floats_to_the_exact_engine():
    # Two numbers each see two cells of their own: two groups, both at one half.
    board = Board.from_rows(["??1", "1??", "???"], total_mines=2)
    found = _compiled().group_probabilities(board)
    assert found is not None
    probabilities, groups = found
    valid = board.grid.reshape(-1) == COVERED
    zero = zero_chance(board.grid, probabilities).reshape(-1)
    neighbours = neighbour_counts(3, 3).reshape(-1)
    flat = probabilities.reshape(-1)
    ranking = float_ranking(board.grid, valid, flat, groups, zero, neighbours, LOOKAHEAD)
    tied = np.flatnonzero(valid & (flat == np.nanmin(flat[valid])))
    if len(set(groups[tied].tolist())) > 1:
        assert ranking is None


@pytest.mark.parametrize("case", range(20))
def test_best_progress_counts_the_weights_only_when_it_must(case):
    board = _positions(20, 8)[case]
    try:
        weights = count_position(board)
    except InconsistentBoardError:
        return
    ranked = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()[:LOOKAHEAD]
    asked = []

    def lazily():
        asked.append(True)
        return weights

    assert best_progress(board, ranked, lazily) == best_progress(board, ranked, weights)
    assert len(asked) <= 1


@pytest.mark.parametrize("board", ["beginner", "intermediate", "expert"])
@pytest.mark.parametrize("rule_set", ["complete", "endoh"])
@pytest.mark.parametrize("agent_name", ["greedy", "greedy-zero"])
def test_the_float_route_makes_the_exact_routes_moves(monkeypatch, board, rule_set, agent_name):
    """Whole games: every move with the compiled shortcuts is the move without them."""
    games = {"beginner": 30, "intermediate": 12, "expert": 6}[board]

    def play(seed: int) -> list[int]:
        env = gym.make(
            "SemiAutoMines-v0", board=board, rule_set=rule_set, info_probability=False
        )
        agent = make_agent(agent_name)
        observation, info = env.reset(seed=seed)
        moves, done = [], False
        while not done:
            action = agent.act(observation, info["action_mask"], env.unwrapped.game)
            moves.append(int(action))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        return moves

    fast = [play(seed) for seed in range(games)]
    # The exact route: every compiled path off (the env's outcomes do not depend on it).
    with compiled.python_only():
        exact = [play(seed) for seed in range(games)]
    assert fast == exact


def test_boards_past_the_float_limit_are_decided_exactly(monkeypatch):
    """Past FLOAT_CELLS no float estimate is made: the exact chances decide."""
    board = Board.from_rows(["?" * 70] * 60, total_mines=400)
    board.grid[30, 35] = 0
    assert board.grid.size > progress_module.FLOAT_CELLS
    called = []
    monkeypatch.setattr(
        progress_module, "estimate_chance", lambda *args: called.append(args) or None
    )
    ranked = [0, 69]
    weights = count_position(board)
    assert best_progress(board, ranked, weights) in (0, 1)
    assert not called


def test_an_isolated_guess_counts_the_same_both_ways():
    """A large board with numbers far from the guess: the short way is the long way."""
    rows = ["?" * 16 for _ in range(16)]
    rows[0] = "01?" + "?" * 13
    rows[1] = "12?" + "?" * 13
    board = Board.from_rows(rows, total_mines=40)
    cell = 10 * 16 + 10
    assert isolated_shape(board, cell) == 8
    numbers = np.fromiter(number_range(board, cell), np.int64)
    trial_weights = _compiled().trial_weights
    short_logs, short_progress = trial_weights(board, cell, numbers, True)
    long_logs, long_progress = trial_weights(board, cell, numbers, False)
    np.testing.assert_allclose(short_logs, long_logs, rtol=0, atol=1e-11)
    np.testing.assert_array_equal(short_progress, long_progress)


@pytest.mark.parametrize("case", range(40))
def test_shared_trials_are_the_full_counts_to_the_bit(case):
    """The components a number does not touch counted once: the very floats of the full counts."""
    from semiautomines_agents.weights_compiled import _shared_trials, _trials

    board = _positions(40, 8)[case]
    total = -1 if board.total_mines is None else int(board.total_mines)
    shared = 0
    for cell in np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist():
        numbers = np.fromiter(number_range(board, cell), np.int64)
        if len(numbers) < 2:
            continue
        full_logs, full_flags = np.empty(len(numbers)), np.empty(len(numbers), np.int8)
        logs, flags = np.empty(len(numbers)), np.empty(len(numbers), np.int8)
        _trials(np.array(board.grid, np.int8), total, cell, numbers, full_logs, full_flags)
        grid = np.array(board.grid, np.int8)
        if _shared_trials(grid, total, cell, numbers, logs, flags):
            shared += 1
            np.testing.assert_array_equal(logs, full_logs)
            np.testing.assert_array_equal(flags, full_flags)
        np.testing.assert_array_equal(grid, board.grid)  # put back as it was
