"""Compiled (numba) kernels of the float fast path: a position in, mine probabilities out.

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

from ...core.cells import COVERED, FLAGGED, KNOWN_SAFE

OK = 0
"""The output array holds the probabilities."""
DEFER = 1
"""The fast path cannot answer: ask the exact engine."""

COUNTED = 0
"""A count's status: counted."""
NO_LAYOUT = 1
"""A count's status: no layout fits (as exact as the exact engine's verdict)."""
BEYOND = 2
"""A count's status: beyond the float count (too wide, or out of the float range)."""

MAX_OPEN = 15
"""Open constraints a DP state can hold: 4 bits each (needs are at most 8) in an int64."""

TIE_TOLERANCE = 5e-13
"""Relative gap below which two probabilities are taken as one (see :func:`_merge_ties`)."""

_GOLDEN = -7046029254386353131
"""2**64 / golden ratio, as a signed int64: the multiplier of the states' hash."""

_CHOOSE = np.array(
    [[float(np.prod(np.arange(n - k + 1, n + 1)) / np.prod(np.arange(1, k + 1))) if k <= n else 0.0
      for k in range(9)] for n in range(9)]
)
"""C(n, k) for n, k <= 8: a group has at most 8 cells (they are all around one number)."""


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
def _sweep(groups, first, local, touches, touch_count, by_start, by_members):
    """Breadth-first order of a component's groups from ``groups[first]``."""
    size = len(groups)
    seen = np.zeros(size, np.bool_)
    order = np.empty(size, np.int64)
    order[0] = first
    seen[first] = True
    head, tail = 0, 1
    while head < tail:
        g = groups[order[head]]
        head += 1
        for t in range(touch_count[g]):
            c = touches[g, t]
            for k in range(by_start[c], by_start[c + 1]):
                other = local[by_members[k]]
                if not seen[other]:
                    seen[other] = True
                    order[tail] = other
                    tail += 1
    return order


@njit(cache=True)
def _add_shifted(target, lo, hi, row, source, source_row, source_lo, source_hi, shift, factor):
    """target[row] += factor * x**shift * source[source_row] (coefficients
    source_lo..source_hi); lo/hi keep the nonzero range of each row.

    Rows are passed by index, not as row views: a view made per move costs two atomic
    reference-count updates, more than the few coefficients a move adds."""
    for k in range(source_lo, source_hi + 1):
        target[row, k + shift] += factor * source[source_row, k]
    # min/max rather than two ifs: numba then drops the arguments' reference counting
    # (five atomic operations a call, a call per move).
    lo[row] = min(lo[row], source_lo + shift)
    hi[row] = max(hi[row], source_hi + shift)


@njit(cache=True)
def _add_product(target, a, a_lo, a_hi, b, b_lo, b_hi):
    """target += a * b (polynomials given on their nonzero ranges)."""
    for i in range(a_lo, a_hi + 1):
        x = a[i]
        if x != 0.0:
            for j in range(b_lo, b_hi + 1):
                target[i + j] += x * b[j]


@njit(cache=True)
def _add_product_rows(target, target_row, a, a_row, a_lo, a_hi, b, b_row, b_lo, b_hi):
    """:func:`_add_product` on rows given by index (see :func:`_add_shifted`)."""
    for i in range(a_lo, a_hi + 1):
        x = a[a_row, i]
        if x != 0.0:
            for j in range(b_lo, b_hi + 1):
                target[target_row, i + j] += x * b[b_row, j]


@njit(cache=True)
def _count_single_group(group, sizes, touches, touch_count, needs, layouts, mine, free):
    """Every number of the component sees the same cells: C(size, need) layouts."""
    need = needs[touches[group, 0]]
    for t in range(1, touch_count[group]):
        if needs[touches[group, t]] != need:
            return False
    size = sizes[group]
    layouts[need] = _CHOOSE[size, need]
    if need > 0:
        mine[group, need] = _CHOOSE[size - 1, need - 1]
    if need < size:
        free[group, need] = _CHOOSE[size - 1, need]
    return True


