"""The compiled count of one component: a forward and a backward pass over its groups.

Step 4 of :mod:`.counting_compiled` (whose docstring gives the whole method): the
groups in breadth-first order, a state being the remaining needs of the open
constraints packed 4 bits each into an int64, and a count being a float64
polynomial in the mines used; the backward pass gives each group's mine and free
counts. :mod:`.counting` is the exact engine's count and the reference (see
:mod:`.counting_compiled` for the tests holding them equal).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .counting_constants import _CHOOSE, _GOLDEN, BEYOND, COUNTED, MAX_OPEN, NO_LAYOUT


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
