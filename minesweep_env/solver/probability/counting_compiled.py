"""Compiled (numba) kernels of the float fast path: a position in, mine probabilities out.

Three modules: :mod:`.counting_groups_compiled` does steps 1-3 below,
:mod:`.counting_passes_compiled` step 4, and this one step 5 and the entry points
(their shared codes and limits are in :mod:`.counting_constants`).

The same counting problem as the exact engine (:mod:`.frontier`, :mod:`.counting`,
:mod:`.engine`), solved in one compiled call with machine numbers:

1. every number still touching a covered cell becomes a constraint;
2. covered cells touching exactly the same constraints form a group, found by
   sorting a key that names that set of constraints;
3. constraints sharing a group are joined (union-find) into components;
4. each component is counted by a forward and a backward pass over its groups
   in breadth-first order, a state being the remaining needs of the open
   constraints packed 4 bits each into an int64, and a count being a float64
   polynomial in the mines used;
5. the components are convolved and weighted by C(off, left - t), taken as a
   ratio to its largest value in range so nothing overflows.

Every count is a sum of products of positive numbers, so float64 keeps a
relative error of a few units in 1e-15 and a count that is 0 exactly stays 0.
A cell's probability is ``w1 / (w1 + w0)``, with w1 the weight of the layouts
that put a mine on it and w0 of those that do not: a cell safe (mine) in every
layout comes out as 0.0 (1.0) exactly, as in the exact engine.

The exact engine is the reference:
``tests/minesweep_env/solver/probability/test_probability_compiled.py`` holds the two
equal (and both to a brute-force enumeration on small positions), and
``tests/minesweep_env/solver/probability/test_probability.py`` states what the exact engine must
answer.

The kernel answers :data:`DEFER` instead of a result whenever the exact engine
must answer: the position is inconsistent (the exact engine then raises with
its message), a component's order keeps more than :data:`MAX_OPEN` constraints
open, or a count left the float range.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .counting_constants import (
    BEYOND,
    COUNTED,
    DEFER,
    NO_LAYOUT,
    OK,
    TIE_TOLERANCE,
)
from .counting_groups_compiled import _read_constraints, _signature_keys, set_up_groups
from .counting_passes_compiled import _add_product, _count_component


@njit(cache=True)
def _fill_ratios(off, left, t_low, t_high):
    """C(off, left - t) / C(off, r*) for t in t_low..t_high, with r* the largest
    binomial in range (so every ratio is at most 1 and none overflows)."""
    fill = np.zeros(t_high - t_low + 1)
    r_low = max(left - t_high, 0)
    r_high = min(left - t_low, off)
    if r_low > r_high:
        return fill
    peak = min(max(off // 2, r_low), r_high)
    value = 1.0
    fill[left - peak - t_low] = 1.0
    for r in range(peak, r_high):
        value *= (off - r) / (r + 1.0)
        fill[left - r - 1 - t_low] = value
    value = 1.0
    for r in range(peak, r_low, -1):
        value *= r / (off - r + 1.0)
        fill[left - r + 1 - t_low] = value
    return fill


@njit(cache=True)
def _combine_with_total(layouts, low, high, mine, free, group_start, order, off, left, w_mine,
                        w_free):
    """Group weights with the total known, of the layouts with (``w_mine``) and without
    (``w_free``) a mine on one cell of each group, the off-frontier cells' at the end;
    returns the layouts in the same units (0.0 when the weights are unusable)."""
    components = len(low)
    t_low = 0
    t_high = 0
    widths = np.empty(components, np.int64)
    for c in range(components):
        t_low += low[c]
        t_high += high[c]
        widths[c] = high[c] - low[c]
    spread = t_high - t_low
    fill = _fill_ratios(off, left, t_low, t_high)
    # prefix[c]: product of components before c; suffix[c]: of c and after; both on
    # mine counts relative to the sum of the lows involved.
    prefix = np.zeros((components + 1, spread + 1))
    suffix = np.zeros((components + 1, spread + 1))
    prefix[0, 0] = 1.0
    suffix[components, 0] = 1.0
    reach = 0
    for c in range(components):
        _add_product(prefix[c + 1], prefix[c], 0, reach, layouts[c, low[c]:], 0, widths[c])
        reach += widths[c]
    reach = 0
    for c in range(components - 1, -1, -1):
        _add_product(suffix[c], suffix[c + 1], 0, reach, layouts[c, low[c]:], 0, widths[c])
        reach += widths[c]
    everything = prefix[components]
    total = 0.0
    w1 = 0.0
    w0 = 0.0
    for k in range(spread + 1):
        weight = everything[k] * fill[k]
        total += weight
        if off > 0:
            mines_off = left - t_low - k
            w1 += weight * mines_off
            w0 += weight * (off - mines_off)
    if not total > 0.0 or not np.isfinite(total):
        return 0.0
    others = np.zeros(spread + 1)
    rest = np.zeros(spread + 1)
    before = 0
    for c in range(components):
        after = spread - before - widths[c]
        others[: spread + 1] = 0.0
        _add_product(others, prefix[c], 0, before, suffix[c + 1], 0, after)
        for m in range(widths[c] + 1):
            value = 0.0
            for k in range(spread - widths[c] + 1):
                value += others[k] * fill[m + k]
            rest[m] = value
        for f in range(group_start[c], group_start[c + 1]):
            g = order[f]
            a = 0.0
            b = 0.0
            for m in range(widths[c] + 1):
                a += mine[g, low[c] + m] * rest[m]
                b += free[g, low[c] + m] * rest[m]
            if not a + b > 0.0:
                return 0.0
            w_mine[g] = a
            w_free[g] = b
        before += widths[c]
    w_mine[len(w_mine) - 1] = w1
    w_free[len(w_free) - 1] = w0
    return total


@njit(cache=True)
def _merge_ties(values, count):
    """Probabilities within :data:`TIE_TOLERANCE` (relative) of each other become one
    float (the smallest of them), in place.

    Float sums taken in different orders can split probabilities that are equal
    exactly by a unit in the last place; callers that break ties by ``==`` (the
    lowest-probability guess) must see them equal, as the exact engine's
    correctly rounded floats are. 0.0 and 1.0 are exact here and never merged.
    """
    # Insertion sort of the values strictly between 0 and 1: a few hundred at most.
    order = np.empty(count, np.int64)
    size = 0
    for k in range(count):
        v = values[k]
        if not (0.0 < v < 1.0):
            continue
        j = size
        while j > 0 and values[order[j - 1]] > v:
            order[j] = order[j - 1]
            j -= 1
        order[j] = k
        size += 1
    anchor = -1.0
    for k in range(size):
        v = values[order[k]]
        if anchor > 0.0 and v - anchor <= TIE_TOLERANCE * anchor:
            values[order[k]] = anchor
        else:
            anchor = v


@njit(cache=True)
def weigh_groups(flat, height, width, total, result):
    """The counting part of :func:`mine_probabilities_into`: per group of interchangeable
    cells the float weights of the layouts with and without a mine on one of its cells.

    :param result: float64 flat (H * W): NaN written on every cell, 0 on known-safe ones.
    :returns: (ok, cells, start, off, w_mine, w_free): the frontier cells with group
        ``g`` at ``cells[start[g]:start[g + 1]]``, the off-frontier cells, and the weights
        (entry ``len(start) - 1`` is the off-frontier cells', set only when ``total >= 0``
        and there are any). ``ok`` is False when the exact engine must answer.
    """
    status, cells, start, off, w_mine, w_free, _ = weigh_groups_scaled(
        flat, height, width, total, result
    )
    return status == COUNTED, cells, start, off, w_mine, w_free


@njit(cache=True)
def _log_choose(n, k):
    """ln C(n, k)."""
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True)
def weigh_groups_scaled(flat, height, width, total, result):
    """:func:`weigh_groups`, and the natural log of the position's number of layouts.

    The weights come in units scaled per position (each component by its largest
    count, the fill by its largest binomial); the log undoes the scaling, so counts
    of different positions compare (the chance of progress weighs positions that
    differ by one number). It is within about 1e-12 of the exact log: the scale's
    binomial is taken through ``lgamma``.

    :returns: :func:`weigh_groups`' tuple, with a status (:data:`COUNTED`,
        :data:`NO_LAYOUT` or :data:`BEYOND`) for ``ok``, and the log (``-inf`` unless
        counted).
    """
    return weigh_counted(total, count_groups(flat, height, width, total, result))


@njit(cache=True)
def weigh_counted(total, counted):
    """:func:`weigh_groups_scaled` from the counts ``counted`` (:func:`count_groups`' tuple)."""
    status, cells, start, off, order, group_start, layouts, low, high, mine, free, left, scale = (
        counted
    )
    group_count = len(start) - 1 if len(start) else 0
    w_mine = np.zeros(group_count + 1)
    w_free = np.zeros(group_count + 1)
    if status != COUNTED:
        return status, cells, start, off, w_mine, w_free, -np.inf
    status, log_layouts = combine_groups(
        total, len(off), left, order, group_start, layouts, low, high, mine, free, w_mine,
        w_free, scale,
    )
    return status, cells, start, off, w_mine, w_free, log_layouts


@njit(cache=True)
def count_groups(flat, height, width, total, result):
    """The reading and counting half of :func:`weigh_groups_scaled`: every component
    counted, each scaled by its largest count.

    :returns: (status, cells, start, off, order, group_start, layouts, low, high, mine,
        free, left, log of the scales): the groups as :func:`weigh_groups` gives them,
        the components' groups (``order[group_start[c]:group_start[c + 1]]``), their
        scaled counts by mine count (nonzero from ``low`` to ``high``), the groups'
        with and without a mine on a given cell, and the mines not flagged.
    """
    return count_read(flat, height, width, total, _read_constraints(flat, height, width, result))


@njit(cache=True)
def count_read(flat, height, width, total, read):
    """:func:`count_groups` on constraints already read: ``read`` is what
    :func:`_read_constraints` returns (a caller that keeps them up to date passes its own)."""
    ready, status, cells, start, off, order, group_start, left, setup = _set_up_read(
        flat, height, width, total, read
    )
    if not ready:
        return _not_counted(status, cells)
    status, layouts, low, high, mine, free, scale = count_components(order, group_start, setup)
    return (status, cells, start, off, order, group_start, layouts, low, high, mine, free, left,
            scale)


@njit(cache=True)
def count_components(order, group_start, setup):
    """The counting half of :func:`count_read`: every component of a set-up position
    (``setup`` as :func:`_set_up` gives it) counted, each scaled by its largest count.

    :returns: (status, layouts, low, high, mine, free, log of the scales), as
        :func:`count_groups` names them.
    """
    sizes, touches, touch_count, needs, by_start, by_members, scratch, most, _ = setup
    components = len(group_start) - 1
    group_count = len(sizes)
    span, layouts, mine, free, low, high = count_buffers(components, group_count, most)
    scale = 0.0
    for c in range(components):
        members = order[group_start[c] : group_start[c + 1]]
        # Each component's own polynomials are only as long as it has cells: a small
        # one next to a large one counts in small arrays (the same sums, so the same floats).
        counted = _count_component(
            members, sizes, touches, touch_count, needs, by_start, by_members, scratch,
            most[c], layouts[c], mine, free,
        )
        if counted != COUNTED:
            return counted, layouts, low, high, mine, free, scale
        counted, log_scale = scale_component(c, members, layouts, mine, free, low, high, span)
        if counted != COUNTED:
            return counted, layouts, low, high, mine, free, scale
        scale += log_scale
    return COUNTED, layouts, low, high, mine, free, scale


@njit(cache=True)
def scale_component(c, members, layouts, mine, free, low, high, span):
    """Divide component ``c``'s counts (its layouts, its groups' mine and free
    counts) by its largest layout count, its span of mine counts into
    ``low[c]``/``high[c]``; (status, log of the divisor).

    One scale per component keeps the products of many components in range.
    Loops, not array expressions: those compile far slower (shape checks).
    """
    largest = nonzero_span(layouts[c], span, low, high, c)
    if high[c] < 0 or not np.isfinite(largest):
        return BEYOND, 0.0
    for k in range(span):
        layouts[c, k] /= largest
    for g in members:
        for k in range(span):
            mine[g, k] /= largest
            free[g, k] /= largest
            if not (np.isfinite(mine[g, k]) and np.isfinite(free[g, k])):
                return BEYOND, 0.0
    return COUNTED, math.log(largest)


@njit(cache=True)
def nonzero_span(row, span, low, high, c):
    """Store in ``low[c]``/``high[c]`` the first and last mine count with a layout
    in ``row`` (high -1 when none has one) and return the largest layout count, so
    the combine step skips the empty ends and a caller sees an overflow."""
    low[c] = span
    high[c] = -1
    largest = 0.0
    for k in range(span):
        if row[k] != 0.0:
            low[c] = min(low[c], k)
            high[c] = k
            largest = max(largest, row[k])
    return largest


@njit(cache=True)
def layouts_span(most):
    """Terms of the components' polynomials: one more than the most mines any of them
    holds (at least 1)."""
    span = 1
    for c in range(len(most)):
        span = max(span, most[c] + 1)
    return span


@njit(cache=True, inline="always")
def count_buffers(components, group_count, most):
    """The arrays a count of ``components`` components over ``group_count`` groups fills,
    with their span of mine counts: (span, layouts, mine, free, low, high), as
    :func:`count_groups` names them. One place for their shapes: four counts (here, the
    tracked kernel's and two of the greedy kernel's) fill them."""
    span = layouts_span(most)
    layouts = np.zeros((components, span))
    mine = np.zeros((group_count, span))
    free = np.zeros((group_count, span))
    low = np.empty(components, np.int64)
    high = np.empty(components, np.int64)
    return span, layouts, mine, free, low, high


@njit(cache=True)
def _set_up(flat, height, width, total, result):
    """What counting the components of a position needs, read from the board (the
    reading half of :func:`count_groups`).

    :returns: (ready, status, cells, start, off, order, group_start, left, (sizes,
        touches, touch_count, needs, by_start, by_members, scratch, most, constraint_at));
        when ``ready`` is False no layout fits (``status``) and the arrays are empty.
    """
    return _set_up_read(flat, height, width, total, _read_constraints(flat, height, width, result))


@njit(cache=True)
def _set_up_read(flat, height, width, total, read):
    """:func:`_set_up` on constraints already read (``read``: :func:`_read_constraints`' tuple)."""
    empty = np.empty(0, np.int64)
    ok, constraint_at, needs, constraint_count, flags = read
    left = total - flags
    if not ok or (total >= 0 and left < 0):
        nothing = (empty, np.empty((0, 8), np.int64), empty, empty, empty, empty,
                   (empty, empty, empty, empty), empty, empty)
        return False, NO_LAYOUT, empty, empty, empty, empty, empty, left, nothing
    cells, keys, off = _signature_keys(flat, height, width, constraint_at)
    cells, start, order, group_start, setup = set_up_groups(
        cells, keys, height, width, constraint_at, needs, constraint_count
    )
    return True, COUNTED, cells, start, off, order, group_start, left, setup


@njit(cache=True)
def _not_counted(status, empty):
    """:func:`count_groups`' answer when it stops before any group is read."""
    nothing = np.empty((0, 0))
    return (
        status, empty, empty, empty, empty, empty, nothing, empty, empty, nothing, nothing, 0, 0.0
    )


@njit(cache=True)
def combine_groups(total, off_count, left, order, group_start, layouts, low, high, mine, free,
                   w_mine, w_free, scale):
    """The combining half of :func:`weigh_groups_scaled`: the groups' weights into
    ``w_mine`` and ``w_free`` from :func:`count_groups`' counts.

    :param scale: the log of the components' scales.
    :returns: (status, natural log of the layouts).
    """
    components = len(group_start) - 1
    group_count = len(w_mine) - 1
    span = layouts.shape[1]
    log_layouts = scale
    if total >= 0:
        scaled = _combine_with_total(
            layouts, low, high, mine, free, group_start, order, off_count, left, w_mine, w_free
        )
        t_low = 0
        t_high = 0
        for c in range(components):
            t_low += low[c]
            t_high += high[c]
        r_low = max(left - t_high, 0)
        r_high = min(left - t_low, off_count)
        if not scaled > 0.0:
            # No mine count the components can take leaves a fill the other cells can
            # hold: no layout, whatever the floats. Anything else the exact engine decides.
            status = NO_LAYOUT if r_low > r_high else BEYOND
            return status, -np.inf
        # _fill_ratios' scale: the largest binomial in range.
        peak = min(max(off_count // 2, r_low), r_high)
        log_layouts += math.log(scaled) + _log_choose(off_count, peak)
    else:
        for g in range(group_count):
            a = b = 0.0
            for k in range(span):
                a += mine[g, k]
                b += free[g, k]
            w_mine[g] = a
            w_free[g] = b
        for c in range(components):
            component_layouts = 0.0
            for k in range(span):
                component_layouts += layouts[c, k]
            log_layouts += math.log(component_layouts)
    return COUNTED, log_layouts


@njit(cache=True)
def group_probabilities(total, off_count, w_mine, w_free):
    """Each group's probability ``w1 / (w1 + w0)`` (the off-frontier cells' last: NaN
    unless the total is known and there are any), ties merged."""
    group_count = len(w_mine) - 1
    p_group = np.empty(group_count + 1)
    for g in range(group_count):
        p_group[g] = w_mine[g] / (w_mine[g] + w_free[g])
    w1, w0 = w_mine[group_count], w_free[group_count]
    p_group[group_count] = w1 / (w1 + w0) if total >= 0 and off_count > 0 else np.nan
    _merge_ties(p_group, group_count + 1)
    return p_group


@njit(cache=True)
def write_probabilities(result, total, cells, start, off, w_mine, w_free):
    """Each group's probability (:func:`group_probabilities`) written on its cells."""
    group_count = len(start) - 1
    p_group = group_probabilities(total, len(off), w_mine, w_free)
    for g in range(group_count):
        for f in range(start[g], start[g + 1]):
            result[cells[f]] = p_group[g]
    for i in off:
        result[i] = p_group[group_count]


@njit(cache=True)
def mine_probabilities_into(grid, total, out):
    """Write the mine probability of every cell of ``grid`` into ``out`` (same shape).

    :param grid: C-contiguous int8 (H, W) view codes.
    :param total: the board's mine total (flags included), or -1 when unknown.
    :returns: :data:`OK`, or :data:`DEFER` when the exact engine must answer.
    """
    height, width = grid.shape
    flat = grid.reshape(height * width)
    result = out.reshape(height * width)
    ok, cells, start, off, w_mine, w_free = weigh_groups(flat, height, width, total, result)
    if not ok:
        return DEFER
    write_probabilities(result, total, cells, start, off, w_mine, w_free)
    return OK
