"""Exact mine probabilities of a position: components counted apart, then combined.

Every layout consistent with the position is taken as equally likely. With the
mine total known, a frontier configuration that uses k mines leaves ``left - k``
for the covered cells no number touches, which can hold them in
C(off, left - k) ways; the components' per-mine-count counts are therefore
convolved with each other and weighted by that binomial. Without the total,
every consistent frontier configuration counts once (the "Mines" probability
tool's convention): components multiply, and cells off the frontier have no
probability (NaN).

Agents need more than that without the total: a probe turns cells off the frontier
into frontier cells, so frontier configurations before and after it do not add up
(a "two-move survival" of 1.3). With ``any_count`` the engine counts, without a
total, every layout of any mine count once (each covered cell a mine or not, as the
numbers allow): the frontier's configurations times 2 ** (cells off the frontier).
Frontier probabilities are the same as the first convention's; a cell off the
frontier is a mine in exactly half the layouts; and the layouts of a probe's
outcomes add up to the layouts where the probed cell is safe, so every survival and
progress chance built on them is a true probability.

Weights are exact Python ints, so callers can test "safe in every layout"
(weight 0) or "a mine in every layout" (weight == layouts) without float error;
C(381, 99) alone would overflow a float.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

import numpy as np

from ... import compiled
from ...core.board import Board, require_board
from ...core.cells import KNOWN_SAFE
from ...errors import InconsistentBoardError
from ..weights import Weights
from .counting import ComponentCount, NoLayoutError, Poly, count_component, multiply, sparse
from .frontier import Frontier, read_frontier

CACHE_LIMIT = 512
"""Component counts a caller keeps between positions of one game (consecutive
positions share most components); callers clear the cache when it grows past this."""


def count_position(
    board: Board,
    total_mines: int | None = None,
    cache: dict | None = None,
    frontier: Frontier | None = None,
    any_count: bool = False,
) -> Weights:
    """Exact layout count and per-cell mine weights of ``board``.

    :param total_mines: overrides ``board.total_mines``; ``None`` uses the board's.
    :param any_count: without a known total, count layouts of any mine count (see
        the module docstring; what agents use) instead of frontier configurations.
    :param cache: optional dict from component keys to their counts, reused
        across calls on positions that share components (the auto-solver's case).
    :param frontier: ``read_frontier(board, total_mines)`` when the caller has it already.
    :raises InconsistentBoardError: when no layout fits.
    """
    if frontier is None:
        frontier = read_frontier(board, total_mines)
    width = board.width
    counts: list[ComponentCount] = []
    for component in frontier.components:
        key = component.key() if cache is not None else None
        result = cache.get(key) if cache is not None else None
        if result is None:
            try:
                result = count_component(component)
            except NoLayoutError as error:
                x, y = error.number % width, error.number // width
                raise InconsistentBoardError(
                    "no placement of mines around it satisfies it and its neighbours", (x, y)
                ) from None
            if cache is not None:
                cache[key] = result
        counts.append(result)
    weights: dict[int, int | None] = {}
    flat = board.grid.reshape(-1)
    for index in np.flatnonzero(flat == KNOWN_SAFE).tolist():
        weights[index] = 0
    sizes = tuple(c.cell_count for c in frontier.components)
    if frontier.mines_left is None:
        layouts = _combine_free(frontier, counts, weights)
        if any_count:
            layouts = _any_count(frontier, weights, layouts)
    else:
        layouts = _combine_with_total(frontier, counts, weights, frontier.mines_left)
    return Weights(layouts, weights, sizes, frontier.mines_left)


def _combine_free(
    frontier: Frontier, counts: list[ComponentCount], weights: dict[int, int | None]
) -> int:
    """No total: configurations of different components combine freely."""
    totals = [sum(c.layouts) for c in counts]
    layouts = 1
    for t in totals:
        layouts *= t
    for component, count, total in zip(frontier.components, counts, totals, strict=True):
        others = layouts // total
        for group, per_mines in zip(component.groups, count.cell_mines, strict=True):
            weight = sum(per_mines) * others
            for cell in group.cells:
                weights[cell] = weight
    for cell in frontier.off_frontier:
        weights[cell] = None
    return layouts


def _any_count(frontier: Frontier, weights: dict[int, int | None], layouts: int) -> int:
    """Frontier configurations (``layouts``, ``weights``) turned into layouts of any
    mine count: each cell off the frontier free, a mine in half of them."""
    off = len(frontier.off_frontier)
    if not off:
        return layouts
    for cell, weight in weights.items():
        if weight is not None:
            weights[cell] = weight << off
    for cell in frontier.off_frontier:
        weights[cell] = layouts << (off - 1)
    return layouts << off


def _combine_with_total(
    frontier: Frontier, counts: list[ComponentCount], weights: dict[int, int | None], left: int
) -> int:
    """With the total (``left`` mines not flagged): convolve components, weight by
    the ways to fill the rest."""
    off = len(frontier.off_frontier)
    most = sum(len(count.layouts) - 1 for count in counts)
    # fill[t]: ways to put the mines the frontier leaves (left - t) off the frontier.
    fill = [comb(off, left - t) if 0 <= left - t <= off else 0 for t in range(most + 1)]
    n = len(counts)
    polys = [sparse(count.layouts) for count in counts]
    prefix: list[Poly] = [{0: 1}]
    for poly in polys:
        prefix.append(multiply(prefix[-1], poly))
    suffix: list[Poly] = [{0: 1}] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = multiply(polys[i], suffix[i + 1])
    everything = prefix[n]
    layouts = sum(w * fill[t] for t, w in everything.items())
    if layouts == 0:
        raise InconsistentBoardError(
            f"{left} unflagged mine(s) left, but the numbers need between {min(everything)} "
            f"and {max(everything)} and {off} other covered cell(s) can take the rest"
        )
    for i, (component, count) in enumerate(zip(frontier.components, counts, strict=True)):
        others = multiply(prefix[i], suffix[i + 1])
        rest = [
            sum(w * fill[m + k] for k, w in others.items()) for m in range(len(count.layouts))
        ]
        for group, per_mines in zip(component.groups, count.cell_mines, strict=True):
            weight = sum(w * r for w, r in zip(per_mines, rest, strict=True) if w)
            for cell in group.cells:
                weights[cell] = weight
    if off:
        # A given off-frontier cell is a mine in C(off - 1, left - t - 1) of the fills.
        weight = sum(
            w * comb(off - 1, left - t - 1)
            for t, w in everything.items()
            if 0 <= left - t - 1 <= off - 1
        )
        for cell in frontier.off_frontier:
            weights[cell] = weight
    return layouts


@dataclass(frozen=True)
class PositionAnalysis:
    """Everything the engine knows about a position.

    :ivar probabilities: float64 (H, W): the mine probability of every covered
        cell; NaN on probed and flagged cells, and on cells off the frontier
        when the total is unknown. Known-safe cells are 0.
    :ivar layouts: the exact number of consistent layouts (with the total: of
        whole-board layouts; without: of frontier configurations).
    :ivar mine_weights: object (H, W) array of Python ints: in how many of those
        layouts the cell holds a mine (``None`` where the probability is NaN).
    :ivar total_mines: the total used (``None`` when unknown).
    :ivar component_sizes: cells in each independent frontier component.
    """

    probabilities: np.ndarray
    layouts: int
    mine_weights: np.ndarray
    total_mines: int | None
    component_sizes: tuple[int, ...]
    _weights: Weights = field(repr=False)

    @property
    def safe_cells(self) -> frozenset[tuple[int, int]]:
        """Covered cells safe in every consistent layout (known-safe cells included), as (x, y)."""
        w = self.probabilities.shape[1]
        return frozenset(
            (i % w, i // w) for i, v in self._weights.mine_weight.items() if v == 0
        )

    @property
    def mine_cells(self) -> frozenset[tuple[int, int]]:
        """Covered cells holding a mine in every consistent layout, as (x, y)."""
        w = self.probabilities.shape[1]
        return frozenset(
            (i % w, i // w)
            for i, v in self._weights.mine_weight.items()
            if v is not None and v == self.layouts
        )

    def probability(self, x: int, y: int) -> Fraction | None:
        """The exact probability of a mine at (x, y), or ``None`` where there is none."""
        weight = self.mine_weights[y, x]
        return None if weight is None else Fraction(weight, self.layouts)


def analyse_position(board: Board, total_mines: int | None = None) -> PositionAnalysis:
    """Exact probabilities, layout count and per-cell mine weights of a position.

    :param total_mines: the board's total mine count (flags included);
        ``None`` uses ``board.total_mines``, which may itself be unknown.
    :raises InconsistentBoardError: when no layout fits, naming a contradicted
        number (or none, when only the mine total is contradicted).
    """
    weights = count_position(board, total_mines)
    h, w = board.grid.shape
    probabilities = np.full(h * w, np.nan)
    mine_weights = np.full(h * w, None, dtype=object)
    for index, weight in weights.mine_weight.items():
        if weight is not None:
            mine_weights[index] = weight
            probabilities[index] = weight / weights.layouts
    total = board.total_mines if total_mines is None else total_mines
    return PositionAnalysis(
        probabilities.reshape(h, w),
        weights.layouts,
        mine_weights.reshape(h, w),
        total,
        weights.component_sizes,
        weights,
    )


def mine_probabilities(board: Board, total_mines: int | None = None) -> np.ndarray:
    """The exact mine probability of every covered cell, as float64 (H, W).

    NaN on probed and flagged cells, and, when the total is unknown, on covered
    cells no number touches. Cells proven safe (``KNOWN_SAFE``) are 0.

    Answered by the compiled float path (:mod:`.engine_compiled`, equal to the
    exact engine's floats within 1e-12) wherever it can once its kernels are
    compiled (:mod:`minesweep_env.compiled` says when); by the exact engine otherwise.

    :param total_mines: overrides ``board.total_mines`` when given.
    :raises InconsistentBoardError: when no layout fits the position.
    :raises TypeError: when ``board`` is not a :class:`~minesweep_env.Board` (a game's
        ``view`` array, say): ``game.board`` is the one to pass.
    """
    require_board(board, "mine_probabilities")
    probabilities = None
    if compiled.ready():
        from .engine_compiled import fast_mine_probabilities

        probabilities = fast_mine_probabilities(board, total_mines)
    if probabilities is None:
        probabilities = analyse_position(board, total_mines).probabilities
    return probabilities


def check_compiled() -> None:
    """The warm-up's check: the compiled path answers as the exact engine does, with and
    without a total (:mod:`.engine_compiled`).

    :raises RuntimeError: on any disagreement.
    """
    from ...core.layout import MineLayout
    from ...core.minefield import Minefield
    from .engine_compiled import fast_mine_probabilities

    rng = np.random.default_rng(7)
    field = Minefield(MineLayout.random(9, 9, 10, rng), first_click="safe", rng=rng)
    field.probe(4, 4)
    board = field.board()
    for total in (board.total_mines, None):
        fast = fast_mine_probabilities(board, total)
        exact = analyse_position(board, total).probabilities
        if fast is None or not np.allclose(fast, exact, rtol=0, atol=1e-12, equal_nan=True):
            raise RuntimeError(f"compiled kernel disagrees with the exact engine: {fast} {exact}")


__all__ = [
    "CACHE_LIMIT",
    "PositionAnalysis",
    "Weights",
    "analyse_position",
    "check_compiled",
    "count_position",
    "mine_probabilities",
]
