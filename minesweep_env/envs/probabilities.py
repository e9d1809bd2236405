"""The mine-probability plane: the probability engine's answer as a dense grid of floats."""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from ..core.cells import FLAGGED
from ..solver.probability.engine import count_position

_CACHE_LIMIT = 512
"""Component counts kept between steps; cleared when full (the game moves on)."""


class ProbabilityPlane:
    """Exact mine probabilities of positions, with component counts reused between steps.

    Consecutive positions of one game share most frontier components (only
    the part near the last probe changes), so their exact counts are cached.

    :param cache: a dict of component counts to share, e.g. the one of the
        rule set that just counted the same position; ``None`` keeps a private one.
    """

    def __init__(self, cache: dict | None = None) -> None:
        self._cache: dict = {} if cache is None else cache

    def __call__(self, board: Board) -> np.ndarray:
        """float64 (H, W): exact probability on covered cells, 1 on flags, 0 on probed cells.

        ``board.total_mines`` must be known (the env always knows it), so every
        covered cell has a probability.
        """
        if len(self._cache) > _CACHE_LIMIT:
            self._cache.clear()
        weights = count_position(board, cache=self._cache)
        plane = (board.grid == FLAGGED).astype(np.float64)
        flat = plane.reshape(-1)
        layouts = weights.layouts
        for index, weight in weights.mine_weight.items():
            flat[index] = weight / layouts  # exact ints; true division rounds once
        return plane
