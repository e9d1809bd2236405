"""Compiled kernels of the greedy agent's choice: its float shortcuts, each with an exact fallback.

The greedy agent decides on exact counts (ties between equal probabilities,
ties between equal chances of progress). Most decisions are clear long before
the last digit, so these kernels answer in floats and say enough for the
caller to tell when a decision is clear and when the exact engine must settle it:

- :func:`group_probabilities_into`: every cell's probability, as
  :func:`~counting_compiled.mine_probabilities_into` gives it, and the *group* of every
  covered cell (cells touching the same numbers, or no number at all), since
  cells of one group have the same exact weight by symmetry;
- :func:`trial_weights_into`: for a guess and each number it could show, the
  layouts that fit (as a natural log, so positions that differ by one number
  compare) and whether some covered cell is then safe in all of them. The
  exact engine answers with one count per number, in Python. For a guess far
  from every number (*isolated*: its neighbours touch no number) the number
  only changes a component of its own, so the rest is counted once and each
  number costs only the combining step;
- :func:`weight_classes_into`: which groups have *exactly* the same mine
  weight, proven with machine integers: where the float probabilities of
  two groups come within their error of each other (symmetric positions: a
  third of the greedy agent's decisions), only exact weights tell a tie.

A progress flag is exact, as :mod:`counting_compiled`' weights are exactly 0.0 where
the exact weight is 0 and only there; a log is within about 1e-12 of the exact
one; it is ``-inf`` where no layout fits (as exact a verdict as the exact
engine's: a constraint or the structure of the count rules it out), and NaN
where the float count cannot answer (the position is beyond it): the exact
engine counts that one.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from minesweep_env.core.cells import COVERED, KNOWN_SAFE
from minesweep_env.solver.probability.counting_compiled import (
    _set_up,
    combine_groups,
    count_buffers,
    count_groups,
    scale_component,
    weigh_groups_scaled,
    write_probabilities,
)
from minesweep_env.solver.probability.counting_constants import (
    _CHOOSE,
    COUNTED,
    DEFER,
    NO_LAYOUT,
    OK,
)
from minesweep_env.solver.probability.counting_passes_compiled import _count_component

from .grouped_count import KNOWN_SAFE_GROUP


@njit(cache=True)
def group_probabilities_into(grid, total, out, group_of):
    """Write every cell's mine probability into ``out`` and its group into ``group_of``.

    :param grid: C-contiguous int8 (H, W) view codes.
    :param total: the board's mine total (flags included), or -1 when unknown.
    :param out: float64 (H, W), as :func:`~counting_compiled.mine_probabilities_into` writes it.
    :param group_of: int64 (H * W): a frontier group's number, the number of groups
        for the cells off the frontier, :data:`KNOWN_SAFE_GROUP` on known-safe
        cells, -1 elsewhere.
    :returns: :data:`~counting_constants.OK`, or :data:`~counting_constants.DEFER` for the exact
        engine.
    """
    height, width = grid.shape
    flat = grid.reshape(height * width)
    result = out.reshape(height * width)
    status, cells, start, off, w_mine, w_free, _ = weigh_groups_scaled(
        flat, height, width, total, result
    )
    if status != COUNTED:
        return DEFER
    write_probabilities(result, total, cells, start, off, w_mine, w_free)
    groups = len(start) - 1
    for i in range(height * width):
        group_of[i] = KNOWN_SAFE_GROUP if flat[i] == KNOWN_SAFE else -1
    for g in range(groups):
        for f in range(start[g], start[g + 1]):
            group_of[cells[f]] = g
    for i in off:
        group_of[i] = groups
    return OK


@njit(cache=True)
def _flag_progress(total, off_count, w_mine):
    """Whether some covered cell weighs 0 with a mine (off the frontier only with a total)."""
    groups = len(w_mine) - 1
    for g in range(groups):
        if w_mine[g] == 0.0:
            return 1
    if total >= 0 and off_count > 0 and w_mine[groups] == 0.0:
        return 1
    return 0


@njit(cache=True)
def trial_weights_into(grid, total, cell, numbers, log_layouts, progress, isolated):
    """For each ``numbers[k]`` shown on ``cell``: the log of the layouts that fit, and
    whether another covered cell is then safe in all of them.

    :param grid: C-contiguous int8 (H, W) view codes; ``cell`` is changed during the
        call and put back before it returns.
    :param total: the board's mine total (flags included), or -1 when unknown.
    :param log_layouts: float64 per number: ``-inf`` where no layout fits, NaN where
        the exact engine must count.
    :param progress: int8 per number, 1 for progress (0 where the log is not finite).
    :param isolated: no neighbour of ``cell`` touches a number, and none is open:
        the other components are counted once (checked here; the general way otherwise).
    """
    if isolated and len(numbers) > 0 and _isolated_trials(
        grid, total, cell, numbers, log_layouts, progress
    ):
        return
    if len(numbers) > 1 and _shared_trials(grid, total, cell, numbers, log_layouts, progress):
        return
    _trials(grid, total, cell, numbers, log_layouts, progress)


@njit(cache=True)
def _isolated_trials(grid, total, cell, numbers, log_layouts, progress):
    """:func:`trial_weights_into` for an isolated ``cell``: count once with the first
    number, then swap in each number's own component. ``False`` (nothing written) when
    ``cell`` is not isolated after all or the count cannot go this way."""
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    saved = flat[cell]
    flat[cell] = numbers[0]
    status, cells, start, off, order, group_start, layouts, low, high, mine, free, left, scale = (
        count_groups(flat, height, width, total, scratch)
    )
    flat[cell] = saved
    if status != COUNTED:
        return False
    # The cell's own group: every covered neighbour, alone in its component.
    y, x = cell // width, cell % width
    size = 0
    first = -1
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            i = ny * width + nx
            if i != cell:
                if flat[i] != COVERED:
                    return False
                size += 1
                if first < 0:
                    first = i
    own = -1
    for g in range(len(start) - 1):
        for f in range(start[g], start[g + 1]):
            if cells[f] == first:
                own = g
    if own < 0 or start[own + 1] - start[own] != size:
        return False
    component = -1
    for c in range(len(group_start) - 1):
        for f in range(group_start[c], group_start[c + 1]):
            if order[f] == own:
                component = c
    if group_start[component + 1] - group_start[component] != 1:
        return False
    rest = scale - np.log(_CHOOSE[size, numbers[0]])
    span = layouts.shape[1]
    w_mine = np.zeros(len(start))
    w_free = np.zeros(len(start))
    for k in range(len(numbers)):
        v = numbers[k]
        for m in range(span):
            layouts[component, m] = 0.0
            mine[own, m] = 0.0
            free[own, m] = 0.0
        # C(size, v) layouts, scaled to 1; with a mine on a given cell C(size - 1, v - 1).
        layouts[component, v] = 1.0
        mine[own, v] = v / size
        free[own, v] = (size - v) / size
        low[component] = v
        high[component] = v
        _record_trial(
            k, total, off, left, order, group_start, layouts, low, high, mine, free, w_mine,
            w_free, rest + np.log(_CHOOSE[size, v]), log_layouts, progress,
        )
    return True


@njit(cache=True)
def _shared_trials(grid, total, cell, numbers, log_layouts, progress):
    """:func:`trial_weights_into` with the components the number does not touch counted once.

    The numbers only change the need of the cell's own constraint: the groups and
    components are the same for all of them, so only the component holding that
    constraint is counted again per number, by the same code on the same inputs as
    :func:`_trials`' full count: the same floats. ``False`` (nothing written) when the
    cell has no constraint or another component does not count; :func:`_trials` then.
    """
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    saved = flat[cell]
    flat[cell] = numbers[0]
    ready, _, cells, start, off, order, group_start, left, setup = _set_up(
        flat, height, width, total, scratch
    )
    flat[cell] = saved
    if not ready:
        return False
    sizes, touches, touch_count, needs, by_start, by_members, count_scratch, most, at = setup
    own_constraint = at[cell]
    if own_constraint < 0:
        return False
    components = len(group_start) - 1
    group_count = len(sizes)
    own = -1
    for c in range(components):
        for f in range(group_start[c], group_start[c + 1]):
            g = order[f]
            for t in range(touch_count[g]):
                if touches[g, t] == own_constraint:
                    own = c
    span, layouts, mine, free, low, high = count_buffers(components, group_count, most)
    logs = np.zeros(components)
    room = 0
    for g in range(group_count):
        for t in range(touch_count[g]):
            if touches[g, t] == own_constraint:
                room += sizes[g]
    first_need = needs[own_constraint]
    # The other components, once: if one does not count, the general way says how.
    for c in range(components):
        if c != own and _scaled_count(
            c, order, group_start, sizes, touches, touch_count, needs, by_start, by_members,
            count_scratch, most, layouts, mine, free, low, high, logs, span,
        ) != COUNTED:
            return False
    for k in range(len(numbers)):
        need = first_need + numbers[k] - numbers[0]
        progress[k] = 0
        log_layouts[k] = -np.inf
        if need < 0 or need > room:
            continue  # more mines than its cells hold, or fewer than none: no layout
        needs[own_constraint] = need
        status = _scaled_count(
            own, order, group_start, sizes, touches, touch_count, needs, by_start, by_members,
            count_scratch, most, layouts, mine, free, low, high, logs, span,
        )
        needs[own_constraint] = first_need
        if status != COUNTED:
            log_layouts[k] = -np.inf if status == NO_LAYOUT else np.nan
            continue
        scale = 0.0
        for c in range(components):
            scale += logs[c]
        w_mine = np.zeros(group_count + 1)
        w_free = np.zeros(group_count + 1)
        _record_trial(
            k, total, off, left, order, group_start, layouts, low, high, mine, free, w_mine,
            w_free, scale, log_layouts, progress,
        )
    return True


@njit(cache=True)
def _record_trial(k, total, off, left, order, group_start, layouts, low, high, mine, free,
                  w_mine, w_free, scale, log_layouts, progress):
    """Combine one trial number's counted components into ``log_layouts[k]`` (-inf:
    no layout, nan: beyond the float count) and ``progress[k]``."""
    progress[k] = 0
    status, log_w = combine_groups(
        total, len(off), left, order, group_start, layouts, low, high, mine, free, w_mine,
        w_free, scale,
    )
    if status != COUNTED:
        log_layouts[k] = -np.inf if status == NO_LAYOUT else np.nan
        return
    log_layouts[k] = log_w
    progress[k] = _flag_progress(total, len(off), w_mine)


@njit(cache=True)
def _scaled_count(c, order, group_start, sizes, touches, touch_count, needs, by_start,
                  by_members, count_scratch, most, layouts, mine, free, low, high, logs, span):
    """Component ``c`` counted and scaled as :func:`~counting_compiled.count_groups` does it (its
    rows cleared first), the log of its scale into ``logs[c]``; the count's status."""
    members = order[group_start[c] : group_start[c + 1]]
    for k in range(span):
        layouts[c, k] = 0.0
    for g in members:
        for k in range(span):
            mine[g, k] = 0.0
            free[g, k] = 0.0
    counted = _count_component(
        members, sizes, touches, touch_count, needs, by_start, by_members, count_scratch,
        most[c], layouts[c], mine, free,
    )
    if counted != COUNTED:
        return counted
    counted, log_scale = scale_component(c, members, layouts, mine, free, low, high, span)
    if counted == COUNTED:
        logs[c] = log_scale
    return counted


