"""The kept constraints' ``track`` rows, and the full count that keeps its counts.

:mod:`.complete_kept_compiled` keeps a game's constraints between calls in one int64
array, ``track``, whose rows are named here; when the cheap rules prove nothing, its
play-out calls :func:`_full_count_kept`, the full count of
:func:`~.complete_proof_compiled.full_count` read from the kept constraints. A component
whose constraints are exactly those of a component the game's last full count counted
takes that count's floats (:func:`_count_kept`, stored in the rows after
:data:`COUNTED_AT`), so a probe recounts only the components it changed.

Same groups, counts, codes and probabilities as the full count that reads the board:
``tests/minesweep_env/solver/rules/test_kept_constraints_compiled.py`` holds them equal, along
whole games, against :func:`~.complete_play_compiled.probe_play_out_into`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cells import COVERED, KNOWN_SAFE
from ..probability.counting_compiled import (
    combine_groups,
    count_buffers,
    group_probabilities,
    scale_component,
)
from ..probability.counting_constants import COUNTED
from ..probability.counting_groups_compiled import set_up_groups
from ..probability.counting_passes_compiled import _count_component
from .complete_proof_compiled import DEFER, FULL, MINE, SAFE

NEED, MASK, LISTED, IN_PAIRS, IN_CHANGED, MARKS, CODES = 0, 1, 2, 3, 4, 5, 6
"""Rows of ``track`` indexed by cell: the constraints kept between calls (a number's
need and covered-cell mask), then flags that are all 0 between calls."""
WORK, LONE, PAIRS, CHANGED, MARKED, STACK, DECIDED = 7, 8, 9, 10, 11, 12, 13
"""Rows of ``track`` used as lists of cells within a call."""
COUNTED_AT = 14
"""Row of ``track`` indexed by cell: where the last full count stored the counts of the
component whose first constraint is that number (see :func:`_count_kept`)."""
STORE_ROWS = 12
"""Rows of ``track`` after :data:`COUNTED_AT` that hold the stored counts: two halves, the
last full count's and the one being made."""
TRACK_ROWS = COUNTED_AT + 1 + STORE_ROWS
"""Rows of the ``track`` array (int64, (TRACK_ROWS, H * W)) a game keeps."""

UNSEEN = 127
"""``seen[0]`` when the kept constraints describe no view (no view code is 127)."""


@njit(cache=True, inline="always")
def sort_prefix(cells, count):
    """``cells[:count]`` in increasing order, in place (insertion sort: the lists sorted
    here are short or nearly in order already)."""
    for k in range(1, count):
        cell = cells[k]
        j = k
        while j > 0 and cells[j - 1] > cell:
            cells[j] = cells[j - 1]
            j -= 1
        cells[j] = cell


SORTED_FRONTIER = 32
"""Frontier cells up to which :func:`_kept_frontier` sorts them by insertion; a longer
frontier is read back from the board in cell order."""


