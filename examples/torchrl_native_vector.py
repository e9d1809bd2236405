"""TorchRL on SemiAutoMines' native vector env: a few collection steps.

``torchrl.envs.GymEnv("SemiAutoMines-v0", num_envs=N)`` would build Gymnasium's
async vector env (one process per board); wrapping ``gymnasium.make_vec`` keeps
the native batched env, every board in one process. Two details make it fit
TorchRL's ``GymWrapper``:

- TorchRL wants ``SAME_STEP`` autoreset (a finished board restarts in the step
  that finished it); the env's default is ``NEXT_STEP``.
- The action mask travels in ``info["action_mask"]``; :class:`MaskOnlyInfo` keeps
  that key (and the final observation) and an info reader with its spec puts it
  in the tensordict, where a masked policy reads it. The env's other info values
  (``map``, ``start``: ``None`` on a standard board) have no tensor form.

    python examples/torchrl_native_vector.py --num-envs 8 --steps 100
"""

from __future__ import annotations

import argparse
import json

import gymnasium as gym
import torch
from gymnasium.vector import AutoresetMode, VectorWrapper
from tensordict import TensorDictBase
from torchrl.data import Binary
from torchrl.envs import GymWrapper
from torchrl.envs.gym_like import default_info_dict_reader

import minesweep_env  # noqa: F401  (registers SemiAutoMines-v0)

KEPT_INFO = ("action_mask", "final_obs")
"""The info keys handed to TorchRL (with their ``_key`` masks)."""


class MaskOnlyInfo(VectorWrapper):
    """The vector env with its info cut to :data:`KEPT_INFO`."""

    @property
    def autoreset_mode(self) -> AutoresetMode:
        return self.env.autoreset_mode  # TorchRL checks it on the outermost env

    def _kept(self, info: dict) -> dict:
        return {key: value for key, value in info.items() if key.lstrip("_") in KEPT_INFO}

    def reset(self, **kwargs):
        observation, info = self.env.reset(**kwargs)
        return observation, self._kept(info)

    def step(self, actions):
        observation, reward, terminated, truncated, info = self.env.step(actions)
        return observation, reward, terminated, truncated, self._kept(info)


def make_env(num_envs: int, board: str = "beginner", obs_mode: str = "planes") -> GymWrapper:
    """``num_envs`` boards as one TorchRL env, ``action_mask`` in its tensordicts."""
    vec = gym.make_vec(
        "SemiAutoMines-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        board=board,
        obs_mode=obs_mode,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    cells = int(vec.single_action_space.n)
    env = GymWrapper(MaskOnlyInfo(vec), categorical_action_encoding=True)
    spec = {"action_mask": Binary(n=cells, shape=(num_envs, cells), dtype=torch.bool)}
    env.set_info_dict_reader(default_info_dict_reader(["action_mask"], spec=spec))
    return env


def masked_random_policy(tensordict: TensorDictBase) -> TensorDictBase:
    """A uniformly random valid cell: where a learned policy's masked logits would go."""
    mask = tensordict["action_mask"].bool()
    logits = torch.where(mask, torch.zeros(mask.shape), torch.full(mask.shape, -1e8))
    tensordict["action"] = torch.distributions.Categorical(logits=logits).sample()
    return tensordict


def main(num_envs: int = 8, steps: int = 100, seed: int = 0) -> dict:
    """Collect ``steps`` steps of every board; returns what was collected."""
    torch.manual_seed(seed)
    env = make_env(num_envs)
    env.set_seed(seed)
    rollout = env.rollout(steps, masked_random_policy, break_when_any_done=False)
    done = rollout["next", "done"]
    rewards = rollout["next", "reward"][done]
    result = {
        "frames": int(rollout.numel()),
        "games": int(done.sum()),
        "wins": int((rewards > 0).sum()),
        "invalid_actions": int(
            (~rollout["action_mask"].gather(-1, rollout["action"].unsqueeze(-1))).sum()
        ),
    }
    env.close()
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    print(json.dumps(main(options.num_envs, options.steps, options.seed)))
