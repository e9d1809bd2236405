"""The threaded vector env gives what the one-thread vector env gives, board for board."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from paths import REPO

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.envs.threaded import ThreadedVectorEnv, make_vector_env
from minesweep_env.envs.vector import SemiAutoMinesVectorEnv
from minesweep_env.solver.registry import get_rule_set

MAPS = REPO / "maps" / "suites" / "beginner"

SAME = AutoresetMode.SAME_STEP


def assert_same(a: Any, b: Any, where: str = "") -> None:
    """``a`` and ``b`` equal as the digest sees them: types, key order, dtypes, shapes,
    values (NaN equal to NaN), object arrays item by item with their types."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} vs {list(b)}"
        for key in a:
            assert_same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, np.ndarray):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), f"{where}: {a.dtype}{a.shape}"
        if a.dtype == object:
            for index, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
                assert_same(x, y, f"{where}[{index}]")
        else:
            assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), where
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{index}]")
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b), where
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


def play_both(num_envs: int, threads: int, kwargs: dict[str, Any], steps: int, seed: int) -> None:
    """Random (often masked, sometimes invalid) actions on a one-thread env and a
    ``threads``-thread env, every output compared, partial resets now and then."""
    plain = gym.make_vec("SemiAutoMines-v0", num_envs=num_envs, **kwargs)
    threaded = gym.make_vec("SemiAutoMines-v0", num_envs=num_envs, num_threads=threads, **kwargs)
    assert isinstance(plain, SemiAutoMinesVectorEnv)
    assert isinstance(threaded, ThreadedVectorEnv) and len(threaded.shards) == threads
    rng = np.random.default_rng(seed)
    first = plain.reset(seed=seed)
    assert_same(first, threaded.reset(seed=seed), "reset")
    info = first[1]
    cells = plain.single_action_space.n
    for step in range(steps):
        scores = rng.random(info["action_mask"].shape)
        scores[~info["action_mask"]] = -1.0
        actions = scores.argmax(axis=1)
        wild = rng.random(num_envs) < 0.05
        actions[wild] = rng.integers(cells, size=int(wild.sum()))
        result = plain.step(actions)
        assert_same(result, threaded.step(actions), f"step {step}")
        assert_same(plain.action_masks(), threaded.action_masks(), f"masks {step}")
        info = result[-1]
        if step % 37 == 36:
            mask = np.zeros(num_envs, dtype=bool)
            mask[rng.integers(num_envs // 2)] = True  # in the first shard only, at times
            mask |= (rng.random(num_envs) < 0.3) & (step % 74 == 73)
            options: dict[str, Any] = {"reset_mask": mask}
            reseed = [
                int(s) if m and s % 2 else None
                for s, m in zip(rng.integers(99, size=num_envs), mask, strict=True)
            ]
            if "maps" in kwargs:
                options["map"] = str(MAPS / "beginner-002.txt")
            result = plain.reset(seed=reseed, options=options)
            assert_same(result, threaded.reset(seed=reseed, options=options), f"reset {step}")
            info = result[1]
    plain.close()
    threaded.close()


CASES = [
    ("beginner", 16, 2, {"board": "beginner"}, 300),
    ("expert", 16, 2, {"board": "expert"}, 250),
    (
        "expert none same",
        12,
        2,
        {"board": "expert", "first_click": "none", "autoreset_mode": SAME},
        150,
    ),
    ("beginner zero grid", 9, 3, {"first_click": "zero", "obs_mode": "grid"}, 200),
    (
        "beginner endoh no-probability",
        10,
        2,
        {"first_click": "endoh", "info_probability": False},
        200,
    ),
    (
        "beginner probabilities same",
        6,
        2,
        {"obs_mode": "planes+probabilities", "autoreset_mode": SAME},
        100,
    ),
    ("maps endoh-alt", 8, 2, {"maps": MAPS, "rule_set": "endoh-alt"}, 120),
    ("groups same", 8, 3, {"rule_set": "groups", "autoreset_mode": SAME}, 100),
    (
        "small progress truncation same",
        7,
        3,
        {
            "width": 6,
            "height": 5,
            "mines": 6,
            "reward": "progress",
            "max_steps": 4,
            "autoreset_mode": SAME,
        },
        150,
    ),
    (
        "small truncation next copy=False",
        5,
        5,
        {"width": 6, "height": 5, "mines": 6, "max_steps": 3, "copy": False},
        150,
    ),
]


@pytest.mark.parametrize(
    ("num_envs", "threads", "kwargs", "steps"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_threads_give_the_one_thread_outputs(num_envs, threads, kwargs, steps):
    play_both(num_envs, threads, kwargs, steps, seed=11)


def test_a_shared_rule_set_instance_plays_the_shards_in_turn():
    rules = get_rule_set("complete")
    env = make_vector_env(num_envs=4, num_threads=2, rule_set=rules)
    assert isinstance(env, ThreadedVectorEnv) and env._pool is None
    play_both(4, 2, {"rule_set": get_rule_set("complete")}, 60, seed=3)


def test_one_thread_is_the_plain_env_and_bad_counts_are_refused():
    assert type(make_vector_env(num_envs=3)) is SemiAutoMinesVectorEnv
    assert type(make_vector_env(num_envs=3, num_threads=1)) is SemiAutoMinesVectorEnv
    with pytest.raises(ValueError, match="num_threads"):
        make_vector_env(num_envs=3, num_threads=4)
    with pytest.raises(ValueError, match="num_threads"):
        make_vector_env(num_envs=3, num_threads=0)
    env = make_vector_env(num_envs=4, num_threads=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside"):
        env.step(np.array([0, 0, 0, 81]))
    with pytest.raises(ValueError, match="integer array"):
        env.step(np.zeros(4))
    env.close()


def test_the_sb3_adapter_passes_the_threads_on():
    pytest.importorskip("stable_baselines3")
    from minesweep_env.envs.sb3_vec import SemiAutoMinesSB3VecEnv

    plain = SemiAutoMinesSB3VecEnv(num_envs=6, board="expert")
    threaded = SemiAutoMinesSB3VecEnv(num_envs=6, board="expert", num_threads=2)
    assert isinstance(threaded.venv, ThreadedVectorEnv)
    plain.seed(4)
    threaded.seed(4)
    assert_same(plain.reset(), threaded.reset(), "reset")
    rng = np.random.default_rng(4)
    for step in range(120):
        masks = plain.action_masks()
        assert_same(masks, threaded.action_masks(), f"masks {step}")
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        plain.step_async(actions)
        threaded.step_async(actions)
        assert_same(plain.step_wait(), threaded.step_wait(), f"step {step}")
