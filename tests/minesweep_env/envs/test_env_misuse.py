"""The env driven wrongly: every misuse raises a clear error or does what the docstring says.

For ``SemiAutoMines-v0`` through ``gymnasium.make`` (and unwrapped, where
gymnasium's own order check would speak first) and for the native vector env
through ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from hypothesis import given, settings
from hypothesis import strategies as st

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env import MapFormatError, MineLayout
from minesweep_env.envs.semi_auto_mines import SemiAutoMinesEnv

ENV_ID = "SemiAutoMines-v0"
CELLS = 81  # beginner


def make(**kwargs):
    return gym.make(ENV_ID, disable_env_checker=True, **kwargs)


def make_vec(num_envs=2, **kwargs):
    return gym.make_vec(
        ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


# -- order: step before reset, after the end ------------------------------------------------


def test_step_before_reset():
    with pytest.raises(ResetNeeded):
        make().step(0)
    with pytest.raises(RuntimeError, match="call reset"):
        SemiAutoMinesEnv().step(0)
    with pytest.raises(RuntimeError, match="call reset"):
        SemiAutoMinesEnv().action_masks()
    with pytest.raises(RuntimeError, match="call reset"):
        make_vec().step(np.array([0, 0]))


def test_step_after_the_end_changes_nothing_as_documented():
    env = make(first_click="none")
    env.reset(seed=0)
    game = env.unwrapped.game
    mine = int(np.flatnonzero(game.minefield.layout.mines)[0])
    _, reward, terminated, _, info = env.step(mine)
    assert terminated and reward == -1.0 and info["state"] == "lost"
    view = game.view.copy()
    for action in (mine, 0, CELLS - 1):
        _, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated) == (0.0, True, False)
        assert info["state"] == "lost" and not info["invalid_action"]
        assert info["action_mask"].all()
    assert np.array_equal(game.view, view)


def test_the_vector_env_resets_a_finished_board_on_the_next_step():
    envs = make_vec(num_envs=2, first_click="none")
    envs.reset(seed=0)
    mines = envs.unwrapped.boards.mines
    first_mine = int(np.flatnonzero(mines[0])[0])
    safe = int(np.flatnonzero(~mines[1])[0])
    _, rewards, terminated, _, _ = envs.step(np.array([first_mine, safe]))
    assert rewards[0] == -1.0 and terminated[0]
    _, rewards, terminated, _, infos = envs.step(np.array([first_mine, safe]))
    assert rewards[0] == 0.0 and not terminated[0] and infos["state"][0] == "playing"


# -- actions --------------------------------------------------------------------------------

NOT_INTEGERS = [
    3.0,
    3.7,
    np.float32(2),
    True,
    np.bool_(False),
    "3",
    None,
    [3],
    np.array([3]),
    np.array([[1]]),
    np.array(2.0),
    1 + 0j,
]


@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_non_integer_actions_raise_type_error(action):
    env = make()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="action must be an integer"):
        env.step(action)
    assert env.unwrapped.steps == 0  # nothing happened


INTEGERS = [
    0,
    80,
    np.int8(5),
    np.int16(7),
    np.int32(9),
    np.int64(11),
    np.uint8(13),
    np.uint16(15),
    np.uint32(17),
    np.uint64(19),
    np.array(21),
]


@pytest.mark.parametrize("action", INTEGERS, ids=repr)
def test_integer_actions_of_every_width_are_the_same_action(action):
    env, reference = make(), make()
    env.reset(seed=1)
    reference.reset(seed=1)
    obs, reward, *_ = env.step(action)
    expected, expected_reward, *_ = reference.step(int(action))
    assert np.array_equal(obs, expected) and reward == expected_reward


@pytest.mark.parametrize("action", [-1, CELLS, 2**63, -(2**70), np.int64(-5), np.uint64(2**64 - 1)])
def test_out_of_range_actions_raise_value_error(action):
    env = make()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"outside Discrete\(81\)"):
        env.step(action)


@settings(max_examples=100, deadline=None)
@given(action=st.one_of(st.integers(), st.floats(), st.booleans(), st.text(max_size=3)))
def test_any_action_is_played_or_refused_clearly(action):
    env = SemiAutoMinesEnv()
    env.reset(seed=0)
    is_cell = isinstance(action, int) and not isinstance(action, bool) and 0 <= action < CELLS
    if is_cell:
        env.step(action)
        assert env.steps == 1
    else:
        with pytest.raises((TypeError, ValueError)):
            env.step(action)
        assert env.steps == 0


VECTOR_BAD_ACTIONS = [
    np.array([0.0, 1.0]),
    np.array([True, False]),
    np.array([0]),
    np.array([[0, 1]]),
    np.array([0, CELLS]),
    np.array([-1, 0]),
    ["a", "b"],
    np.array([0, 1, 2]),
]


@pytest.mark.parametrize("actions", VECTOR_BAD_ACTIONS, ids=repr)
def test_vector_env_refuses_bad_actions(actions):
    envs = make_vec(num_envs=2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        envs.step(actions)
    assert (envs.unwrapped.steps == 0).all()


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64])
def test_vector_env_takes_integer_actions_of_every_width(dtype):
    envs, reference = make_vec(num_envs=2), make_vec(num_envs=2)
    envs.reset(seed=3)
    reference.reset(seed=3)
    obs, rewards, *_ = envs.step(np.array([4, 40], dtype=dtype))
    expected, expected_rewards, *_ = reference.step(np.array([4, 40]))
    assert np.array_equal(obs, expected) and np.array_equal(rewards, expected_rewards)


# -- reset options --------------------------------------------------------------------------

BAD_OPTIONS = [
    ({"layuot": None}, ValueError, "unknown reset option"),
    ({"seed": 3}, ValueError, "unknown reset option"),
    ([("map", "x")], TypeError, "must be a dict"),
    ("map", TypeError, "must be a dict"),
    ({"layout": "xo"}, TypeError, "must be a MineLayout"),
    ({"layout": MineLayout.from_rows(["xo", "oo"])}, ValueError, "2x2"),
    ({"map": 7}, TypeError, "must be a path"),
    ({"map": "/no/such/map.txt"}, MapFormatError, "no such file"),
    ({"map": "m.txt", "layout": None}, ValueError, "not both"),
]


@pytest.mark.parametrize(("options", "error", "message"), BAD_OPTIONS)
def test_bad_reset_options(options, error, message):
    with pytest.raises(error, match=message):
        make().reset(seed=0, options=options)
    envs = make_vec(num_envs=2)
    envs.reset(seed=0)
    with pytest.raises(error, match=message):
        envs.reset(seed=0, options=options)


def test_a_refused_reset_draws_nothing():
    env, reference = make(), make()
    env.reset(seed=5)
    reference.reset(seed=5)
    with pytest.raises(ValueError):
        env.reset(options={"unknown": 1})
    _, info = env.reset()
    _, expected = reference.reset()
    assert info["layout_seed"] == expected["layout_seed"]


@pytest.mark.parametrize(
    "mask", [np.array([True]), np.array([1, 0]), np.array([False, False]), [True, True]], ids=repr
)
def test_bad_reset_masks(mask):
    envs = make_vec(num_envs=2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": mask})


# -- make arguments -------------------------------------------------------------------------

BAD_MAKE = [
    ({"board": "huge"}, ValueError, "unknown board"),
    ({"board": 9}, TypeError, "board must be"),
    ({"board": "5000x5000x10"}, ValueError, "too large"),
    ({"width": 100000, "height": 100000, "mines": 5}, ValueError, "too large"),
    ({"width": 4097, "height": 1, "mines": 0}, ValueError, "too large"),
    ({"width": 2048, "height": 1024}, ValueError, "1,048,576"),
    ({"width": -3}, ValueError, "at least 1x1"),
    ({"height": 0}, ValueError, "at least 1x1"),
    ({"mines": -1}, ValueError, "mines must be in"),
    ({"mines": 81}, ValueError, "mines must be in 0..80"),
    ({"mines": 73, "first_click": "zero"}, ValueError, "9 cells kept free"),
    ({"width": 8.5}, TypeError, "width must be an integer"),
    ({"width": "8"}, TypeError, "width must be an integer"),
    ({"height": True}, TypeError, "height must be an integer"),
    ({"mines": 10.0}, TypeError, "mines must be an integer"),
    ({"max_steps": 0}, ValueError, "max_steps"),
    ({"max_steps": 2.5}, TypeError, "max_steps must be an integer"),
    ({"rule_set": "nope"}, ValueError, "nope"),
    ({"first_click": "sometimes"}, ValueError, "unknown first_click"),
    ({"obs_mode": "pixels"}, ValueError, "unknown obs_mode"),
    ({"reward": "money"}, ValueError, "unknown reward"),
    ({"maps": 3}, TypeError, "maps must be"),
    ({"maps": "/no/such/folder/map.txt"}, MapFormatError, "no such file"),
    ({"invalid_action_reward": "a lot"}, ValueError, "a lot"),
    ({"colour": "red"}, TypeError, "colour"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_MAKE, ids=repr)
def test_bad_make_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        make(**kwargs)
    with pytest.raises(error, match=message):
        make_vec(num_envs=2, **kwargs)


def test_unknown_env_names():
    with pytest.raises(gym.error.Error):
        gym.make("SemiAutoMines-v9")
    with pytest.raises(gym.error.Error):
        gym.make("SemiAutoMine-v0")


@pytest.mark.parametrize(
    ("num_envs", "error", "message"),
    [
        (0, ValueError, "at least 1"),
        (-2, ValueError, "at least 1"),
        (2.0, TypeError, "integer"),
        ("2", TypeError, "integer"),
        (60_000, ValueError, "batch limit"),
    ],
)
def test_bad_num_envs(num_envs, error, message):
    with pytest.raises(error, match=message):
        make_vec(num_envs=num_envs)


def test_the_largest_board_is_accepted_without_playing_it():
    env = SemiAutoMinesEnv(width=4096, height=256, mines=1)
    assert env.action_space.n == 4096 * 256


def test_a_vector_step_where_no_board_probes():
    # Every action invalid (the cells are open): nothing is probed, every board reports it.
    envs = make_vec(num_envs=2)
    envs.reset(seed=0)
    opening = np.array([40, 40])
    envs.step(opening)
    if envs.unwrapped.boards.state.any():
        envs.step(opening)  # a board that ended restarts; step both again into open cells
        envs.step(opening)
    playing = envs.unwrapped.boards.state == 0
    _, rewards, _, _, infos = envs.step(opening)
    assert (rewards[playing] == -0.1).all() and infos["invalid_action"][playing].all()
    assert all(cells == [] for cells in infos["opened"][playing])
