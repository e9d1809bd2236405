"""PufferLib's Gymnasium emulation layer over SemiAutoMines: a few hundred steps.

``pufferlib.emulation.GymnasiumPufferEnv`` flattens an env's spaces into the
fixed buffers PufferLib's vectorisation writes into; ``pufferlib.vector.make``
then runs many of them (``Serial`` here; ``Multiprocessing`` for one process per
core). The action mask travels in each env's ``info["action_mask"]``.

    pip install pufferlib-core   # the emulation and vector layers, no training stack
    python examples/pufferlib_emulation.py --num-envs 8 --steps 200
"""

from __future__ import annotations

import argparse
import json

import gymnasium as gym
import numpy as np
import pufferlib.emulation
import pufferlib.vector

import minesweep_env  # noqa: F401  (registers SemiAutoMines-v0)


def make_puffer_env(board: str = "beginner", buf=None, seed: int = 0):
    """One SemiAutoMines board under PufferLib's emulation layer."""
    return pufferlib.emulation.GymnasiumPufferEnv(
        env_creator=gym.make,
        env_args=["SemiAutoMines-v0"],
        env_kwargs={"board": board, "obs_mode": "planes"},
        buf=buf,
        seed=seed,
    )


def main(num_envs: int = 8, steps: int = 200, seed: int = 0) -> dict:
    """Play ``steps`` masked random steps on every board; returns what happened."""
    rng = np.random.default_rng(seed)
    vec = pufferlib.vector.make(make_puffer_env, num_envs=num_envs, backend=pufferlib.vector.Serial)
    observation, infos = vec.reset(seed=seed)
    cells = int(vec.single_action_space.n)
    masks = [np.ones(cells, dtype=bool)] * num_envs
    games = wins = 0
    for _ in range(steps):
        masks = [
            np.asarray(info.get("action_mask", mask), dtype=bool)
            if isinstance(info, dict)
            else mask
            for info, mask in zip(infos, masks, strict=True)
        ]
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observation, reward, terminated, truncated, infos = vec.step(actions)
        done = np.asarray(terminated) | np.asarray(truncated)
        games += int(done.sum())
        wins += int((np.asarray(reward)[done] > 0).sum())
    vec.close()
    return {
        "frames": steps * num_envs,
        "games": games,
        "wins": wins,
        "observation_shape": list(np.asarray(observation).shape),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    print(json.dumps(main(options.num_envs, options.steps, options.seed)))