@njit(cache=True)
def _count_component(
    groups, sizes, touches, touch_count, needs, by_start, by_members, scratch, most,
    layouts, mine, free,
):
    """Layouts of one component by mine count, and per group the weights of the layouts
    with (``mine``) and without (``free``) a mine on one given cell of the group.

    A component of one group is a binomial (:func:`_count_single_group`). Any other is
    counted in three steps, each its own function: an order of its groups that keeps few
    constraints open (:func:`_component_order`), a forward pass that counts the layouts
    reaching every state (:func:`_forward_pass`), and a backward pass that counts the
    layouts leaving every state and so each group's mine and free weights
    (:func:`_backward_pass`).

    :param most: the most mines the component can hold (polynomials have most + 1 terms).
    :param scratch: (local, last, room, slot): per group its place in ``groups``; per
        constraint the last step touching it, the cells it still sees, its slot in the
        state (-1: not open). Filled here.
    :returns: :data:`COUNTED`, :data:`NO_LAYOUT`, or :data:`BEYOND` (too wide).
    """
    local, last, room, slot_of = scratch
    if len(groups) == 1:
        if _count_single_group(groups[0], sizes, touches, touch_count, needs, layouts, mine, free):
            return COUNTED
        return NO_LAYOUT
    order = _component_order(groups, sizes, touches, touch_count, by_start, by_members, local,
                             last, room)
    span = most + 1
    status, forward, states, starts, moves = _forward_pass(
        groups, order, sizes, touches, touch_count, needs, last, room, slot_of, span
    )
    if status != COUNTED:
        return status
    return _backward_pass(groups, order, sizes, forward, states, starts, moves, span, layouts,
                          mine, free)


@njit(cache=True)
def _component_order(groups, sizes, touches, touch_count, by_start, by_members, local, last,
                     room):
    """The order both passes take a component's groups in, with what each constraint
    knows of it.

    A breadth-first sweep started again from where a first one ended begins at an end of
    the component, so a constraint is open (seen by some group counted and some not yet)
    over few steps and the states stay narrow. Fills ``local`` (a group's place in
    ``groups``), ``last`` (per constraint, the last step touching it) and ``room`` (per
    constraint, the cells of the component it sees).
    """
    size = len(groups)
    for i in range(size):
        local[groups[i]] = i
    order = _sweep(groups, 0, local, touches, touch_count, by_start, by_members)
    order = _sweep(groups, order[size - 1], local, touches, touch_count, by_start, by_members)
    for i in range(size):
        g = groups[i]
        for t in range(touch_count[g]):
            room[touches[g, t]] = 0
    for i in range(size):
        g = groups[order[i]]
        for t in range(touch_count[g]):
            c = touches[g, t]
            last[c] = i
            room[c] += sizes[g]
    return order


@njit(cache=True)
def _forward_pass(groups, order, sizes, touches, touch_count, needs, last, room, slot_of, span):
    """Every state reachable after each group in ``order``, with its layouts so far by
    mine count, and every move between states: what the backward pass walks back.

    A state packs the remaining needs of the open constraints, 4 bits each, into an
    int64 key; the states after step i form layer i + 1 (layer 0 holds the empty state).
    Each step is :func:`_open_after` (which constraints stay open) and
    :func:`_expand_layer` (the moves out of every state of the layer).

    :returns: (status, forward, states, starts, moves): ``forward`` float64 (rows, span)
        each row's counts; ``states`` int64 (3, rows) each row's key and the first and
        last mine count with a count; ``starts`` int64 (2, size + 2) each layer's first row
        and each step's first move; ``moves`` int64 (3, moves) each move's row, mines and
        target row. The status is :data:`NO_LAYOUT` when a step leaves no state and
        :data:`BEYOND` when more than :data:`MAX_OPEN` constraints would be open.
    """
    size = len(groups)
    for i in range(size):
        g = groups[i]
        for t in range(touch_count[g]):
            slot_of[touches[g, t]] = -1
    # Arrays of one size and kind share one allocation, a row each: an allocation costs
    # about as much as counting a small component's group, and a position has many.
    # The rows of ``small``: active, touched slot, need and room, next active, next from
    # slot and from touched, values (see _open_after and _expand_layer).
    small = np.empty((8, MAX_OPEN), np.int64)
    active = small[0]
    next_active = small[4]
    active_count = 0
    states = np.zeros((3, 64), np.int64)
    forward = np.zeros((64, span))
    states[1, :] = span
    states[2, :] = -1
    moves = np.empty((3, 64), np.int64)
    move_count = 0
    starts = np.zeros((2, size + 2), np.int64)
    layer_start = starts[0]
    move_start = starts[1]
    forward[0, 0] = 1.0
    states[1, 0] = states[2, 0] = 0
    layer_start[1] = 1
    table_bits = 6
    table = _state_table(table_bits)
    for i in range(size):
        g = groups[order[i]]
        s = sizes[g]
        next_count = _open_after(g, i, s, touches, touch_count, needs, last, room, slot_of,
                                 small, active_count)
        if next_count < 0:
            return BEYOND, forward, states, starts, moves
        first, stop = layer_start[i], layer_start[i + 1]
        bound = (stop - first) * (s + 1)
        if (1 << table_bits) < 2 * bound:
            while (1 << table_bits) < 2 * bound:
                table_bits += 1
            table = _state_table(table_bits)
        if stop + bound > states.shape[1]:
            states, forward = _grown_states(states, forward, stop, stop + bound, span)
        if move_count + bound > moves.shape[1]:
            moves = _grown_moves(moves, move_count + bound)
        rows, move_count = _expand_layer(i, first, stop, s, touch_count[g], next_count, states,
                                         forward, small, table, table_bits, moves, move_count)
        if rows == stop:
            return NO_LAYOUT, forward, states, starts, moves  # the exact engine names the number
        layer_start[i + 2] = rows
        move_start[i + 1] = move_count
        for j in range(active_count):
            slot_of[active[j]] = -1
        for j in range(next_count):
            active[j] = next_active[j]
            slot_of[next_active[j]] = j
        active_count = next_count
    return COUNTED, forward, states, starts, moves


