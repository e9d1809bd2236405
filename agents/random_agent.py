"""The floor every other agent must clear: probe a uniformly random valid cell."""

from __future__ import annotations

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Probes a cell drawn uniformly from the valid actions.

    Seeded per game by :meth:`reset`, so an evaluation replays exactly.
    """

    name = "random"
    deterministic = False

    def __init__(self, seed: int | None = None):
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, game=None) -> int:
        valid = np.flatnonzero(action_mask)
        if valid.size == 0:
            raise ValueError("no valid action: the game is over")
        return int(valid[self._rng.integers(valid.size)])
