"""What the env would show an agent of a game the terminal game plays itself.

``watch`` probes the env's game directly (so the auto-solver's rounds can be
animated), never through ``env.step``; the agent still needs the observation
and mask ``SemiAutoMines-v0`` would give. They are computed here as the env
computes them (same encoders, same probability plane), so a watched agent
decides exactly as in an evaluation.
"""

from __future__ import annotations

import numpy as np

from minesweep_env import Game
from minesweep_env.core.cells import COVERED
from minesweep_env.core.first_click import FirstClick
from minesweep_env.core.minefield import GameState
from minesweep_env.envs.observations import (
    encode_grid,
    encode_planes,
    encode_planes_with_probabilities,
)
from minesweep_env.envs.probabilities import ProbabilityPlane


def action_mask(game: Game) -> np.ndarray:
    """``bool`` (W*H,): the covered cells (the env's mask while the game is on)."""
    return game.minefield.view.reshape(-1) == COVERED


class Observer:
    """The env's observation of one game in ``obs_mode``.

    :param game: the game (its rule set may hand out the last count, as in the env).
    """

    def __init__(self, game: Game, obs_mode: str) -> None:
        self.game = game
        self.obs_mode = obs_mode
        self._plane = ProbabilityPlane(game.rule_set.known_weights)

    def __call__(self) -> np.ndarray:
        view = self.game.minefield.view
        if self.obs_mode == "planes":
            return encode_planes(view)
        if self.obs_mode == "grid":
            return encode_grid(view)
        return encode_planes_with_probabilities(view, self._probabilities())

    def _probabilities(self) -> np.ndarray:
        minefield = self.game.minefield
        if self.game.state is GameState.WON:
            return (minefield.view < 0).astype(np.float64)
        if minefield.probes == 0:
            chance = 0.0
            if minefield.first_click is FirstClick.NONE:
                chance = minefield.mine_count / (minefield.width * minefield.height)
            return np.full(minefield.view.shape, chance, dtype=np.float64)
        return self._plane(minefield.board())
