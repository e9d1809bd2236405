"""Every agent on large boards and without a mine total: no error, and every chance it
reports a probability (exact layout counts pass the largest float on such boards)."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import REPO

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env import Board, compiled, get_rule_set
from minesweep_env.core.cells import COVERED
from minesweep_env.core.first_click import FirstClick
from minesweep_env.solver.probability import count_position
from semiautomines_agents import AGENTS, SearchAgent, make_agent

MAPS = REPO / "maps" / "ioccc"
BOARDS = {
    "60x60x720": {"width": 60, "height": 60, "mines": 720},
    "50x29x290": {"width": 50, "height": 29, "mines": 290},
    "megumin": {"maps": [str(MAPS / "megumin.txt")]},
    "hilbert16x8": {"maps": [str(MAPS / "hilbert16x8.txt")]},
}
"""Boards of 1,450 to 3,600 cells: the first two at 20% and the two largest IOCCC maps."""


@pytest.fixture(autouse=True, scope="module")
def exact_engine():
    """The exact engine answers unless the kernels are loaded already (the same results):
    a few positions need no compile."""
    compiled.exact_only()
    yield
    compiled.reset()


def _stand_in(board: Board, probes: int) -> SimpleNamespace:
    """What the agents read of a game, at ``board`` (which may have no mine total)."""
    minefield = SimpleNamespace(
        width=board.width,
        height=board.height,
        probes=probes,
        first_click=FirstClick("safe"),
        view=board.grid,
        mine_count=board.total_mines,
        board=lambda: board.copy(),
    )
    return SimpleNamespace(minefield=minefield, rule_set=get_rule_set("complete"))


def _check_advice(board: Board) -> None:
    """The search agent's advice on ``board``: a covered cell, every chance in [0, 1]."""
    advice = SearchAgent().advise(board)
    assert board.grid.reshape(-1)[advice.cell] == COVERED
    assert 0.0 <= advice.safety <= 1.0 or np.isnan(advice.safety)
    for a in advice.candidates:
        for value in (a.safety, a.progress, a.survival):
            assert 0.0 <= value <= 1.0, (a, advice.reason)


def _play(name: str, board: str, seed: int, moves: int) -> None:
    """``moves`` moves of agent ``name`` on ``board``, each also asked without the total."""
    agent = make_agent(name)
    env = gymnasium.make(
        "SemiAutoMines-v0",
        disable_env_checker=True,
        info_probability=False,
        obs_mode=getattr(agent, "obs_mode", "planes"),
        **BOARDS[board],
    )
    observation, info = env.reset(seed=seed)
    agent.reset(seed=seed)
    game = env.unwrapped.game
    for move in range(moves):
        mask = np.asarray(info["action_mask"], dtype=bool)
        action = agent.act(observation, mask, game)
        assert mask[action]
        if name != "ppo" and game.minefield.probes:
            unknown = Board(game.view.copy(), None)
            blind = make_agent(name).act(observation, mask, _stand_in(unknown, move))
            assert mask[blind]
            if name == "search":
                _check_advice(game.minefield.board())
                _check_advice(unknown)
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("name", sorted(AGENTS))
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_every_agent_plays_large_boards_with_and_without_the_total(name, board, seed):
    _play(name, board, seed, moves=3)


def test_the_search_agent_guesses_past_the_float_range_on_the_default_play_field():
    """50x29/290 (a 100x30 terminal's play field): C(1450, 290) is no float."""
    env = gymnasium.make("SemiAutoMines-v0", disable_env_checker=True, **BOARDS["50x29x290"])
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    board = env.unwrapped.game.minefield.board()
    assert count_position(board).layouts.bit_length() > 1024
    _check_advice(board)


def test_without_a_total_the_agents_count_layouts_of_any_mine_count():
    """Off the frontier a cell is a mine in half the layouts, frontier cells keep the
    frontier-only probabilities, and a probe's outcomes add up to its safe layouts."""
    board = Board.from_rows(["1??", "???", "???"], total_mines=None)
    free = count_position(board)
    counted = count_position(board, any_count=True)
    off = [c for c, w in free.mine_weight.items() if w is None]
    assert len(off) == 5 and counted.layouts == free.layouts << 5
    assert all(2 * counted.mine_weight[c] == counted.layouts for c in off)  # type: ignore[operator]
    for cell in (1, 3, 4):
        assert counted.mine_weight[cell] * free.layouts == free.mine_weight[cell] * counted.layouts  # type: ignore[operator]
    safe_layouts = counted.layouts - counted.mine_weight[1]  # type: ignore[operator]
    outcomes = 0
    for number in range(9):
        trial = board.copy()
        trial.grid[0, 1] = number
        with contextlib.suppress(minesweep_env.InconsistentBoardError):
            outcomes += count_position(trial, any_count=True).layouts
    assert outcomes == safe_layouts


def test_a_broken_adviser_plug_in_says_so_on_stderr(monkeypatch, capsys):
    from minesweep_env.cli import play

    class Broken:
        name = "search"

        def load(self):
            raise ImportError("no module named nowhere")

    monkeypatch.setattr(play, "entry_points", lambda group: [Broken()])
    assert play.find_advisor("search") is None
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "search adviser cannot be loaded" in err[0]
    assert "no module named nowhere" in err[0]
