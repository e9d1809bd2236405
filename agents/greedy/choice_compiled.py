"""One compiled call per greedy decision: from the view to the chosen cell, where floats decide.

The greedy agent (``agents/greedy.py``) decides in steps, each with an exact
fallback, and ``agents/ranking.py`` and ``agents/progress.py`` say when the
compiled floats decide a step exactly. Run as separate numpy and kernel calls
those steps cost more in Python than in counting, so :func:`greedy_choice_into`
runs them all in one kernel, in the same order and on the same floats:

1. every cell's probability and group (:func:`~..weights_compiled.group_probabilities_into`);
2. the tied cells of lowest probability, ranked by chance of a zero, then fewest
   neighbours, then index, when the floats decide that ranking
   (``ranking.float_ranking``); where groups nearly tie, the groups of exactly
   equal weight are merged first (``ranking.merge_equal_groups``, from
   :func:`~..weights_compiled.weight_classes_into`);
3. with the look-ahead, the float estimates of the shortlist's chances of
   progress (``progress.best_progress``), when one cell is clear of the rest.

Wherever the Python code falls back (to the exact weights, or to the exact
chances of progress), the kernel stops and says which fallback to take, so the
agent takes the same one: the same cell in every position. The chance of a zero
is the product of the neighbours' ``1 - p`` in row-major order, as
:func:`~minesweep_env.core.cells.neighbour_sum` multiplies it (factors of 1
change nothing), so it is the same float to the last bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.solver.probability.counting_constants import OK

from ..weights_compiled import group_probabilities_into, trial_weights_into, weight_classes_into

CHOSEN = 0
"""``ranked[0]`` is the agent's cell."""
SHORTLIST = 1
"""``ranked[:count]`` is the float ranking; the exact chances of progress choose among them."""
EXACT = 2
"""The chances of a zero nearly tie: the exact weights rank (the compiled exact count)."""
NO_FLOATS = 3
"""The float path does not answer: the agent's exact route decides."""

_SKIP = -1
_FLAG = -3


@njit(cache=True)
def greedy_choice_into(grid, total, valid, keep, lookahead, margins, primes, factorials,
                       inverses, ranked):
    """The greedy agent's decision on ``grid``, or which fallback must make it.

    :param grid: C-contiguous int8 (H, W) view codes; changed during the call
        (the trial numbers) and put back before it returns.
    :param total: the board's mine total (flags included); the caller checks it is known.
    :param valid: bool per flat cell, the probes allowed.
    :param keep: how many tied cells to rank (1 without the look-ahead).
    :param lookahead: choose among the ranked cells by their chance of progress.
    :param margins: float64 (clear gap, clear floor, rank gap, estimate margin), the
        agent's margins (``ranking.CLEAR_GAP``, ``CLEAR_FLOOR``, ``RANK_GAP``,
        ``progress.ESTIMATE_MARGIN``).
    :param primes: int64, as :func:`~..weights_compiled.weight_classes_into` takes them,
        with ``factorials`` and ``inverses``.
    :param ranked: int64 (keep): the ranked cells, best first.
    :returns: (status, count): :data:`CHOSEN`, :data:`SHORTLIST`, :data:`EXACT` or
        :data:`NO_FLOATS`, and how many cells ``ranked`` holds.
    """
    height, width = grid.shape
    cells = height * width
    probabilities = np.empty((height, width))
    groups = np.empty(cells, np.int64)
    if group_probabilities_into(grid, total, probabilities, groups) != OK:
        return NO_FLOATS, 0
    flat = grid.reshape(cells)
    chances = probabilities.reshape(cells)
    count, certain_safe = _rank(flat, height, width, valid, chances, groups, keep, margins, ranked)
    if count == 0:
        # Near-ties between groups: make each class of exactly equal weight one group.
        classes = np.empty(cells + 1, np.int64)
        if weight_classes_into(grid, total, primes, factorials, inverses, classes) <= 0:
            return NO_FLOATS, 0
        _merge_equal_groups(chances, groups, classes)
        count, certain_safe = _rank(
            flat, height, width, valid, chances, groups, keep, margins, ranked
        )
        if count == 0:
            return EXACT, 0
    if count == 1 or certain_safe or not lookahead:
        return CHOSEN, count
    best = _best_progress(grid, total, ranked[:count], margins[3])
    if best < 0:
        return SHORTLIST, count
    ranked[0] = ranked[best]
    return CHOSEN, count


@njit(cache=True)
def _merge_equal_groups(probabilities, groups, classes):
    """``ranking.merge_equal_groups`` in place: each member cell takes its class as its
    group and the probability of the class's last member in flat order (the one numpy's
    assignment leaves)."""
    value = np.empty(len(classes))
    for i in range(len(groups)):
        if groups[i] >= 0:
            groups[i] = classes[groups[i]]
            value[groups[i]] = probabilities[i]
    for i in range(len(groups)):
        if groups[i] >= 0:
            probabilities[i] = value[groups[i]]


