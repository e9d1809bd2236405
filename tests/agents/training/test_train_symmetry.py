"""The mirror-consistency measure (``semiautomines_agents.training.symmetry``)."""

from __future__ import annotations

import gymnasium
import numpy as np
import torch as th
from tiny_policy import tiny_cell_policy

import minesweep_env  # noqa: F401  (registers the env)
from semiautomines_agents.training.symmetry import MIRRORS, cell_logits, measure


def _beginner():
    return gymnasium.make("SemiAutoMines-v0", board="beginner", obs_mode="planes+probabilities")


def test_a_mirrored_view_is_mapped_back_to_the_plain_cells() -> None:
    policy = tiny_cell_policy(9, seed=3)
    th.nn.init.normal_(policy.mlp_extractor.actor.weight)
    observation, _ = _beginner().reset(seed=1)
    plain = cell_logits(policy, observation)
    for axes in MIRRORS.values():
        mirrored_board = np.flip(observation, axes).copy()
        assert th.allclose(cell_logits(policy, mirrored_board, axes), plain.flip(axes), atol=1e-6)


def test_the_prior_alone_is_mirror_consistent() -> None:
    """A fresh network's head is zero, so it rates cells by ``-k * p(mine)`` alone: the
    same on every view, even where it breaks ties by board order."""
    result = measure(tiny_cell_policy(9), _beginner, games=4, seed=0)
    assert result.positions > 0
    assert result.shares() == dict.fromkeys(MIRRORS, 1.0)


def test_a_network_with_direction_bound_kernels_is_caught() -> None:
    policy = tiny_cell_policy(9, seed=5, prior_scale=0.0)
    th.nn.init.normal_(policy.mlp_extractor.actor.weight, std=3.0)
    result = measure(policy, _beginner, games=4, seed=0)
    assert min(result.shares().values()) < 1.0