@njit(cache=True)
def _state_table(bits):
    """An empty open-addressing table of 2**bits slots (key, row, layer stamp): it finds
    a state's row within one layer; a stamp other than the layer's marks a free slot, so
    the table serves every layer without being cleared."""
    table = np.zeros((3, 1 << bits), np.int64)
    table[2, :] = -1
    return table


@njit(cache=True)
def _grown_states(states, forward, used, needed, span):
    """``states`` and ``forward`` copied into arrays of at least ``needed`` rows (doubling,
    so growing stays linear overall); the new rows empty (no mine count)."""
    capacity = states.shape[1]
    while needed > capacity:
        capacity *= 2
    bigger_states = np.zeros((3, capacity), np.int64)
    bigger_states[1, :] = span
    bigger_states[2, :] = -1
    for k in range(3):
        for r in range(states.shape[1]):
            bigger_states[k, r] = states[k, r]
    bigger = np.zeros((capacity, span))
    for r in range(used):
        for k in range(span):
            bigger[r, k] = forward[r, k]
    return bigger_states, bigger


@njit(cache=True)
def _grown_moves(moves, needed):
    """``moves`` copied into an array of at least ``needed`` moves (doubling)."""
    capacity = moves.shape[1]
    while needed > capacity:
        capacity *= 2
    bigger = np.zeros((3, capacity), np.int64)
    for k in range(3):
        for m in range(moves.shape[1]):
            bigger[k, m] = moves[k, m]
    return bigger


@njit(cache=True)
def _open_after(g, i, s, touches, touch_count, needs, last, room, slot_of, small, active_count):
    """Step ``i`` counts group ``g`` (``s`` cells): what its constraints read, and which
    constraints are open after it (the old ones still open, in their slots, then the new).

    Writes into ``small``'s rows: per constraint of ``g`` its slot in the state (-1: not
    open before), its need and the cells it still sees after ``g``; per constraint open
    after ``g`` its index, the slot it comes from and its place among ``g``'s constraints
    (-1: ``g`` does not touch it). Returns how many are open after ``g``, or -1 when
    more than :data:`MAX_OPEN` would be (the state does not fit an int64).
    """
    active = small[0]
    touched_slot = small[1]
    touched_need = small[2]
    touched_room = small[3]
    next_active = small[4]
    next_from_slot = small[5]
    next_from_touched = small[6]
    touched = touch_count[g]
    for t in range(touched):
        c = touches[g, t]
        room[c] -= s
        touched_slot[t] = slot_of[c]
        touched_need[t] = needs[c]
        touched_room[t] = room[c]
    next_count = 0
    for j in range(active_count):
        c = active[j]
        if last[c] > i:
            next_active[next_count] = c
            next_from_slot[next_count] = j
            next_from_touched[next_count] = -1
            for t in range(touched):
                if touches[g, t] == c:
                    next_from_touched[next_count] = t
            next_count += 1
    for t in range(touched):
        c = touches[g, t]
        if touched_slot[t] < 0 and last[c] > i:
            if next_count == MAX_OPEN:
                return -1
            next_active[next_count] = c
            next_from_slot[next_count] = 0  # unread: its value comes from the group
            next_from_touched[next_count] = t
            next_count += 1
    return next_count


