"""RLlib's PPO on SemiAutoMines: ``register_env`` and a few training iterations.

RLlib makes its envs by name in its env-runner processes, so the env is
registered as a creator function (``register_env``). The creator flattens the
observation planes and casts them to float32 so RLlib's default MLP encoder
takes them; for a convolutional policy keep the planes and configure the
module's ``conv_filters`` instead. This recipe does not mask invalid cells: an
invalid action is rewarded ``invalid_action_reward`` and changes nothing (see
the env's Rewards), which PPO learns to avoid; masking needs a custom RLModule
that reads ``info["action_mask"]``.

    pip install 'ray[rllib]'
    python examples/rllib_ppo.py --iterations 3
"""

from __future__ import annotations

import argparse
import json

import gymnasium as gym
import numpy as np

ENV_NAME = "semiautomines"
"""The name RLlib knows the env by."""


def make_env(config: dict) -> gym.Env:
    """RLlib's env creator: ``config`` is the ``env_config`` (``board``, ``obs_mode``)."""
    import minesweep_env  # noqa: F401  (registers SemiAutoMines-v0 in each env runner)

    env = gym.make(
        "SemiAutoMines-v0",
        board=config.get("board", "beginner"),
        obs_mode=config.get("obs_mode", "planes"),
    )
    return gym.wrappers.DtypeObservation(gym.wrappers.FlattenObservation(env), np.float32)


def main(iterations: int = 2, batch: int = 128, seed: int = 0) -> dict:
    """Run ``iterations`` PPO iterations of ``batch`` env steps on a local Ray of one CPU."""
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, object_store_memory=256 * 1024 * 1024)
    config = (
        PPOConfig()
        .environment(ENV_NAME, env_config={"board": "beginner"})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .training(train_batch_size_per_learner=batch, minibatch_size=batch // 2, num_epochs=1)
        .rl_module(model_config={"fcnet_hiddens": [64]})
        .debugging(seed=seed)
    )
    algo = config.build_algo()
    history = []
    for _ in range(iterations):
        result = algo.train()
        runners = result["env_runners"]
        history.append(
            {
                "env_steps": int(result["num_env_steps_sampled_lifetime"]),
                "episodes": int(runners.get("num_episodes", 0)),
                "episode_return_mean": float(runners.get("episode_return_mean", float("nan"))),
            }
        )
    algo.stop()
    if started:
        ray.shutdown()
    return {"iterations": history}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    print(json.dumps(main(options.iterations, options.batch, options.seed)))
