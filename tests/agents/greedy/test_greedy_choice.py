"""The greedy agent's one-call kernel (greedy/choice_compiled.py, greedy_choice_into) decides as the
step-by-step float route and as the exact route do, and falls back where they would."""

from __future__ import annotations

from collections import Counter
from functools import cache
from types import ModuleType, SimpleNamespace

import gymnasium as gym
import numpy as np
import pytest
from positions import random_position

from minesweep_env import Board, compiled
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import count_position
from minesweep_env.solver.rules.complete import Complete
from semiautomines_agents import make_agent
from semiautomines_agents.greedy import LOOKAHEAD, GreedyAgent
from semiautomines_agents.greedy.agent import _MARGINS


def _compiled() -> ModuleType:
    assert compiled.ready()  # tests load the compiled path (conftest)
    from semiautomines_agents.greedy import float_choice

    return float_choice


def _field(board: Board) -> SimpleNamespace:
    """What the agent reads of a minefield, for a bare position."""
    return SimpleNamespace(
        width=board.width, height=board.height, view=board.grid, board=board.copy
    )


def _decisions(agent: GreedyAgent, board: Board, valid: np.ndarray) -> tuple:
    """(kernel's cell, step-by-step cell, exact route's cell, kernel's status)."""
    field = _field(board)
    rule_set = Complete()
    kernel = agent._float_choice(board.copy(), field, valid, rule_set)
    stepwise = agent._stepwise_choice(board.copy(), field, valid, rule_set)
    exact = agent._choose(count_position(board), valid, field)
    keep = 1 if agent.tie_break == "zero" else LOOKAHEAD
    status, _ = _compiled().greedy_choice(
        board.copy(), valid, keep, agent.tie_break == "lookahead", _MARGINS
    )
    return kernel, stepwise, exact, status


@cache
def _random_positions(count: int, max_side: int, flag_share: float) -> tuple[Board, ...]:
    found = []
    for seed in range(20 * count):
        board, _ = random_position(seed, max_side=max_side, flag_share=flag_share)
        if np.count_nonzero(board.grid == COVERED) >= 2:
            found.append(board)
        if len(found) == count:
            return tuple(found)
    raise AssertionError(f"only {len(found)} positions fit")


@cache
def _game_positions(board_name: str, games: int) -> tuple[Board, ...]:
    """Every position the greedy agent guesses in, over whole games."""
    env = gym.make(
        "SemiAutoMines-v0", board=board_name, rule_set="complete", info_probability=False
    )
    agent = make_agent("greedy")
    found = []
    for seed in range(games):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            game = env.unwrapped.game
            if game.minefield.probes:
                found.append(game.minefield.board())
            action = agent.act(observation, info["action_mask"], game)
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    return tuple(found)


def _tie_heavy_positions() -> list[Board]:
    """Symmetric positions: mirrored numbers, flags next to many tied cells, an empty board."""
    boards = [
        Board.from_rows(["??1", "1??", "???"], total_mines=2),
        Board.from_rows(["?????", "?!2!?", "?????", "?!2!?", "?????"], total_mines=6),
        Board.from_rows(["??????", "?1??1?", "??????", "??????", "?1??1?", "??????"],
                        total_mines=4),
        Board.from_rows(["!1?1!", "?????", "?????", "?????", "!1?1!"], total_mines=7),
        Board.from_rows(["?" * 8] * 8, total_mines=10),
        Board.from_rows(["???!???", "???????", "!?1?1?!", "???????", "???!???"],
                        total_mines=9),
    ]
    for size in (7, 9, 12):
        rows = ["?" * size for _ in range(size)]
        middle = size // 2
        rows[middle] = "?" * (middle - 1) + "1?1" + "?" * (size - middle - 2)
        boards.append(Board.from_rows(rows, total_mines=size + 2))
    return boards


def _check(positions, agent_names=("greedy", "greedy-zero")) -> Counter:
    statuses: Counter = Counter()
    for name in agent_names:
        agent = make_agent(name)
        for board in positions:
            valid = board.grid.reshape(-1) == COVERED
            kernel, stepwise, exact, status = _decisions(agent, board, valid)
            statuses[status] += 1
            assert kernel == stepwise, (name, board.rows())
            if kernel is not None:
                assert kernel == exact, (name, board.rows())
    return statuses


@pytest.mark.parametrize("flag_share", [0.0, 0.3, 0.8])
def test_random_positions_decide_as_both_routes(flag_share):
    statuses = _check(_random_positions(150, 9, flag_share))
    assert statuses["chosen"] > 100  # of 300 decisions: the kernel decides most itself


@pytest.mark.parametrize("board_name", ["beginner", "intermediate", "expert"])
def test_game_positions_decide_as_both_routes(board_name):
    games = {"beginner": 40, "intermediate": 15, "expert": 8}[board_name]
    statuses = _check(_game_positions(board_name, games))
    assert statuses["chosen"] >= statuses.total() // 2


def test_tie_heavy_positions_decide_as_both_routes():
    statuses = _check(_tie_heavy_positions())
    assert statuses["chosen"] > 0


def test_every_fallback_is_taken_and_agrees():
    """Over real games the kernel hands each fallback back, and there too the agent's cell
    is the step-by-step route's and the exact route's."""
    statuses: Counter = Counter()
    handed_back = []
    for board in _game_positions("expert", 150):
        valid = board.grid.reshape(-1) == COVERED
        status, _ = _compiled().greedy_choice(board.copy(), valid, LOOKAHEAD, True, _MARGINS)
        statuses[status] += 1
        if status != "chosen":
            handed_back.append(board)
    assert {"chosen", "progress", "exact"} <= set(statuses), statuses
    assert _check(handed_back, agent_names=("greedy",))["chosen"] == 0


def test_the_kernel_defers_without_a_total():
    board = Board.from_rows(["???", "?1?", "???"])
    valid = board.grid.reshape(-1) == COVERED
    assert _compiled().greedy_choice(board, valid, LOOKAHEAD, True, _MARGINS) == ("none", [])
    field = _field(board)
    assert make_agent("greedy")._float_choice(board, field, valid, Complete()) is None


def test_the_kernel_leaves_the_grid_as_it_found_it():
    board = _game_positions("expert", 2)[3]
    before = board.grid.copy()
    valid = board.grid.reshape(-1) == COVERED
    _compiled().greedy_choice(board, valid, LOOKAHEAD, True, _MARGINS)
    np.testing.assert_array_equal(board.grid, before)
