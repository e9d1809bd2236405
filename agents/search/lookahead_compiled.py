"""Compiled (numba) look-ahead of the search agent: the best two-move survival of a position
(plain, or valued as the depth-2 default values a candidate: :func:`secondary_survival_of`),
and an exact count's covered cells by the rank of their weight (:func:`rank_cells`).

The search agent's depth-3 look-ahead (``agents/search/lookahead.py``) asks,
for every number a candidate could show, how well the player survives the
next two guesses from the position it leaves: for each of that position's
safest cells ``d`` (the caller ranks them exactly), each number ``u`` ``d``
could show weighs the safety of the best guess after it, and the best ``d``
wins. In Python that is one exact count per (``d``, ``u``), five to ten
thousand per expert game; here it is one call per position, on the float
counts of :mod:`minesweep_env.solver.probability.counting_compiled`.

The answer is a float within about 1e-12 of the exact one (each count's log is
within about 1e-13 of the exact log, see :func:`~counting_compiled.weigh_groups_scaled`),
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

from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE
from minesweep_env.solver.probability.counting_compiled import (
    weigh_groups_scaled,
    write_probabilities,
)
from minesweep_env.solver.probability.counting_constants import COUNTED, NO_LAYOUT
from semiautomines_agents.greedy.choice_compiled import _number_range

MAX_ENABLERS = 3
"""``agents/search/potential.py``'s ``MAX_ENABLERS`` (the library does not import agents)."""


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


# --- Depth 3 with the depth-2 default's valuation (JSMinesweeper's) -------------------
#
# The search agent's default values its next guess as JSMinesweeper does
# (``Outcome.secondary_safety``: the safest *living* cell blended 4 to 1 with the
# second) and multiplies a candidate's survival by its potential 50/50 factor
# (``agents/search/potential.py``). :func:`secondary_survival_of` is the middle
# level of a depth-3 look-ahead that keeps both: for each of a trial position's
# next guesses ``d``, its depth-2 survival valued by the secondary safety, times
# its own 50/50 factor, the best ``d`` winning.


@njit(cache=True)
def _secondary_safety(flat, height, width, probs, undecided):
    """``Outcome.secondary_safety`` of a counted position from its cells' mine
    probabilities (``probs``: NaN on cells that are not covered or have none).

    :param undecided: bool scratch of the board's size.
    """
    n = height * width
    anything = False
    for i in range(n):
        p = probs[i]
        undecided[i] = flat[i] == COVERED and (np.isnan(p) or 0.0 < p < 1.0)
        anything = anything or undecided[i]
    if not anything:
        return 1.0  # nothing left to guess
    first = 2.0  # the two lowest probabilities of a living cell
    second = 2.0
    lowest = 2.0  # the lowest of any open cell
    for i in range(n):
        p = probs[i]
        if flat[i] != COVERED or np.isnan(p) or p >= 1.0:
            continue
        lowest = min(lowest, p)
        y, x = i // width, i % width
        living = False
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                if undecided[ny * width + nx] and ny * width + nx != i:
                    living = True
        if not living:
            continue
        if p < first:
            second = first
            first = p
        elif p < second:
            second = p
    if first > 1.0:  # no living cell: the safest of all stands in for both
        if lowest > 1.0:
            return 0.5
        first = lowest
        second = lowest
    best = 1.0 - first
    other = 1.0 - second if second <= 1.0 else 0.0
    return (4.0 * best + other) / 5.0