@njit(cache=True)
def _kept_frontier(height, width, covered, track):
    """What :func:`~counting_groups_compiled._read_constraints` and
    :func:`~counting_groups_compiled._signature_keys` read
    from the view, taken from the kept constraints instead and with no pass over the
    covered cells: a number is a constraint while its kept mask has a covered cell, and
    the mask's bits are those cells, so the frontier is the cells the masks name. Every
    number was checked when it last changed, so none fails here.

    :param covered: the view's covered cells (the frontier has at most as many).
    :returns: (cells, keys, key_of, constraint_at, needs, numbers, constraint count): the
        frontier's cells in increasing order and their keys as ``_signature_keys`` gives
        them, each cell's key (-1 off the frontier), and the constraints as
        ``_read_constraints`` numbers them (``numbers``: each constraint's cell).
    """
    n = height * width
    need, masks = track[NEED], track[MASK]
    # One allocation for the per-cell rows: a constraint's index, a cell's key (-1: none).
    rows = np.empty((2, n), np.int64)
    rows.fill(-1)
    constraint_at, key_of = rows[0], rows[1]
    per_constraint = np.empty((2, n), np.int64)
    needs, numbers = per_constraint[0], per_constraint[1]
    listed = np.empty((2, covered), np.int64)
    cells, keys = listed[0], listed[1]
    count = 0
    frontier = 0
    for j in range(n):
        mask = masks[j]
        if mask == 0:
            continue
        constraint_at[j] = count
        needs[count] = need[j]
        numbers[count] = j
        count += 1
        y, x = j // width, j % width
        for bit in range(9):
            if mask >> bit & 1:
                i = j + (bit // 3 - 1) * width + bit % 3 - 1
                key = key_of[i]
                if key < 0:
                    key_of[i] = j << 15
                    cells[frontier] = i
                    frontier += 1
                else:
                    # The key as _signature_keys builds it: constraints come smallest first.
                    first = key >> 15
                    key_of[i] = key | 1 << ((y - first // width) * 5 + x - first % width + 2)
    # Cells come in the order the numbers first name them, nearly increasing: sorted,
    # they are in the order _signature_keys lists them. A long list is a row or more out
    # of place here and there, so it is read back from ``key_of`` in one pass instead.
    if frontier <= SORTED_FRONTIER:
        sort_prefix(cells, frontier)
    else:
        frontier = 0
        for i in range(n):
            if key_of[i] >= 0:
                cells[frontier] = i
                frontier += 1
    for k in range(frontier):
        keys[k] = key_of[cells[k]]
    return cells[:frontier], keys[:frontier], key_of, constraint_at, needs, numbers, count


@njit(cache=True)
def _constraint_keys(order, group_start, touches, touch_count, numbers, needs, constraint_count,
                     track):
    """What defines each component's counts, as one int64 per constraint (its number, covered
    mask and need): the constraints of component ``c`` at ``keys[key_start[c]:key_start[c + 1]]``
    in increasing order.

    A component's counts are a function of its constraints alone: they name its cells,
    its groups (in the order of their smallest cell) and its needs, and the count walks
    them in an order those fix; so equal keys give the same floats.
    """
    components = len(group_start) - 1
    per_constraint = np.empty((2, constraint_count), np.int64)
    component_of, keys = per_constraint[0], per_constraint[1]
    for c in range(components):
        for f in range(group_start[c], group_start[c + 1]):
            g = order[f]
            for t in range(touch_count[g]):
                component_of[touches[g, t]] = c
    starts = np.zeros((2, components + 1), np.int64)
    key_start, fill = starts[0], starts[1]
    for j in range(constraint_count):
        key_start[component_of[j] + 1] += 1
    for c in range(components):
        key_start[c + 1] += key_start[c]
        fill[c + 1] = key_start[c + 1]
    masks = track[MASK]
    for j in range(constraint_count):
        number = numbers[j]
        c = component_of[j]
        keys[fill[c]] = (number << 13) | (masks[number] << 4) | needs[j]
        fill[c] += 1
    return keys, key_start


_HEAD = 5
"""Slots before a stored component's key: key length, groups, low, high, log of its scale."""


@njit(cache=True)
def _stored_at(index, store, half, last_count, keys, first, last, groups):
    """Where in ``store`` full count number ``last_count`` left the counts of the component
    with constraints ``keys[first:last]`` and ``groups`` groups, or -1."""
    slot = index[keys[first] >> 13]
    if slot >> 32 != last_count:  # not stored by that count
        return -1
    at = 2 + half * (last_count & 1) + (slot & 0xFFFFFFFF)
    if store[at] != last - first or store[at + 1] != groups:
        return -1
    for k in range(last - first):
        if store[at + _HEAD + k] != keys[first + k]:
            return -1
    return at


@njit(cache=True)
def _count_kept(order, group_start, setup, numbers, constraint_count, width, track):
    """:func:`~counting_compiled.count_components` (same returns, the same floats), taking the
    counts of each component the game's last full count counted too from a store, and
    storing the counts of this one's for the next.

    A probe or a round changes a few constraints; the components away from them are the
    ones the last full count had. Their counts are stored in ``track`` after
    :data:`COUNTED_AT` (two halves: the last count's, read, and this one's, written;
    ``store[0]`` numbers the full counts that stored, ``store[1]`` is the board's width),
    found through the row :data:`COUNTED_AT` at the component's first constraint, and
    compared key by key (:func:`_constraint_keys`), so a count is reused only when its
    component is the same exactly. A component of one group is counted at once, cheaper
    than stored: a position of such components leaves the store as it is.
    """
    sizes, touches, touch_count, needs, by_start, by_members, scratch, most, _ = setup
    components = len(group_start) - 1
    group_count = len(sizes)
    span, layouts, mine, free, low, high = count_buffers(components, group_count, most)
    scale = 0.0
    stores = group_count > components  # some component has several groups
    if stores:
        keys, key_start = _constraint_keys(order, group_start, touches, touch_count, numbers,
                                           needs, constraint_count, track)
    else:
        keys = key_start = np.empty(0, np.int64)
    index = track[COUNTED_AT]
    store = track[COUNTED_AT + 1:].reshape(-1)
    floats = store.view(np.float64)
    half = (len(store) - 2) // 2
    last_count = store[0]
    # Counts are numbered from 1 (a new track holds 0s) and never reuse a number, so an
    # index entry with the last one's number was written by it; this one's number is taken
    # before it stores anything, so a count that stops halfway leaves only whole entries.
    reuse = stores and last_count > 0 and store[1] == width  # else: another board's cells
    if stores:
        store[0] = last_count + 1
        store[1] = width
    base = 2 + half * ((last_count + 1) & 1)
    written = 0
    for c in range(components):
        members = order[group_start[c]:group_start[c + 1]]
        many = len(members) > 1
        if many and stores:
            first, last = key_start[c], key_start[c + 1]
        else:
            first = last = 0
        at = -1
        if many and reuse:
            at = _stored_at(index, store, half, last_count, keys, first, last, len(members))
        if at >= 0:
            low[c], high[c] = store[at + 2], store[at + 3]
            log_scale = floats[at + 4]
            data = at + _HEAD + last - first
            for k in range(low[c], high[c] + 1):
                layouts[c, k] = floats[data]
                data += 1
            for g in members:
                for k in range(low[c], high[c] + 1):
                    mine[g, k] = floats[data]
                    free[g, k] = floats[data + 1]
                    data += 2
        else:
            counted = _count_component(
                members, sizes, touches, touch_count, needs, by_start, by_members, scratch,
                most[c], layouts[c], mine, free,
            )
            if counted != COUNTED:
                return counted, layouts, low, high, mine, free, scale
            counted, log_scale = scale_component(c, members, layouts, mine, free, low, high,
                                                 span)
            if counted != COUNTED:
                return counted, layouts, low, high, mine, free, scale
        scale += log_scale
        if not many:
            continue
        # Stored for the next full count when it fits (else that one counts it again).
        wide = high[c] - low[c] + 1
        size = _HEAD + last - first + wide * (1 + 2 * len(members))
        if written + size <= half:
            at = base + written
            store[at], store[at + 1] = last - first, len(members)
            store[at + 2], store[at + 3] = low[c], high[c]
            floats[at + 4] = log_scale
            for k in range(last - first):
                store[at + _HEAD + k] = keys[first + k]
            data = at + _HEAD + last - first
            for k in range(low[c], high[c] + 1):
                floats[data] = layouts[c, k]
                data += 1
            for g in members:
                for k in range(low[c], high[c] + 1):
                    floats[data] = mine[g, k]
                    floats[data + 1] = free[g, k]
                    data += 2
            index[keys[first] >> 13] = (last_count + 1) << 32 | written
            written += size
    return COUNTED, layouts, low, high, mine, free, scale


@njit(cache=True)
def _full_count_kept(flat, height, width, total, left, covered, codes, probabilities, track):
    """:func:`~.complete_proof_compiled.full_count` (a known total) on the kept constraints, which
    describe the view (``left`` mines not flagged, ``covered`` cells covered); returns its
    status and how many cells it decided.

    The same groups, counts, codes and probabilities: only the reading differs (the
    frontier from the kept masks), and the cells off the frontier are written by one pass
    over the board instead of a list of them.
    """
    cells, keys, key_of, constraint_at, needs, numbers, constraint_count = _kept_frontier(
        height, width, covered, track
    )
    cells, start, order, group_start, setup = set_up_groups(
        cells, keys, height, width, constraint_at, needs, constraint_count
    )
    status, layouts, low, high, mine, free, scale = _count_kept(
        order, group_start, setup, numbers, constraint_count, width, track
    )
    if status != COUNTED:
        return DEFER, 0
    groups = len(start) - 1
    off_count = covered - len(cells)
    w_mine = np.zeros(groups + 1)
    w_free = np.zeros(groups + 1)
    status, _ = combine_groups(total, off_count, left, order, group_start, layouts, low, high,
                               mine, free, w_mine, w_free, scale)
    if status != COUNTED:
        return DEFER, 0
    # As decide_weighed: a cell is decided when its weight one way is exactly 0 (codes
    # hold 0 on every cell here, so only decided groups are written).
    decided = 0
    for g in range(groups):
        code = SAFE if w_mine[g] == 0.0 else MINE if w_free[g] == 0.0 else 0
        if code != 0:
            decided += start[g + 1] - start[g]
            for f in range(start[g], start[g + 1]):
                codes[cells[f]] = code
    p_group = group_probabilities(total, off_count, w_mine, w_free)
    p_off = p_group[groups]
    n = height * width
    for i in range(n):
        value = flat[i]
        probabilities[i] = p_off if value == COVERED else 0.0 if value == KNOWN_SAFE else np.nan
    for g in range(groups):
        for f in range(start[g], start[g + 1]):
            probabilities[cells[f]] = p_group[g]
    if off_count > 0:
        code = SAFE if w_mine[groups] == 0.0 else MINE if w_free[groups] == 0.0 else 0
        if code != 0:
            decided += off_count
            for i in range(n):
                if flat[i] == COVERED and key_of[i] < 0:
                    codes[i] = code
    return FULL, decided

