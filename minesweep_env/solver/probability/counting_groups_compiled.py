"""The compiled count's first steps: a position read into constraints, groups and components.

Steps 1-3 of :mod:`.counting_compiled` (whose docstring gives the whole method):
every number still touching a covered cell becomes a constraint; covered cells
touching exactly the same constraints form a group, found by sorting a key that
names that set of constraints; constraints sharing a group are joined
(union-find) into components. :mod:`.frontier` is the exact engine's reading and
the reference (see :mod:`.counting_compiled` for the tests holding them equal).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cells import COVERED, FLAGGED, KNOWN_SAFE
from .counting_constants import _GOLDEN


@njit(cache=True)
def read_window(cell, flat, height, width):
    """What number ``cell``'s 3x3 window holds: its covered cells (how many, and as a
    9-bit mask, bit ``(dy + 1) * 3 + dx + 1``) and its flags. One reading for the
    count, the stateless proof and the tracked constraints, so all see a number alike."""
    y, x = cell // width, cell % width
    room = 0
    flagged = 0
    mask = 0
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            code = flat[ny * width + nx]
            if code == COVERED:
                room += 1
                mask |= 1 << ((ny - y + 1) * 3 + nx - x + 1)
            elif code == FLAGGED:
                flagged += 1
    return room, flagged, mask


@njit(cache=True)
def _read_constraints(flat, height, width, out):
    """Constraints of every number touching a covered cell; NaN / 0 written on the rest.

    :returns: (ok, constraint of each cell or -1, needs, count, flags on the board).
    """
    n = height * width
    constraint_at = np.full(n, -1, np.int64)
    needs = np.empty(n, np.int64)
    count = 0
    flags = 0
    for i in range(n):
        value = np.int64(flat[i])
        out[i] = np.nan
        if value == FLAGGED:
            flags += 1
        elif value == KNOWN_SAFE:
            out[i] = 0.0
        if value < 0:
            continue
        room, flagged, _ = read_window(i, flat, height, width)
        need = value - flagged
        if need < 0 or need > room:
            return False, constraint_at, needs, count, flags
        if room > 0:
            constraint_at[i] = count
            needs[count] = need
            count += 1
    return True, constraint_at, needs, count, flags


@njit(cache=True)
def _signature_keys(flat, height, width, constraint_at):
    """Frontier cells with a key naming the set of constraints each touches; off-frontier cells.

    The key is the flat index of the first constraint (smallest index) shifted
    left 15 bits, plus one bit per other constraint at its place in the 3x5
    window (rows 0..2, columns -2..2) that the others can occupy relative to it.
    Built from the constraints' side (each marks its covered neighbours, smallest
    index first), which touches far fewer cells than a look around every covered one.
    """
    n = height * width
    # One allocation for the four per-cell rows (see _count_component).
    rows = np.empty((4, n), np.int64)
    key_of = rows[0]
    key_of[:] = -1
    for j in range(n):
        if constraint_at[j] < 0:
            continue
        y, x = j // width, j % width
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                i = ny * width + nx
                if flat[i] != COVERED:
                    continue
                key = key_of[i]
                if key < 0:
                    key_of[i] = j << 15
                else:
                    first = key >> 15
                    first_y, first_x = first // width, first % width
                    key_of[i] = key | 1 << ((y - first_y) * 5 + x - first_x + 2)
    cells = rows[1]
    keys = rows[2]
    off = rows[3]
    frontier = 0
    off_count = 0
    for i in range(n):
        if flat[i] != COVERED:
            continue
        if key_of[i] < 0:
            off[off_count] = i
            off_count += 1
        else:
            cells[frontier] = i
            keys[frontier] = key_of[i]
            frontier += 1
    return cells[:frontier], keys[:frontier], off[:off_count]


@njit(cache=True)
def _groups(cells, keys, height, width, constraint_at):
    """Cells reordered so each group is a run; per group its start, size and constraints.

    Keys are grouped through a small open-addressing table (a sort would cost more
    to compile than to run).
    """
    count = len(cells)
    bits = 4
    while (1 << bits) < 2 * count:
        bits += 1
    mask = (1 << bits) - 1
    table = np.empty((2, 1 << bits), np.int64)
    table_keys = table[0]
    table_groups = table[1]
    table_groups[:] = -1
    per_cell = np.empty((3, count), np.int64)
    group_of = per_cell[0]
    first_cell = per_cell[1]
    start = np.zeros(count + 1, np.int64)
    groups = 0
    for f in range(count):
        key = keys[f]
        h = ((key * _GOLDEN) >> (64 - bits)) & mask
        while table_groups[h] >= 0 and table_keys[h] != key:
            h = (h + 1) & mask
        if table_groups[h] < 0:
            table_keys[h] = key
            table_groups[h] = groups
            first_cell[groups] = cells[f]
            groups += 1
        group_of[f] = table_groups[h]
        start[group_of[f] + 1] += 1
    for g in range(groups):
        start[g + 1] += start[g]
    fill = start[:groups].copy()
    ordered = per_cell[2]
    for f in range(count):
        ordered[fill[group_of[f]]] = cells[f]
        fill[group_of[f]] += 1
    touches = np.empty((groups, 8), np.int64)
    touch_count = np.zeros(groups, np.int64)
    for g in range(groups):
        i = first_cell[g]
        y, x = i // width, i % width
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                c = constraint_at[ny * width + nx]
                if c >= 0:
                    touches[g, touch_count[g]] = c
                    touch_count[g] += 1
    return ordered, start[: groups + 1], touches, touch_count


@njit(cache=True)
def _root(parent, c):
    while parent[c] != c:
        parent[c] = parent[parent[c]]
        c = parent[c]
    return c


@njit(cache=True)
def _components(constraint_count, touches, touch_count):
    """Groups listed component by component: (groups in order, start of each component)."""
    groups = len(touch_count)
    parent = np.arange(constraint_count)
    for g in range(groups):
        first = _root(parent, touches[g, 0])
        for t in range(1, touch_count[g]):
            other = _root(parent, touches[g, t])
            if other != first:
                parent[other] = first
    label = np.full(constraint_count, -1, np.int64)
    components = 0
    component_of = np.empty(groups, np.int64)
    for g in range(groups):
        r = _root(parent, touches[g, 0])
        if label[r] < 0:
            label[r] = components
            components += 1
        component_of[g] = label[r]
    start = np.zeros(components + 1, np.int64)
    for g in range(groups):
        start[component_of[g] + 1] += 1
    for c in range(components):
        start[c + 1] += start[c]
    fill = start[:components].copy()
    order = np.empty(groups, np.int64)
    for g in range(groups):
        order[fill[component_of[g]]] = g
        fill[component_of[g]] += 1
    return order, start


@njit(cache=True)
def _groups_by_constraint(constraint_count, touches, touch_count):
    """CSR lists: the groups touching each constraint."""
    start = np.zeros(constraint_count + 1, np.int64)
    for g in range(len(touch_count)):
        for t in range(touch_count[g]):
            start[touches[g, t] + 1] += 1
    for c in range(constraint_count):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    members = np.empty(start[constraint_count], np.int64)
    for g in range(len(touch_count)):
        for t in range(touch_count[g]):
            c = touches[g, t]
            members[fill[c]] = g
            fill[c] += 1
    return start, members


@njit(cache=True)
def set_up_groups(cells, keys, height, width, constraint_at, needs, constraint_count):
    """The end of :func:`_set_up_read` from the frontier's cells (increasing) and keys
    (:func:`_signature_keys`): the groups, the components, and what counting them needs.

    :returns: (cells, start, order, group_start, setup) as :func:`_set_up` names them.
    """
    cells, start, touches, touch_count = _groups(cells, keys, height, width, constraint_at)
    group_count = len(touch_count)
    sizes = np.empty(group_count, np.int64)
    for g in range(group_count):
        sizes[g] = start[g + 1] - start[g]
    order, group_start = _components(constraint_count, touches, touch_count)
    by_start, by_members = _groups_by_constraint(constraint_count, touches, touch_count)
    components = len(group_start) - 1
    # Mines a component can hold: at most its cells, and at most the sum of its needs.
    most = np.zeros(components, np.int64)
    for c in range(components):
        for f in range(group_start[c], group_start[c + 1]):
            most[c] += sizes[order[f]]
    rows = np.empty((4, max(group_count, constraint_count)), np.int64)
    scratch = (rows[0, :group_count], rows[1, :constraint_count], rows[2, :constraint_count],
               rows[3, :constraint_count])
    setup = (sizes, touches, touch_count, needs, by_start, by_members, scratch, most,
             constraint_at)
    return cells, start, order, group_start, setup