@njit(cache=True)
def _tally(flat, height, width, total, fixed, n_fixed, safe, n_safe, log_parent, scratch):
    """The share of the position's layouts with ``fixed[:n_fixed]`` mines and
    ``safe[:n_safe]`` safe (``influence.tally_layouts`` over the layouts); NaN when
    the float count cannot answer."""
    saved = np.empty(n_fixed + n_safe, np.int8)
    for k in range(n_fixed):
        saved[k] = flat[fixed[k]]
        flat[fixed[k]] = FLAGGED
    for k in range(n_safe):
        saved[n_fixed + k] = flat[safe[k]]
        flat[safe[k]] = KNOWN_SAFE
    status, _, _, _, _, _, log_w = weigh_groups_scaled(flat, height, width, total, scratch)
    for k in range(n_fixed):
        flat[fixed[k]] = saved[k]
    for k in range(n_safe):
        flat[safe[k]] = saved[n_fixed + k]
    if status == NO_LAYOUT:
        return 0.0
    if status != COUNTED:
        return np.nan
    return math.exp(log_w - log_parent)


@njit(cache=True)
def _hidden(flat, probs, c):
    """``potential``'s hidden cell: covered and not a mine in every layout."""
    return flat[c] == COVERED and probs[c] != 1.0


@njit(cache=True)
def _shape_tally(flat, height, width, total, mines_left, probs, log_parent, scratch,
                 inside, n_mines, outside, n_outside):
    """One shape of ``potential``: ``inside[:n_mines]`` the mines, the rest of
    ``inside`` (``n_mines`` more) the safe half, ``outside[:n_outside]`` the cells that
    would tell the halves apart. -1.0 when the shape cannot become a twin (it counts
    nothing), else its share of the layouts (NaN: the float count cannot answer)."""
    for k in range(2 * n_mines):
        if not _hidden(flat, probs, inside[k]):
            return -1.0
    fixed = np.empty(n_outside + n_mines, np.int64)
    n_fixed = 0
    for k in range(n_outside):
        c = outside[k]
        if flat[c] >= 0 or flat[c] == KNOWN_SAFE:
            return -1.0  # a number beside it will always tell the halves apart
        if _hidden(flat, probs, c):
            fixed[n_fixed] = c
            n_fixed += 1
    if n_fixed > MAX_ENABLERS or n_fixed + n_mines > mines_left:
        return -1.0
    for k in range(n_mines):
        fixed[n_fixed] = inside[k]
        n_fixed += 1
    return _tally(flat, height, width, total, fixed, n_fixed, inside[n_mines:], n_mines,
                  log_parent, scratch)


@njit(cache=True)
def _potential(flat, height, width, total, cell, probs, log_parent, scratch):
    """``potential.potential`` of ``cell`` (no enablers' extra) as a share of the
    position's layouts; NaN when the float count cannot answer."""
    flags = 0
    for i in range(height * width):
        if flat[i] == FLAGGED:
            flags += 1
    mines_left = total - flags
    y, x = cell // width, cell % width
    inside = np.empty(4, np.int64)
    outside = np.empty(6, np.int64)
    pairs = 0.0
    box = 0.0
    for shape in range(8):
        n_outside = 0
        if shape < 4:  # pairs: 0, 1 across (left = x - 1, x), 2, 3 down (top = y - 1, y)
            across = shape < 2
            if across:
                left, top = x - 1 + shape, y
                right, bottom = left + 1, y
            else:
                left, top = x, y - 1 + shape - 2
                right, bottom = x, top + 1
            if left < 0 or top < 0 or right >= width or bottom >= height:
                continue
            inside[0] = top * width + left
            inside[1] = bottom * width + right
            for side in range(2):
                for d in range(-1, 2):
                    if across:
                        cx, cy = (left - 1, left + 2)[side], y + d
                    else:
                        cx, cy = x + d, (top - 1, top + 2)[side]
                    if 0 <= cx < width and 0 <= cy < height:
                        outside[n_outside] = cy * width + cx
                        n_outside += 1
            n_mines = 1
        else:  # 2x2 boxes: left = x - 1, x; top = y - 1, y
            left, top = x - 1 + (shape - 4) // 2, y - 1 + (shape - 4) % 2
            if left < 0 or top < 0 or left + 1 >= width or top + 1 >= height:
                continue
            inside[0] = top * width + left
            inside[1] = (top + 1) * width + left + 1
            inside[2] = top * width + left + 1
            inside[3] = (top + 1) * width + left
            for cx in (left - 1, left + 2):
                for cy in (top - 1, top + 2):
                    if 0 <= cx < width and 0 <= cy < height:
                        outside[n_outside] = cy * width + cx
                        n_outside += 1
            n_mines = 2
        share = _shape_tally(flat, height, width, total, mines_left, probs, log_parent,
                             scratch, inside, n_mines, outside, n_outside)
        if np.isnan(share):
            return np.nan
        if share < 0.0:
            continue
        if shape < 4:
            pairs += share
        else:
            box = max(box, share)
    p = probs[cell]
    return min(pairs + box, p, 1.0 - p)


