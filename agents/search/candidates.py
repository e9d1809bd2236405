"""Which cells are worth a look-ahead: the safest ones, and one far from any number.

The look-ahead costs one engine call per number a cell could show, so it only
looks at a short list: every covered cell whose safety is within a margin of
the best, ranked as the greedy agent ranks ties (lowest probability, then
likeliest zero, then fewest neighbours, then flat index, so the list and the
agent are deterministic). Cells that touch no number all share one
probability and differ only in shape, so one of them stands for all: the best
ranked (a corner, usually).
"""

from __future__ import annotations

import numpy as np

from minesweep_env.core.cells import COVERED, neighbour_sum
from minesweep_env.solver.probability import Weights

from ..greedy import neighbour_counts, zero_chance


def zero_chances(view: np.ndarray, weights: Weights) -> np.ndarray:
    """Per flat cell, :func:`~..greedy.zero_chance` from the exact weights (what
    :func:`rank` orders equally safe cells by)."""
    height, width = view.shape
    probabilities = np.full(width * height, np.nan)
    for index, weight in weights.mine_weight.items():
        if weight is not None:
            probabilities[index] = weight / weights.layouts
    return zero_chance(view, probabilities.reshape(height, width)).reshape(-1)


def rank(
    view: np.ndarray,
    weights: Weights,
    cells: list[int] | np.ndarray,
    zero: np.ndarray | None = None,
) -> list[int]:
    """``cells`` in the greedy order: lowest mine probability (exactly), likeliest
    zero, fewest neighbours, lowest index.

    :param zero: :func:`zero_chances` of the same view and weights, when the caller
        ranks several lists of one position (computed here otherwise)."""
    height, width = view.shape
    if zero is None:
        zero = zero_chances(view, weights)
    neighbours = neighbour_counts(height, width).reshape(-1)
    listed = np.asarray(cells, np.int64).reshape(-1)
    # Integer weights compare exactly, as ranks among the few distinct ones; no
    # probability (no total known) ranks last.
    of_cells = [weights.mine_weight.get(cell) for cell in listed.tolist()]
    distinct = sorted({weight for weight in of_cells if weight is not None})
    rank_of: dict[int | None, int] = {weight: k for k, weight in enumerate(distinct)}
    rank_of[None] = len(distinct)
    by_weight = np.array([rank_of[weight] for weight in of_cells], np.int64)
    # Python's round (correctly rounded), as the zero chances are compared rounded.
    by_zero = np.array([-round(z, 12) for z in zero[listed].tolist()])
    order = np.lexsort((listed, neighbours[listed], by_zero, by_weight))
    return listed[order].tolist()


def off_frontier(view: np.ndarray) -> np.ndarray:
    """Boolean (H, W): covered cells that touch no probed cell."""
    probed = (view >= 0).astype(np.int8)
    return (view == COVERED) & (np.asarray(neighbour_sum(probed)) == 0)


def two_steps(view: np.ndarray) -> np.ndarray:
    """Boolean (H, W): cells off the frontier two steps from a probed cell along a row
    or a column (the cell between them is on the frontier or probed).

    JSMinesweeper looks at exactly these off-frontier cells: their number reaches the
    frontier cell in between, and on our games it gains by guessing them rather than
    a corner (benchmarks/results/search_vs_jsminesweeper.md).
    """
    probed = view >= 0
    near = np.zeros_like(probed)
    near[2:, :] |= probed[:-2, :]
    near[:-2, :] |= probed[2:, :]
    near[:, 2:] |= probed[:, :-2]
    near[:, :-2] |= probed[:, 2:]
    return off_frontier(view) & near


def candidates(
    view: np.ndarray,
    weights: Weights,
    valid: np.ndarray,
    margin: float,
    limit: int,
    offset: int = 0,
    offset_margin: float | None = None,
) -> list[int]:
    """The cells to look ahead from, best ranked first (at most ``limit + offset``).

    :param valid: boolean per flat cell, the probes allowed.
    :param margin: a cell qualifies when its safety is at least ``1 - margin``
        times the best safety.
    :param offset: beyond those, up to this many more off the frontier, the best ranked
        of those two steps from a number (:func:`two_steps`).
    :param offset_margin: those only when their safety is within this margin of the
        best (``None``: ``margin``; JSMinesweeper looks off the frontier only within 0.05).
    """
    layouts = weights.layouts
    mine = weights.mine_weight
    open_cells = [c for c in np.flatnonzero(valid).tolist() if mine.get(c) is not None]
    if not open_cells:  # no total known and no frontier: every valid cell is alike
        return rank(view, weights, np.flatnonzero(valid))[:1]
    best = 1.0 - min(mine[c] or 0 for c in open_cells) / layouts  # type: ignore[operator]
    floor = (1.0 - margin) * best
    # The few distinct weights' safeties, each worked out once (the same floats).
    safety = {w: 1.0 - (w or 0) / layouts for w in {mine[c] for c in open_cells}}
    qualifying = [c for c in open_cells if safety[mine[c]] >= floor - 1e-12]
    outside = off_frontier(view).reshape(-1)
    near = [c for c in qualifying if not outside[c]]
    away = [c for c in qualifying if outside[c]]
    zero = zero_chances(view, weights)
    chosen = rank(view, weights, near, zero)[: limit - 1 if away else limit]
    if away:
        ranked = rank(view, weights, away, zero)
        chosen.append(ranked[0])  # the best ranked cell off the frontier
        own = margin if offset_margin is None else offset_margin
        if offset > 0 and 1.0 - (mine[ranked[0]] or 0) / layouts >= (1.0 - own) * best - 1e-12:
            two = two_steps(view).reshape(-1)
            chosen += [c for c in ranked[1:] if two[c] and c not in chosen][:offset]
    return rank(view, weights, chosen, zero)