@njit(cache=True)
def _trials(grid, total, cell, numbers, log_layouts, progress):
    """:func:`trial_weights_into`, each number counted afresh."""
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    saved = flat[cell]
    for k in range(len(numbers)):
        flat[cell] = numbers[k]
        status, _, start, off, w_mine, _, log_w = weigh_groups_scaled(
            flat, height, width, total, scratch
        )
        progress[k] = 0
        if status != COUNTED:
            log_layouts[k] = -np.inf if status == NO_LAYOUT else np.nan
            continue
        log_layouts[k] = log_w
        progress[k] = _flag_progress(total, len(off), w_mine)
    flat[cell] = saved


EXACT_CELLS = 52
"""The most cells a component may have for its float counts to be exact integers: every
value its count forms counts distinct assignments of its cells (at most 2**52), and
float64 holds every integer up to 2**53 exactly."""

PRIME_BITS = 28
"""The moduli of :func:`weight_classes_into` are primes between 2**28 and 2**29: a product
of two residues is below 2**58, so sums of them run in int64 between reductions."""

_REDUCE_AT = 1 << 62
"""A sum of residue products is reduced once it reaches this (a next product adds < 2**58)."""


@njit(cache=True)
def weight_residues_into(grid, total, primes, factorials, inverses, residues, sizes_out, group_of):
    """Every group's exact mine weight per cell, and the position's layouts, modulo primes.

    The components are counted in floats, exact integers as long as each has at most
    :data:`EXACT_CELLS` cells; the weights are then formed modulo enough primes that
    their product exceeds every weight (each is at most C(covered cells, mines left)), so
    the residues name the weights exactly (by the Chinese remainder theorem).

    :param grid: C-contiguous int8 (H, W) view codes.
    :param total: the board's mine total (flags included); the weights need it.
    :param primes: int64, distinct primes between 2**28 and 2**29 (enough for the board).
    :param factorials: int64 (primes, H * W + 1): k! modulo each prime.
    :param inverses: int64, the same shape: the inverses of those factorials.
    :param residues: int64 (H * W + 2, primes): row ``g`` for group ``g``
        (:func:`group_probabilities_into`' numbering), then the off-frontier cells' (-1
        when there are none), then the layouts; column ``r`` modulo ``primes[r]``.
    :param sizes_out: int64 (H * W): the cells of each component.
    :param group_of: int64 (H * W): the group of every cell, as
        :func:`group_probabilities_into` writes it.
    :returns: (frontier groups, primes used), or (-1, 0) when the exact engine must answer
        (no total, no layout, a component too large, or too few primes).
    """
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    ready, _, cells, start, off, order, group_start, left, setup = _set_up(
        flat, height, width, total, scratch
    )
    if not ready or total < 0:
        return -1, 0
    sizes, touches, touch_count, needs, by_start, by_members, count_scratch, most, _ = setup
    components = len(group_start) - 1
    group_count = len(sizes)
    for c in range(components):
        if most[c] > EXACT_CELLS:
            return -1, 0
    span, layouts, mine, free, low, high = count_buffers(components, group_count, most)
    for c in range(components):
        members = order[group_start[c] : group_start[c + 1]]
        if _count_component(
            members, sizes, touches, touch_count, needs, by_start, by_members, count_scratch,
            most[c], layouts[c], mine, free,
        ) != COUNTED:
            return -1, 0
        low[c] = span
        high[c] = -1
        for k in range(span):
            if layouts[c, k] != 0.0:
                low[c] = min(low[c], k)
                high[c] = k
        if high[c] < 0:
            return -1, 0
    covered = len(cells) + len(off)
    if left < 0 or left > covered:
        return -1, 0
    # Every weight is at most C(covered, left); two bits spare for lgamma's rounding.
    bits = (math.lgamma(covered + 1.0) - math.lgamma(left + 1.0)
            - math.lgamma(covered - left + 1.0)) / math.log(2.0) + 2.0
    needed = int(bits) // PRIME_BITS + 1
    if needed > len(primes):
        return -1, 0
    for r in range(needed):
        _weight_residues(primes[r], factorials[r], inverses[r], layouts, low, high, mine,
                         order, group_start, len(off), left, residues[: group_count + 2, r])
    for c in range(components):
        sizes_out[c] = most[c]
    for i in range(height * width):
        group_of[i] = KNOWN_SAFE_GROUP if flat[i] == KNOWN_SAFE else -1
    for g in range(group_count):
        for f in range(start[g], start[g + 1]):
            group_of[cells[f]] = g
    for i in off:
        group_of[i] = group_count
    return group_count, needed


