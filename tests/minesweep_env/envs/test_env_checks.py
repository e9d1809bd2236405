"""SemiAutoMines-v0 under the tools RL researchers use: env checkers, vector envs, MaskablePPO."""

from __future__ import annotations

import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from paths import REPO

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.envs import OBS_MODES, SemiAutoMinesEnv

# The remarks SB3's checker makes about any 3-D Box (it takes it for an image) and about
# 2-D observations; docs/environment.md (Which network) explains why they do not apply.
SB3_IMAGE_REMARKS = re.compile(
    r"is an image but|Treating image space as channels-last|minimal resolution for an image"
    r"|unconventional shape \(neither an image, nor a 1D vector\)"
)


@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("rule_set", ["complete", "endoh", "mysweeper"])
def test_gymnasium_and_sb3_checkers_pass(obs_mode, rule_set, capsys):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make("SemiAutoMines-v0", rule_set=rule_set, obs_mode=obs_mode)
        gymnasium_check_env(env.unwrapped)  # also makes one env per render mode
        gymnasium_remarks = [str(w.message) for w in caught]
        caught.clear()
        sb3_check_env(SemiAutoMinesEnv(rule_set=rule_set, obs_mode=obs_mode), warn=True)
        sb3_remarks = [str(w.message) for w in caught]
    assert gymnasium_remarks == []
    unexpected = [m for m in sb3_remarks if not SB3_IMAGE_REMARKS.search(m)]
    assert unexpected == []
    if obs_mode == "grid":
        assert all("unconventional shape" in m for m in sb3_remarks)


@pytest.mark.parametrize(
    ("rule_set", "first_click"),
    [("endoh-alt", "endoh"), ("groups", "zero"), ("substitution", "none")],
)
def test_checkers_pass_on_maps_and_other_rule_sets(rule_set, first_click):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    maps = str(REPO / "maps" / "suites" / "beginner")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = SemiAutoMinesEnv(maps=maps, rule_set=rule_set, first_click=first_click)
        gymnasium_check_env(env, skip_render_check=True)
        assert caught == []
        sb3_check_env(SemiAutoMinesEnv(maps=maps, rule_set=rule_set, first_click=first_click))
    assert all(SB3_IMAGE_REMARKS.search(str(w.message)) for w in caught)


@pytest.mark.parametrize(
    ("mode", "vector_kwargs"),
    [
        ("sync", {}),
        ("async", {}),
        # Fresh worker processes: gymnasium hands them the spec, no import needed.
        pytest.param("async", {"context": "spawn"}, marks=pytest.mark.slow),
    ],
)
def test_make_vec_runs_with_masks_in_info(mode, vector_kwargs):
    envs = gym.make_vec(
        "SemiAutoMines-v0",
        num_envs=8,
        vectorization_mode=mode,
        vector_kwargs=vector_kwargs,
        rule_set="endoh",
    )
    try:
        obs, infos = envs.reset(seed=0)
        assert obs.shape == (8, 11, 9, 9) and obs.dtype == np.uint8
        assert infos["action_mask"].shape == (8, 81) and infos["action_mask"].all()
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(60):
            masks = infos["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
            finished += int(terminated.sum())
            # A finished game's mask is all True (the autoreset step ignores the action).
            assert infos["action_mask"][terminated].all()
            assert infos["action_mask"].any(axis=1).all()
        assert finished > 8
    finally:
        envs.close()


def test_vector_envs_with_the_same_seed_agree():
    def run() -> list[np.ndarray]:
        envs = gym.make_vec("SemiAutoMines-v0", num_envs=4, vectorization_mode="sync")
        obs, infos = envs.reset(seed=5)
        rng = np.random.default_rng(5)
        seen = [obs]
        for _ in range(20):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
            obs, _, _, _, infos = envs.step(actions)
            seen.append(obs)
        envs.close()
        return seen

    for a, b in zip(run(), run(), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.slow
def test_maskable_ppo_learns_a_few_hundred_steps_without_glue():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = gym.make("SemiAutoMines-v0", rule_set="endoh", info_probability=False)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, verbose=0
    )
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks())
    assert info["action_mask"][int(action)]


def test_module_prefixed_id_imports_the_package():
    env = gym.make("minesweep_env:SemiAutoMines-v0", board="expert")
    assert env.action_space.n == 480


@pytest.mark.slow
def test_maskable_ppo_in_subprocesses_finds_the_masks():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec_env = make_vec_env(
        "minesweep_env:SemiAutoMines-v0",  # fresh workers import the package first
        n_envs=2,
        vec_env_cls=SubprocVecEnv,
        vec_env_kwargs={"start_method": "fork"},  # the test's speed; forkserver works the same
        env_kwargs={"rule_set": "endoh", "info_probability": False},
    )
    try:
        model = sb3_contrib.MaskablePPO(
            "MlpPolicy", vec_env, n_steps=64, batch_size=64, n_epochs=1, seed=0, verbose=0
        )
        model.learn(total_timesteps=256)
        masks = np.stack(vec_env.env_method("action_masks"))
        assert masks.shape == (2, 81) and masks.any(axis=1).all()
    finally:
        vec_env.close()
