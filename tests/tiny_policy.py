"""A small per-cell network for training tests: cheap to build, fit and save."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import torch as th

from semiautomines_agents.policies import CellPolicy


def tiny_cell_policy(side: int, seed: int = 0, **settings) -> CellPolicy:
    """A ``CellPolicy`` for a ``side`` x ``side`` board's 12 planes, 4 channels and one block;
    ``settings`` go to its constructor (``prior_scale=0.0`` for a network without the prior)."""
    th.manual_seed(seed)
    return CellPolicy(
        gym.spaces.Box(0.0, 1.0, (12, side, side), np.float32),
        gym.spaces.Discrete(side * side),
        lambda _: 0.0,
        features_extractor_kwargs={"channels": 4, "blocks": 1},
        value_hidden=8,
        **settings,
    )