@njit(cache=True)
def _zero_chance(flat, height, width, probabilities, cell):
    """``greedy.zero_chance`` of one cell: its neighbours' ``1 - p`` multiplied in
    row-major order (opened ones 1, flagged ones and those of no probability 0)."""
    y, x = cell // width, cell % width
    product = 1.0
    first = True
    for ny in range(y - 1, y + 2):
        for nx in range(x - 1, x + 2):
            if (ny == y and nx == x) or ny < 0 or ny >= height or nx < 0 or nx >= width:
                continue
            n = ny * width + nx
            code = flat[n]
            if code == FLAGGED:
                factor = 0.0
            elif code == COVERED:
                factor = 1.0 - probabilities[n]
                if np.isnan(factor):
                    factor = 0.0
            else:
                continue  # a factor of 1: the product does not change
            product = factor if first else product * factor
            first = False
    return product


@njit(cache=True)
def _neighbour_count(height, width, cell):
    y, x = cell // width, cell % width
    rows = min(y + 2, height) - max(y - 1, 0)
    cols = min(x + 2, width) - max(x - 1, 0)
    return rows * cols - 1


@njit(cache=True)
def _rank(flat, height, width, valid, probabilities, groups, keep, margins, ranked):
    """``ranking.float_ranking``: the first ``keep`` tied cells into ``ranked``.

    :returns: (cells written, certain safe), 0 cells when the floats do not decide.
    """
    clear_gap, clear_floor, rank_gap = margins[0], margins[1], margins[2]
    cells = height * width
    lowest = np.inf
    any_open = False
    for i in range(cells):
        if valid[i] and not np.isnan(probabilities[i]):
            any_open = True
            lowest = min(lowest, probabilities[i])
    if not any_open:
        return 0, False
    limit = lowest + clear_gap * lowest + clear_floor
    tied = np.empty(cells, np.int64)
    n = 0
    for i in range(cells):
        if valid[i] and not np.isnan(probabilities[i]) and probabilities[i] <= limit:
            tied[n] = i
            n += 1
    group = groups[tied[0]]
    if group == -1:
        return 0, False
    for t in range(n):
        if groups[tied[t]] != group:
            return 0, False
    certain_safe = probabilities[tied[0]] == 0.0
    if n == 1:
        ranked[0] = tied[0]
        return 1, certain_safe
    chance = np.empty(n)
    rounded = np.empty(n)
    neighbours = np.empty(n, np.int64)
    for t in range(n):
        chance[t] = _zero_chance(flat, height, width, probabilities, tied[t])
        # np.round(x, 12): x * 1e12 rounded half to even, then / 1e12 (order kept).
        rounded[t] = np.rint(chance[t] * 1e12)
        neighbours[t] = _neighbour_count(height, width, tied[t])
    taken = np.zeros(n, np.bool_)
    head = min(keep, n)
    heads = np.empty(head, np.int64)
    for h in range(head):
        # Highest rounded chance, then fewest neighbours, then lowest index (tied ascends).
        best = -1
        for t in range(n):
            if taken[t]:
                continue
            if best < 0 or rounded[t] > rounded[best] or (
                rounded[t] == rounded[best] and neighbours[t] < neighbours[best]
            ):
                best = t
        taken[best] = True
        heads[h] = best
    # Every tied cell within rank_gap of a head cell must have the very same product.
    for h in range(head):
        a = heads[h]
        for t in range(n):
            if t != a and abs(chance[a] - chance[t]) <= rank_gap and not _same_factors(
                flat, height, width, groups, tied[a], tied[t]
            ):
                return 0, False
    for h in range(head):
        ranked[h] = tied[heads[h]]
    return head, certain_safe


@njit(cache=True)
def _factor_codes(flat, height, width, groups, cell, codes):
    """The groups of ``cell``'s covered neighbours (flags as ``_FLAG``) in product order,
    into ``codes``; how many."""
    y, x = cell // width, cell % width
    n = 0
    for ny in range(y - 1, y + 2):
        for nx in range(x - 1, x + 2):
            if (ny == y and nx == x) or ny < 0 or ny >= height or nx < 0 or nx >= width:
                continue
            i = ny * width + nx
            if flat[i] == COVERED:
                codes[n] = groups[i]
                n += 1
            elif flat[i] == FLAGGED:
                codes[n] = _FLAG
                n += 1
    return n


@njit(cache=True)
def _same_factors(flat, height, width, groups, a, b):
    """Whether cells ``a`` and ``b`` multiply factors of the same groups in the same order
    (``ranking._factor_groups``' rows equal), or both a flag's 0: then their chances are
    the same float."""
    first = np.empty(8, np.int64)
    second = np.empty(8, np.int64)
    count = _factor_codes(flat, height, width, groups, a, first)
    other = _factor_codes(flat, height, width, groups, b, second)
    if (first[:count] == _FLAG).any() and (second[:other] == _FLAG).any():
        return True
    return count == other and (first[:count] == second[:count]).all()