@njit(cache=True)
def _expand_layer(i, first, stop, s, touched, next_count, states, forward, small, table,
                  table_bits, moves, move_count):
    """Every move out of layer ``i``'s states (rows ``first`` to ``stop``): each count of
    mines the group's ``s`` cells can take under the state's remaining needs leads to a
    state of the next layer, found or added from row ``stop`` on, whose counts gain the
    row's shifted by the mines and times C(s, mines). Each move is recorded in ``moves``.

    ``states``, ``forward`` and ``moves`` have room for every move (the caller grew
    them); ``small`` holds what :func:`_open_after` wrote. Returns (rows, move_count):
    the next free row (``stop`` when no state has a move: no layout) and moves.
    """
    keys = states[0]
    lo = states[1]
    hi = states[2]
    touched_slot = small[1]
    touched_need = small[2]
    touched_room = small[3]
    next_from_slot = small[5]
    next_from_touched = small[6]
    values = small[7]
    table_keys = table[0]
    table_rows = table[1]
    table_stamp = table[2]
    move_from = moves[0]
    move_mines = moves[1]
    move_to = moves[2]
    mask = (1 << table_bits) - 1
    rows = stop
    for r in range(first, stop):
        key = keys[r]
        low, high = 0, s
        for t in range(touched):
            slot = touched_slot[t]
            remaining = (key >> (4 * slot)) & 15 if slot >= 0 else touched_need[t]
            values[t] = remaining
            if remaining - touched_room[t] > low:
                low = remaining - touched_room[t]
            if remaining < high:
                high = remaining
        for mines in range(low, high + 1):
            next_key = 0
            for j in range(next_count):
                t = next_from_touched[j]
                kept = (key >> (4 * next_from_slot[j])) & 15
                next_key |= (values[t] - mines if t >= 0 else kept) << (4 * j)
            h = ((next_key * _GOLDEN) >> (64 - table_bits)) & mask
            while table_stamp[h] == i and table_keys[h] != next_key:
                h = (h + 1) & mask
            if table_stamp[h] != i:
                table_stamp[h] = i
                table_keys[h] = next_key
                table_rows[h] = rows
                keys[rows] = next_key
                rows += 1
            target = table_rows[h]
            _add_shifted(forward, lo, hi, target, forward, r, lo[r], hi[r], mines,
                         _CHOOSE[s, mines])
            move_from[move_count] = r
            move_mines[move_count] = mines
            move_to[move_count] = target
            move_count += 1
    return rows, move_count


@njit(cache=True)
def _backward_pass(groups, order, sizes, forward, states, starts, moves, span, layouts, mine,
                   free):
    """Walk the forward pass's moves back from the last layer: the layouts leaving each
    state by mine count, and, for every group, its mine and free weights (the layouts
    reaching a state times those leaving it through a move with, or without, a mine on
    one given cell of the group). Writes ``layouts``, ``mine`` and ``free``; returns
    :data:`COUNTED`, or :data:`NO_LAYOUT` when no layout reaches the end.
    """
    lo = states[1]
    hi = states[2]
    layer_start = starts[0]
    move_start = starts[1]
    move_from = moves[0]
    move_mines = moves[1]
    move_to = moves[2]
    size = len(groups)
    rows = layer_start[size + 1]
    backward = np.zeros((rows, span))
    back_bounds = np.empty((2, rows), np.int64)
    back_lo = back_bounds[0]
    back_hi = back_bounds[1]
    back_lo[:] = span
    back_hi[:] = -1
    backward[rows - 1, 0] = 1.0
    back_lo[rows - 1] = back_hi[rows - 1] = 0
    widest = 0
    for i in range(size):
        widest = max(widest, layer_start[i + 1] - layer_start[i])
    mined_spared = np.zeros((2, widest, span))
    mined = mined_spared[0]
    spared = mined_spared[1]
    bounds = np.empty((4, widest), np.int64)
    mined_lo = bounds[0]
    mined_hi = bounds[1]
    spared_lo = bounds[2]
    spared_hi = bounds[3]
    for i in range(size - 1, -1, -1):
        g = groups[order[i]]
        s = sizes[g]
        first = layer_start[i]
        count = layer_start[i + 1] - first
        mined[:count] = 0.0
        spared[:count] = 0.0
        mined_lo[:count] = spared_lo[:count] = span
        mined_hi[:count] = spared_hi[:count] = -1
        for m in range(move_start[i], move_start[i + 1]):
            r, mines, target = move_from[m], move_mines[m], move_to[m]
            if back_hi[target] < 0:
                continue
            t_lo, t_hi = back_lo[target], back_hi[target]
            _add_shifted(backward, back_lo, back_hi, r, backward, target, t_lo, t_hi, mines,
                         _CHOOSE[s, mines])
            if mines > 0:
                _add_shifted(mined, mined_lo, mined_hi, r - first, backward, target, t_lo, t_hi,
                             mines, _CHOOSE[s - 1, mines - 1])
            if mines < s:
                _add_shifted(spared, spared_lo, spared_hi, r - first, backward, target, t_lo,
                             t_hi, mines, _CHOOSE[s - 1, mines])
        for r in range(count):
            row = first + r
            if mined_hi[r] >= 0:
                _add_product_rows(mine, g, forward, row, lo[row], hi[row],
                                  mined, r, mined_lo[r], mined_hi[r])
            if spared_hi[r] >= 0:
                _add_product_rows(free, g, forward, row, lo[row], hi[row],
                                  spared, r, spared_lo[r], spared_hi[r])
    if back_hi[0] < 0:
        return NO_LAYOUT
    for k in range(span):
        layouts[k] = backward[0, k]
    return COUNTED


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