@njit(cache=True)
def weight_classes_into(grid, total, primes, factorials, inverses, classes):
    """For each group (:func:`group_probabilities_into`' numbering, the off-frontier cells'
    last), the smallest group of exactly the same mine weight per cell: equal residues
    (:func:`weight_residues_into`) for every prime are equal weights, and the other way round.

    :param classes: int64 (H * W + 1): the class of each group is written at its number.
    :returns: the number of groups (frontier groups + 1), or -1 when the exact engine must
        answer.
    """
    residues = np.empty((grid.size + 2, len(primes)), np.int64)
    unused = np.empty(grid.size, np.int64)
    group_count, needed = weight_residues_into(
        grid, total, primes, factorials, inverses, residues, unused, unused
    )
    if group_count < 0:
        return -1
    for g in range(group_count + 1):
        classes[g] = g
        for h in range(g):
            if classes[h] != h:
                continue
            same = True
            for r in range(needed):
                if residues[g, r] != residues[h, r]:
                    same = False
                    break
            if same:
                classes[g] = h
                break
    return group_count + 1


@njit(cache=True)
def _choose(factorial, inverse, n, r, p):
    """C(n, r) mod p, 0 outside 0 <= r <= n."""
    if r < 0 or r > n:
        return 0
    return factorial[n] * inverse[r] % p * inverse[n - r] % p


