"""Whole layouts drawn exactly in proportion to the engine's weights.

Every layout consistent with a position is equally likely (the engine's
convention), so drawing one is drawing from the engine's count: first how many
mines each component holds, then which groups hold them, then which cells.

- With the mine total known, the components' mine counts ``k_1..k_n`` are drawn
  one component at a time with weight ``layouts_i[k_i]`` times the number of ways
  the later components and the cells off the frontier can take the remaining
  mines; the mines left over go to cells off the frontier uniformly.
- Without the total, layouts of any mine count are counted once each (the
  ``any_count`` convention agents use): components are independent, and every
  cell off the frontier is a mine with probability one half.

Within a component the draw walks the groups in the counting order. A
memoised count of the completions from each group on (a polynomial in the
mines still to place, keyed by the needs still open) gives every choice of
mines in the next group its exact weight, ``C(size, m)`` times the completions.
All weights are Python ints and the draws use :class:`random.Random`'s
``randrange``, which is exact at any size: the sampler has no float error.

Flagged cells are mines and cells proven safe are safe in every draw.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np

from ...core.board import Board
from ...core.cells import FLAGGED
from ...errors import InconsistentBoardError
from .counting import Poly, group_order, multiply
from .frontier import Component, read_frontier


def _pick(weights: list[int], rng: random.Random) -> int:
    """An index drawn with probability ``weights[i] / sum(weights)`` (exactly)."""
    total = sum(weights)
    if total <= 0:
        raise InconsistentBoardError("no layout fits the position")
    draw = rng.randrange(total)
    for index, weight in enumerate(weights):
        if draw < weight:
            return index
        draw -= weight
    raise AssertionError("unreachable: the draw is below the total")


class ComponentSampler:
    """Exact draws of one component's mines, given how many it holds.

    :ivar layouts: the component's layouts by mine count (``{k: count}``), equal
        to :func:`.counting.count_component`'s (the tests check it).
    """

    def __init__(self, component: Component) -> None:
        order = group_order(component)
        self._groups = [component.groups[g] for g in order]
        self._needs = component.needs
        last: dict[int, int] = {}
        for step, group in enumerate(self._groups):
            for constraint in group.constraints:
                last[constraint] = step
        # The constraints still to satisfy before each step (and those that close at it).
        self._alive = [
            tuple(c for c in range(len(self._needs)) if last.get(c, -1) >= step)
            for step in range(len(self._groups) + 1)
        ]
        self._closing = [
            tuple(c for c in group.constraints if last[c] == step)
            for step, group in enumerate(self._groups)
        ]
        self._memo: dict[tuple[int, tuple[int, ...]], Poly] = {}
        start = tuple(self._needs[c] for c in self._alive[0])
        self.layouts = self._completions(0, start)
        if not self.layouts:
            raise InconsistentBoardError("no layout satisfies the numbers")

    def _next(self, step: int, state: tuple[int, ...], mines: int) -> tuple[int, ...] | None:
        """The open needs after putting ``mines`` in group ``step`` (``None``: impossible)."""
        needs = dict(zip(self._alive[step], state, strict=True))
        for constraint in self._groups[step].constraints:
            needs[constraint] -= mines
            if needs[constraint] < 0:
                return None
        if any(needs[c] for c in self._closing[step]):
            return None
        return tuple(needs[c] for c in self._alive[step + 1])

    def _completions(self, step: int, state: tuple[int, ...]) -> Poly:
        """Ways to fill groups ``step..`` from open needs ``state``, by mines used."""
        if step == len(self._groups):
            return {0: 1}
        key = (step, state)
        known = self._memo.get(key)
        if known is not None:
            return known
        out: Poly = {}
        size = len(self._groups[step].cells)
        for mines in range(size + 1):
            after = self._next(step, state, mines)
            if after is None:
                continue
            ways = comb(size, mines)
            for k, count in self._completions(step + 1, after).items():
                out[k + mines] = out.get(k + mines, 0) + ways * count
        self._memo[key] = out
        return out

    def draw(self, mines: int, rng: random.Random) -> list[int]:
        """The cells (flat indices) of one layout with ``mines`` mines, drawn uniformly
        among the component's layouts with that many."""
        state = tuple(self._needs[c] for c in self._alive[0])
        chosen: list[int] = []
        for step, group in enumerate(self._groups):
            size = len(group.cells)
            options: list[tuple[int, tuple[int, ...]]] = []
            weights: list[int] = []
            for put in range(min(size, mines) + 1):
                after = self._next(step, state, put)
                if after is None:
                    continue
                rest = self._completions(step + 1, after).get(mines - put, 0)
                if rest:
                    options.append((put, after))
                    weights.append(comb(size, put) * rest)
            put, state = options[_pick(weights, rng)]
            chosen += rng.sample(group.cells, put)
            mines -= put
        return chosen