@njit(cache=True)
def secondary_survival_of(grid, total, cells, safeties, fifty):
    """The best of ``cells`` on ``grid`` as the search agent's depth-2 default values a
    candidate: for each cell, the sum over the numbers it could show of (the layouts
    with it showing that number, over the position's) times the secondary safety
    after it (:func:`_secondary_safety`), times ``1 + fifty * potential / safety``
    (:func:`_potential`, without the whole-board scan's enabler risk). A cell that can
    show one number only (*dead*) is passed over, as the agent ranks it last.

    :param grid: C-contiguous int8 (H, W) view codes; changed during the call and put
        back before it returns.
    :param total: the board's mine total (flags included).
    :param cells: int64, the cells to weigh, safest first.
    :param safeties: float64, each cell's safety: a cell's value is at most
        ``safety + fifty * min(safety, 1 - safety)``, so cells whose bound is no more
        than the best found are skipped.
    :param fifty: the agent's ``fifty`` (0: no factor).
    :returns: the best value; -1.0 when every cell weighed is dead; NaN when the float
        count cannot answer (the exact engine must).
    """
    height, width = grid.shape
    n = height * width
    flat = grid.reshape(n)
    parent = np.empty(n)
    scratch = np.empty(n)
    undecided = np.empty(n, np.bool_)
    status, cells_g, start, off, w_mine, w_free, log_parent = weigh_groups_scaled(
        flat, height, width, total, parent
    )
    if status != COUNTED:
        return np.nan
    write_probabilities(parent, total, cells_g, start, off, w_mine, w_free)
    best = -1.0
    for k in range(len(cells)):
        s = safeties[k]
        if best >= s + fifty * min(s, 1.0 - s):
            break
        cell = cells[k]
        first, last = _number_range(flat, height, width, cell)
        saved = flat[cell]
        value = 0.0
        numbers = 0
        answered = True
        for number in range(first, last + 1):
            flat[cell] = number
            status, g_cells, g_start, g_off, g_mine, g_free, log_w = weigh_groups_scaled(
                flat, height, width, total, scratch
            )
            if status == NO_LAYOUT:
                continue
            if status != COUNTED:
                answered = False
                break
            numbers += 1
            write_probabilities(scratch, total, g_cells, g_start, g_off, g_mine, g_free)
            share = math.exp(log_w - log_parent)
            value += share * _secondary_safety(flat, height, width, scratch, undecided)
        flat[cell] = saved
        if not answered:
            return np.nan
        p = parent[cell]
        if numbers == 1 and p > 0.0:
            continue  # dead: ranked below every living cell
        if fifty and p > 0.0 and value * (1.0 + fifty * min(p, 1.0 - p) / (1.0 - p)) > best:
            tally = _potential(flat, height, width, total, cell, parent, log_parent, scratch)
            if np.isnan(tally):
                return np.nan
            value *= 1.0 + fifty * tally / (1.0 - p)
        best = max(best, value)
    return best


SECONDARY_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.float64, 1, "C"),
    types.float64,
)
"""The one signature the search agent calls :func:`secondary_survival_of` with."""


