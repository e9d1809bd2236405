"""Observation encoders: the player's view as arrays a policy network reads.

Every encoder takes the view (``int8`` codes of :mod:`minesweep_env.core.cells`,
shaped (H, W)) and returns a fresh array, so an agent or a rollout buffer may
keep it. Encoding is one vectorised comparison per step; the probability plane
is the only costly part and is computed only in the mode that shows it.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..core.cells import COVERED, FLAGGED

OBS_MODES = ("planes", "grid", "planes+probabilities")
"""The ``obs_mode`` names the env accepts."""

PLANE_CODES = np.array([COVERED, FLAGGED, 0, 1, 2, 3, 4, 5, 6, 7, 8], dtype=np.int8)
"""The view code each one-hot plane marks: plane 0 covered, 1 flagged, 2 + n number n."""
PLANE_NAMES = ("covered", "flagged") + tuple(f"number {n}" for n in range(9))
PROBABILITY_PLANE = len(PLANE_CODES)
"""Index of the mine-probability plane in ``planes+probabilities`` mode."""

_CODES_COLUMN = PLANE_CODES[:, None, None]


def observation_space(obs_mode: str, width: int, height: int) -> spaces.Box:
    """The Box an ``obs_mode`` observation lives in."""
    planes = len(PLANE_CODES)
    if obs_mode == "planes":
        return spaces.Box(0, 1, (planes, height, width), np.uint8)
    if obs_mode == "grid":
        return spaces.Box(FLAGGED, 8, (height, width), np.int8)
    if obs_mode == "planes+probabilities":
        return spaces.Box(0.0, 1.0, (planes + 1, height, width), np.float32)
    raise ValueError(f"unknown obs_mode {obs_mode!r}; known: {', '.join(OBS_MODES)}")


def encode_planes(view: np.ndarray) -> np.ndarray:
    """One-hot ``uint8`` planes (11, H, W): covered, flagged, number 0..8.

    The reference of the compiled ``observations_compiled.encode_view_into``."""
    return np.equal(view, _CODES_COLUMN).view(np.uint8)


def encode_grid(view: np.ndarray) -> np.ndarray:
    """The view itself as ``int8`` (H, W): -1 covered, -2 flagged, 0..8 numbers."""
    return view.copy()


def encode_planes_with_probabilities(view: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """``float32`` (12, H, W): the 11 one-hot planes, then the mine probability plane.

    :param probabilities: (H, W) mine probability of every cell: exact for
        covered cells, 1 on flags (proven mines), 0 on probed cells.
    """
    height, width = view.shape
    out = np.empty((PROBABILITY_PLANE + 1, height, width), dtype=np.float32)
    np.equal(view, _CODES_COLUMN, out=out[:PROBABILITY_PLANE], casting="unsafe")
    out[PROBABILITY_PLANE] = probabilities
    return out
