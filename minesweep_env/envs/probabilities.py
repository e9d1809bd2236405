"""The mine-probability plane: the probability engine's answer as a dense grid of floats."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.board import Board
from ..core.cells import FLAGGED
from ..solver.probability.engine import CACHE_LIMIT, Weights, count_position

KnownWeights = Callable[[Board], Weights | None]
"""Exact weights of a position already counted elsewhere, or ``None``."""

KnownProbabilities = Callable[[Board], np.ndarray | None]
"""Float probabilities of a position already computed elsewhere, or ``None``."""


class ProbabilityPlane:
    """Exact mine probabilities of positions, counting as little as possible.

    The auto-solver's last call on a position ends with a full count when the
    rule set is ``complete``, and that rule set hands the result out
    (``RuleSet.known_weights``): the env's position is exactly that one, so
    nothing is counted twice. Otherwise the engine counts, and since consecutive
    positions of one game share most frontier components (only the part near
    the last probe changes), their exact counts are cached.

    :param known_weights: a rule set's ``known_weights``.
    :param known_probabilities: a rule set's ``known_probabilities``: one cell's
        probability (:meth:`probability`) is read from it when it has the position.
    """

    def __init__(
        self,
        known_weights: KnownWeights | None = None,
        known_probabilities: KnownProbabilities | None = None,
    ) -> None:
        self._known_weights = known_weights
        self._known_probabilities = known_probabilities
        self._cache: dict = {}

    def probability(self, board: Board, index: int) -> float:
        """The mine probability of covered cell ``index`` (flat) of ``board``.

        The rule set's float probabilities when it computed them for this very
        position (the compiled ``complete`` path: within 1e-12 of the exact
        value), else the exact weights divided, as the plane divides them.
        ``board.total_mines`` must be known.
        """
        known = self._known_probabilities
        plane = known(board) if known is not None else None
        if plane is not None:
            return float(plane.flat[index])
        weights = self.weights(board)
        # As the plane: a covered cell off the weights is 0 (never met: all are listed).
        weight = weights.mine_weight.get(index, 0)
        if weight is None:  # only cells off the frontier, only without the total
            raise ValueError("a cell's probability needs the board's mine total")
        return weight / weights.layouts

    def weights(self, board: Board) -> Weights:
        """The exact weights of ``board``: handed out by the rule set, or counted."""
        weights = self._known_weights(board) if self._known_weights is not None else None
        if weights is None:
            if len(self._cache) > CACHE_LIMIT:
                self._cache.clear()
            weights = count_position(board, cache=self._cache)
        return weights

    def __call__(self, board: Board) -> np.ndarray:
        """float64 (H, W): exact probability on covered cells, 1 on flags, 0 on probed cells.

        ``board.total_mines`` must be known (the env always knows it), so every
        covered cell has a probability.
        """
        weights = self.weights(board)
        plane = (board.grid == FLAGGED).astype(np.float64)
        flat = plane.reshape(-1)
        layouts = weights.layouts
        # Cells of one group share a weight, and dividing exact ints of a hundred
        # digits is the slow part: divide each distinct weight once (it rounds once).
        ratio: dict[int, float] = {}
        for index, weight in weights.mine_weight.items():
            if weight is None:  # only cells off the frontier, only without the total
                raise ValueError("the probability plane needs the board's mine total")
            probability = ratio.get(weight)
            if probability is None:
                probability = ratio[weight] = weight / layouts
            flat[index] = probability
        return plane