@njit(cache=True)
def _isolated_shape(flat, height, width, cell):
    """``progress.isolated_shape``: the neighbours of ``cell`` when every one is covered
    and touches no number, else -1."""
    y, x = cell // width, cell % width
    count = 0
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            n = ny * width + nx
            if n == cell:
                continue
            if flat[n] != COVERED:
                return -1
            for my in range(max(ny - 1, 0), min(ny + 2, height)):
                for mx in range(max(nx - 1, 0), min(nx + 2, width)):
                    m = my * width + mx
                    if m != n and flat[m] >= 0:
                        return -1
            count += 1
    return count


@njit(cache=True)
def _number_range(flat, height, width, cell):
    """``progress.number_range``: the numbers ``cell`` could show, as (first, last)."""
    y, x = cell // width, cell % width
    flags = 0
    covered = 0
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            n = ny * width + nx
            if n != cell and flat[n] == FLAGGED:
                flags += 1
            elif n != cell and flat[n] == COVERED:
                covered += 1
    low, high = 0, covered
    for ny in range(max(y - 2, 0), min(y + 3, height)):
        for nx in range(max(x - 2, 0), min(x + 3, width)):
            number = ny * width + nx
            value = flat[number]
            if number == cell or value < 0:
                continue
            its_covered = 0
            shared = 0
            its_flags = 0
            for my in range(max(ny - 1, 0), min(ny + 2, height)):
                for mx in range(max(nx - 1, 0), min(nx + 2, width)):
                    m = my * width + mx
                    if m == number:
                        continue
                    if flat[m] == FLAGGED:
                        its_flags += 1
                    elif flat[m] == COVERED and m != cell:
                        its_covered += 1
                        if abs(my - y) <= 1 and abs(mx - x) <= 1:
                            shared += 1
            if shared == 0:
                continue
            need = value - its_flags
            outside = its_covered - shared
            low = max(low, need - outside)
            high = min(high, need + covered - shared)
    return flags + max(low, 0), flags + high


@njit(cache=True)
def _estimate(grid, total, cell, isolated):
    """``progress.estimate_chance`` from the float counts alone: (value, exact), or a NaN
    value when some number needs the exact count."""
    height, width = grid.shape
    flat = grid.reshape(height * width)
    first, last = _number_range(flat, height, width, cell)
    size = max(last - first + 1, 0)
    numbers = np.arange(first, first + size).astype(np.int64)
    logs = np.empty(size)
    progress = np.empty(size, np.int8)
    trial_weights_into(grid, total, cell, numbers, logs, progress, isolated)
    top = -np.inf
    any_flag = False
    all_flags = True
    for k in range(size):
        if np.isnan(logs[k]):
            return np.nan, False
        if logs[k] > -np.inf:
            top = max(top, logs[k])
            any_flag = any_flag or progress[k] != 0
            all_flags = all_flags and progress[k] != 0
    if not any_flag:
        return 0.0, True
    if all_flags:
        return 1.0, True
    with_progress = 0.0
    every = 0.0
    for k in range(size):
        if logs[k] > -np.inf:
            weight = np.exp(logs[k] - top)
            every += weight
            if progress[k] != 0:
                with_progress += weight
    return with_progress / every, False


@njit(cache=True)
def _best_progress(grid, total, shortlist, margin):
    """``progress.best_progress`` from the float estimates: the position in ``shortlist``
    of the cell of highest chance, or -1 when the exact chances must choose (more than
    one cell comes near the best and one of them is only an estimate, or an estimate
    needs an exact count)."""
    height, width = grid.shape
    flat = grid.reshape(height * width)
    values = np.full(len(shortlist), -np.inf)
    exact_values = np.zeros(len(shortlist), np.bool_)
    seen = np.zeros(10, np.bool_)
    best = -1.0
    for k in range(len(shortlist)):
        if best >= 1.0:
            break  # nothing beats a certain chance, and ties go to the earlier cell
        cell = shortlist[k]
        shape = _isolated_shape(flat, height, width, cell)
        if shape >= 0:
            if seen[shape]:
                continue  # the same chance as an earlier cell: it cannot win
            seen[shape] = True
        value, exact = _estimate(grid, total, cell, shape >= 0)
        if np.isnan(value):
            return -1
        values[k] = value
        exact_values[k] = exact
        if exact:
            best = max(best, value)
    floor = values.max() - 2 * margin
    # Below the best estimate by more than both errors, a cell cannot win; among the
    # rest the highest chance wins, the earliest of equals: found in floats when only
    # one is left or every one left is exact.
    contenders = 0
    all_exact = True
    found = -1
    best = -1.0
    for k in range(len(shortlist)):
        if values[k] >= floor:
            contenders += 1
            all_exact = all_exact and exact_values[k]
            if values[k] > best:
                found, best = k, values[k]
    return found if contenders == 1 or all_exact else -1