@njit(cache=True)
def _weight_residues(p, factorial, inverse, layouts, low, high, mine, order, group_start,
                     off_count, left, out):
    """Every group's exact mine weight per cell modulo ``p`` into ``out`` (then the
    off-frontier cells', then the position's layouts): the sums of
    :func:`~counting_compiled._combine_with_total`, on the exact component counts, in residues.

    With ``t`` frontier mines the other cells hold ``left - t`` in C(off, left - t)
    ways. A group's weight: its component's polynomial with a mine on the cell, times
    the other components' product, against those fills. Polynomials are taken from
    each component's lowest mine count (``low``), so they run over ``spread`` terms.
    """
    components = len(low)
    t_low = 0
    spread = 0
    for c in range(components):
        t_low += low[c]
        spread += high[c] - low[c]
    counts = np.zeros((components, spread + 1), np.int64)
    for c in range(components):
        for j in range(high[c] - low[c] + 1):
            counts[c, j] = np.int64(layouts[c, low[c] + j]) % p
    # after[c][x]: the components from c on against the fills, for x mines before them
    # (over t_low): sum_j (their product)[j] * C(off, left - t_low - x - j).
    after = np.zeros((components + 1, spread + 1), np.int64)
    for x in range(spread + 1):
        after[components, x] = _choose(factorial, inverse, off_count, left - t_low - x, p)
    for c in range(components - 1, -1, -1):
        width = high[c] - low[c]
        for x in range(spread - width + 1):
            acc = 0
            for j in range(width + 1):
                acc += counts[c, j] * after[c + 1, x + j]
                if acc >= _REDUCE_AT:
                    acc %= p
            after[c, x] = acc % p
    before = np.zeros(spread + 1, np.int64)
    grown = np.zeros(spread + 1, np.int64)
    rest = np.empty(spread + 1, np.int64)
    before[0] = 1
    reach = 0
    for c in range(components):
        width = high[c] - low[c]
        # rest[m]: the other components and the fill, for m mines of c over its low.
        for m in range(width + 1):
            acc = 0
            for i in range(reach + 1):
                acc += before[i] * after[c + 1, m + i]
                if acc >= _REDUCE_AT:
                    acc %= p
            rest[m] = acc % p
        for f in range(group_start[c], group_start[c + 1]):
            g = order[f]
            acc = 0
            for m in range(width + 1):
                acc += np.int64(mine[g, low[c] + m]) % p * rest[m]
                if acc >= _REDUCE_AT:
                    acc %= p
            out[g] = acc % p
        grown[: reach + width + 1] = 0
        for i in range(reach + 1):
            if before[i] != 0:
                for j in range(width + 1):
                    grown[i + j] = (grown[i + j] + before[i] * counts[c, j]) % p
        reach += width
        before[: reach + 1] = grown[: reach + 1]
    if off_count > 0:
        # An off-frontier cell: a mine on it, and left - 1 - t among the off - 1 others.
        acc = 0
        for x in range(spread + 1):
            acc += before[x] * _choose(factorial, inverse, off_count - 1, left - 1 - t_low - x, p)
            if acc >= _REDUCE_AT:
                acc %= p
        out[len(out) - 2] = acc % p
    else:
        out[len(out) - 2] = -1  # no such cell: equal to no group
    acc = 0
    for x in range(spread + 1):
        acc += before[x] * after[components, x]
        if acc >= _REDUCE_AT:
            acc %= p
    out[len(out) - 1] = acc % p
