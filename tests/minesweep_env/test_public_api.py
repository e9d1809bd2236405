"""The Python API a newcomer meets first: version, a game in one call, its board,
clear type errors, and the per-board Gymnasium ids."""

from __future__ import annotations

import re

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import minesweep_env
from minesweep_env import Board, Game, GameState, MineLayout, mine_probabilities
from minesweep_env.cli.main import main


def test_version_comes_from_the_installed_metadata():
    from importlib.metadata import version

    assert minesweep_env.__version__ == version("semiautomines")
    assert re.match(r"^\d+\.\d+", minesweep_env.__version__)


def test_version_flag_prints_it_and_exits_zero(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"semiautomines {minesweep_env.__version__}"


def test_game_new_plays_a_random_standard_board_reproducibly():
    game = Game.new("expert", seed=0)
    assert (game.width, game.height, game.layout.mine_count) == (30, 16, 99)
    again = Game.new("expert", seed=0)
    assert np.array_equal(game.layout.mines, again.layout.mines)
    expected = MineLayout.random(30, 16, 99, np.random.default_rng(0))
    assert np.array_equal(game.layout.mines, expected.mines)
    assert Game.new("8x8x10", seed=1).layout.mine_count == 10
    with pytest.raises(ValueError, match="unknown board"):
        Game.new("huge")


def test_game_board_is_what_mine_probabilities_takes():
    game = Game.new("beginner", seed=3)
    game.probe(4, 4)
    board = game.board
    assert isinstance(board, Board)
    assert board.total_mines == 10
    assert np.array_equal(board.grid, game.view)
    probabilities = mine_probabilities(board)
    assert probabilities.shape == (9, 9)
    assert game.state is not GameState.LOST


def test_mine_probabilities_of_a_view_is_a_clear_type_error():
    game = Game.new("beginner", seed=3)
    with pytest.raises(TypeError, match=r"takes a Board, got a numpy array \(9, 9\).*game\.board"):
        mine_probabilities(game.view)
    with pytest.raises(TypeError, match="got Game"):
        mine_probabilities(game)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("env_id", "shape"),
    [
        ("SemiAutoMines-Beginner-v0", (9, 9)),
        ("SemiAutoMines-Intermediate-v0", (16, 16)),
        ("SemiAutoMines-Expert-v0", (16, 30)),
    ],
)
def test_per_board_ids_make_the_right_size(env_id, shape):
    env = gymnasium.make(env_id)
    obs, _ = env.reset(seed=0)
    assert obs.shape[-2:] == shape
    assert env.unwrapped.action_masks().size == shape[0] * shape[1]
    env.close()


def test_a_per_board_id_passes_the_env_checker():
    env = gymnasium.make("SemiAutoMines-Beginner-v0")
    check_env(env.unwrapped)
    env.close()