# --- An exact count's cells by rank ------------------------------------------------------


@njit(cache=True)
def groups_present(flat, groups, safe_group, present):
    """Which groups have a covered cell (``present``, written: per group, then one
    entry for ``safe_group``), as :func:`rank_cells` reads ``groups``."""
    present[:] = False
    for c in range(flat.size):
        if flat[c] != COVERED:
            continue
        g = groups[c]
        if g >= 0:
            present[g] = True
        elif g == safe_group:
            present[len(present) - 1] = True


PRESENT_SIGNATURE = (
    types.Array(types.int8, 1, "C"),
    types.Array(types.int64, 1, "C", readonly=True),
    types.int64,
    types.Array(types.boolean, 1, "C"),
)
"""The one signature the search agent calls :func:`groups_present` with."""


@njit(cache=True)
def rank_cells(
    flat, groups, group_rank, safe_group, low, high, width, cells, ranks, order, living, undecided
):
    """``Outcome``'s covered cells by the rank of their exact weight, in one pass
    (``agents/search/lookahead.py``: ``_ranked`` and ``_guessable`` of a grouped count).

    :param groups: per flat cell its group, ``safe_group`` for a known-safe one (weight
        0), any other negative value for a cell not counted.
    :param group_rank: per group the rank of its weight among the distinct ones; the
        last entry is the rank of 0 (the known-safe cells').
    :param low, high: the ranks of the weights strictly between 0 and the layouts.
    :param cells, ranks: written: the covered counted cells, lowest first, and their ranks.
    :param order, living: written: the indices into ``cells`` of those not a mine in
        every layout (rank below ``high``), safest first then lowest cell, and whether
        each of those touches an undecided covered cell.
    :param undecided: int8 scratch of the board's size.
    :returns: (how many ``cells``, how many ``order``), the second -1 when no covered
        cell is undecided (nothing left to guess).
    """
    size = flat.size
    height = size // width
    count = 0
    top = 0
    anything = False
    for c in range(size):
        undecided[c] = 0
        if flat[c] != COVERED:
            continue
        g = groups[c]
        if g >= 0:
            r = group_rank[g]
        elif g == safe_group:
            r = group_rank[len(group_rank) - 1]
        else:
            continue
        cells[count] = c
        ranks[count] = r
        count += 1
        top = max(top, r)
        if low <= r < high:
            undecided[c] = 1
            anything = True
    if not anything:
        return count, -1
    kept = 0
    for r in range(min(high, top + 1)):  # a counting sort: the ranks are few
        for k in range(count):
            if ranks[k] == r:
                order[kept] = k
                kept += 1
    for j in range(kept):
        c = cells[order[j]]
        y, x = c // width, c % width
        found = False
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                n = ny * width + nx
                if n != c and undecided[n]:
                    found = True
        living[j] = found
    return count, kept


RANK_SIGNATURE = (
    types.Array(types.int8, 1, "C"),
    types.Array(types.int64, 1, "C", readonly=True),
    types.Array(types.int64, 1, "C"),
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.boolean, 1, "C"),
    types.Array(types.int8, 1, "C"),
)
"""The one signature the search agent calls :func:`rank_cells` with."""


def compile_kernels() -> None:
    """Compile :func:`best_survival_of`, :func:`secondary_survival_of`,
    :func:`rank_cells` and :func:`groups_present` for their signatures (the warm-up does)."""
    if SIGNATURE not in best_survival_of.overloads:
        best_survival_of.compile(SIGNATURE)
    if SECONDARY_SIGNATURE not in secondary_survival_of.overloads:
        secondary_survival_of.compile(SECONDARY_SIGNATURE)
    if RANK_SIGNATURE not in rank_cells.overloads:
        rank_cells.compile(RANK_SIGNATURE)
    if PRESENT_SIGNATURE not in groups_present.overloads:
        groups_present.compile(PRESENT_SIGNATURE)
