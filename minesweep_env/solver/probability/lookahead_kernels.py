"""Compiled (numba) look-ahead of the search agent: the best two-move survival of a position.

The search agent's depth-3 look-ahead (``agents/search/lookahead.py``) asks,
for every number a candidate could show, how well the player survives the
next two guesses from the position it leaves: for each of that position's
safest cells ``d`` (the caller ranks them exactly), each number ``u`` ``d``
could show weighs the safety of the best guess after it, and the best ``d``
wins. In Python that is one exact count per (``d``, ``u``), five to ten
thousand per expert game; here it is one call per position, on the float
counts of :mod:`.kernels`.

The answer is a float within about 1e-12 of the exact one (each count's log is
within about 1e-13 of the exact log, see :func:`~.kernels.weigh_groups_scaled`),
and a progress verdict is exact (a weight that is 0 exactly is 0.0 and only
then). The caller decides on exact counts where two candidates come that close.

The value of one trial position (``d`` showing ``u``) is the exact engine's
``Outcome.best_safety``: 1.0 when some covered cell is safe in every layout or
nothing is left to guess (the auto-solver moves on), else one minus the lowest
mine probability of a covered cell that is not a mine in every layout.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from ...core.cells import KNOWN_SAFE
from .choice_kernels import _number_range
from .kernels import COUNTED, NO_LAYOUT, weigh_groups_scaled


@njit(cache=True)
def _best_safety(flat, total, start, off, w_mine, w_free):
    """``Outcome.best_safety`` of a counted position, from its groups' weights."""
    groups = len(start) - 1
    lowest = 2.0
    undecided = False
    for g in range(groups + 1):
        if g == groups and (total < 0 or len(off) == 0):
            break
        a = w_mine[g]
        b = w_free[g]
        if a == 0.0:
            return 1.0  # a covered cell safe in every layout: progress
        if b != 0.0:
            undecided = True
            lowest = min(lowest, a / (a + b))
    if not undecided:
        return 1.0  # every covered cell a mine: nothing left to guess
    for i in range(len(flat)):
        if flat[i] == KNOWN_SAFE:
            return 1.0  # the exact engine weighs a known-safe cell 0 too
    return 1.0 - lowest


@njit(cache=True)
def best_survival_of(grid, total, cells, safeties):
    """The best two-move survival among ``cells`` on ``grid``: for each cell, the sum
    over the numbers it could show of (the layouts with it showing that number, over
    the position's layouts) times the best safety after it; the largest of those.

    :param grid: C-contiguous int8 (H, W) view codes; changed during the call and put
        back before it returns.
    :param total: the board's mine total (flags included); the counts need it.
    :param cells: int64, the cells to weigh, safest first.
    :param safeties: float64, each cell's safety: a cell's survival is at most its
        safety, so cells no safer than the best survival found are skipped.
    :returns: the best survival (0.0 when no cell has a layout), NaN when the float
        count cannot answer (the exact engine must).
    """
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    status, _, _, _, _, _, log_parent = weigh_groups_scaled(flat, height, width, total, scratch)
    if status != COUNTED:
        return np.nan
    best = -1.0
    for k in range(len(cells)):
        if best >= safeties[k]:
            break
        cell = cells[k]
        first, last = _number_range(flat, height, width, cell)
        saved = flat[cell]
        value = 0.0
        answered = True
        for number in range(first, last + 1):
            flat[cell] = number
            status, _, start, off, w_mine, w_free, log_w = weigh_groups_scaled(
                flat, height, width, total, scratch
            )
            if status == NO_LAYOUT:
                continue
            if status != COUNTED:
                answered = False
                break
            share = math.exp(log_w - log_parent)
            value += share * _best_safety(flat, total, start, off, w_mine, w_free)
        flat[cell] = saved
        if not answered:
            return np.nan
        best = max(best, value)
    return max(best, 0.0)


SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.float64, 1, "C"),
)
"""The one signature the search agent calls :func:`best_survival_of` with."""


def compile_kernels() -> None:
    """Compile :func:`best_survival_of` for :data:`SIGNATURE` (the warm-up does)."""
    if SIGNATURE not in best_survival_of.overloads:
        best_survival_of.compile(SIGNATURE)