class LayoutSampler:
    """Draws whole layouts consistent with ``board``, each as likely as the engine counts it.

    :param total_mines: overrides ``board.total_mines``; ``None`` uses the board's. With
        no total at all, layouts of any mine count are drawn (``any_count``).
    :raises InconsistentBoardError: when no layout fits the position.
    """

    def __init__(self, board: Board, total_mines: int | None = None) -> None:
        frontier = read_frontier(board, total_mines)
        self.shape = board.grid.shape
        self._flags = np.flatnonzero(board.grid.reshape(-1) == FLAGGED).tolist()
        self._off = list(frontier.off_frontier)
        self._left = frontier.mines_left
        self._components = [ComponentSampler(c) for c in frontier.components]
        # after[i]: the components from i on, by mines used (to weigh component i's count).
        after: list[Poly] = [{0: 1}]
        for sampler in reversed(self._components):
            after.append(multiply(sampler.layouts, after[-1]))
        self._after = after[::-1]
        if self._left is not None and not self._fill_weight(0, 0):
            raise InconsistentBoardError(
                f"{self._left} unflagged mine(s) left do not fit the numbers and "
                f"{len(self._off)} other covered cell(s)"
            )

    def _fill_weight(self, component: int, used: int) -> int:
        """Ways for components ``component..`` and the cells off the frontier to take the
        mines left once ``used`` are placed (the total is known)."""
        assert self._left is not None
        off = len(self._off)
        return sum(
            count * comb(off, self._left - used - k)
            for k, count in self._after[component].items()
            if 0 <= self._left - used - k <= off
        )

    def _mine_counts(self, rng: random.Random) -> list[int]:
        """How many mines each component holds in one draw."""
        counts: list[int] = []
        used = 0
        for i, sampler in enumerate(self._components):
            options = sorted(sampler.layouts)
            if self._left is None:
                weights = [sampler.layouts[k] for k in options]
            else:
                weights = [sampler.layouts[k] * self._fill_weight(i + 1, used + k) for k in options]
            k = options[_pick(weights, rng)]
            counts.append(k)
            used += k
        return counts

    def sample_cells(self, rng: random.Random) -> list[int]:
        """One layout's mines as flat indices (flags included)."""
        counts = self._mine_counts(rng)
        mines = list(self._flags)
        for sampler, k in zip(self._components, counts, strict=True):
            mines += sampler.draw(k, rng)
        if self._left is None:
            mines += [cell for cell in self._off if rng.getrandbits(1)]
        else:
            mines += rng.sample(self._off, self._left - sum(counts))
        return mines

    def sample(self, rng: random.Random) -> np.ndarray:
        """One layout as a boolean (H, W) array of mines."""
        mines = np.zeros(self.shape[0] * self.shape[1], dtype=bool)
        mines[self.sample_cells(rng)] = True
        return mines.reshape(self.shape)


def sample_layouts(
    board: Board, count: int, seed: int | None = None, total_mines: int | None = None
) -> list[np.ndarray]:
    """``count`` layouts consistent with ``board`` drawn independently and exactly in
    proportion to the engine's weights (see :class:`LayoutSampler`).

    :param seed: seeds a :class:`random.Random`; the same seed draws the same layouts.
    :raises InconsistentBoardError: when no layout fits the position.
    """
    sampler = LayoutSampler(board, total_mines)
    rng = random.Random(seed)
    return [sampler.sample(rng) for _ in range(count)]


__all__ = ["ComponentSampler", "LayoutSampler", "sample_layouts"]
