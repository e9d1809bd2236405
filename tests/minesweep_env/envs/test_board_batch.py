"""The batch's one choice among its step paths, and the one buffer object its kernels take."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.compiled import python_only, ready
from minesweep_env.core.first_click import FirstClick
from minesweep_env.core.minefield import WinRule
from minesweep_env.envs.board_batch import BoardBatch, StepPath
from minesweep_env.solver.registry import get_rule_set as make_rule_set


def _batch(num_boards: int = 3) -> BoardBatch:
    return BoardBatch(num_boards, 9, 9, FirstClick.SAFE, WinRule.SAFE_CELLS_OPENED)


def test_the_python_path_is_chosen_while_the_kernels_may_not_answer():
    batch = _batch()
    rule_sets = [make_rule_set("complete") for _ in range(3)]
    with python_only():
        assert batch.step_path(rule_sets) is StepPath.PYTHON
        assert batch.step_path(rule_sets, np.array([0, 2])) is StepPath.PYTHON


def test_the_step_path_follows_the_rule_sets_of_the_boards_asked_about():
    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    batch = _batch()
    rule_sets = [make_rule_set("complete"), make_rule_set("groups"), make_rule_set("complete")]
    assert batch.step_path(rule_sets) is StepPath.ROUNDS
    assert batch.step_path(rule_sets, np.array([0, 2])) is StepPath.COMPILED
    assert batch.step_path(rule_sets, np.array([1])) is StepPath.ROUNDS
    every = [make_rule_set("complete") for _ in range(3)]
    assert batch.step_path(every) is StepPath.COMPILED
    assert batch.all_play_compiled(every) and not batch.all_play_compiled(rule_sets)


def test_the_kernels_take_one_buffer_object_per_batch_and_per_env_built_once():
    """The batch's and the env's buffers are made once and are the arrays themselves:
    what a compiled step writes is in the batch's and the env's own arrays."""
    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    envs = gym.make_vec("SemiAutoMines-v0", num_envs=4, vectorization_mode="vector_entry_point")
    env = envs.unwrapped
    _, info = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    batch_buffers = step_buffers = None
    for _ in range(20):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        observations, _, _, _, info = envs.step(actions)
        assert env._step_arrays is not None  # a whole step played compiled
        if batch_buffers is None:
            batch_buffers, step_buffers = env.boards.kernel_buffers(), env._step_arrays.buffers
        assert env.boards.kernel_buffers() is batch_buffers
        assert env._step_arrays.buffers is step_buffers
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert (env.boards.probes >= 0).all() and env.steps.max() >= 1


def test_the_buffers_refuse_a_missing_or_unknown_field():
    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    from minesweep_env.envs import board_batch_compiled, board_batch_step_compiled

    with pytest.raises(TypeError, match="missing"):
        board_batch_compiled.batch_buffers(views=np.zeros((1, 4), np.int8))
    with pytest.raises(TypeError, match="unknown"):
        board_batch_step_compiled.step_buffers(colour=1)
