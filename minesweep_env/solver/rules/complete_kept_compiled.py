"""Compiled auto-solver of rule set ``complete`` that keeps a game's constraints between calls.

:func:`~.complete_play_compiled.probe_play_out_into` reads the whole board in every round
(every number's need and covered cells) and looks at every number and every
pair of numbers again, although a probe and a round change a few cells. Here a
game's constraints are kept between rounds and between calls: per number the
mines it still needs and its covered cells (a 9-bit mask of its window), with a
copy of the view they describe (``seen``). A call brings them up to date with
the cells that changed (the probe's flood, each round's flags and openings), and
the cheap rules look only at the numbers around those cells (a work list), as
:mod:`~minesweep_env.solver.rules.complete`'s Python path does with its dirty
numbers. A view that differs from ``seen`` (a new game, a hand flag, a round the
Python path played) is read afresh.

Same proofs, so the same games: the cheap rules only ever add decided cells and
each rule holds whatever else is decided, so their fixed point does not depend
on the order they are tried in; a number or a pair that proved nothing proves
nothing until one of its numbers changes, so looking only at changed numbers
reaches the same fixed point. The full count runs, as in
:func:`~.complete_proof_compiled.prove_flat`, exactly when that fixed point is empty,
and every round flags and opens in increasing cell order.

The full count keeps its counts too: a component whose constraints are exactly
those of a component the game's last full count counted takes that count's
floats, so a probe recounts only the components it changed; that count, and the
rows of the ``track`` array the constraints are kept in, are
:mod:`.complete_kept_count_compiled`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...core.cells import COVERED, FLAGGED
from ..probability.counting_groups_compiled import read_window
from .complete_kept_count_compiled import (  # noqa: F401 - the rows and the count, named here too
    _HEAD,
    CHANGED,
    CODES,
    COUNTED_AT,
    DECIDED,
    IN_CHANGED,
    IN_PAIRS,
    LISTED,
    LONE,
    MARKED,
    MARKS,
    MASK,
    NEED,
    PAIRS,
    SORTED_FRONTIER,
    STACK,
    STORE_ROWS,
    TRACK_ROWS,
    UNSEEN,
    WORK,
    _constraint_keys,
    _count_kept,
    _full_count_kept,
    _kept_frontier,
    _stored_at,
    sort_prefix,
)
from .complete_play_compiled import _probe_signature, flood_flat, proof_could_lose
from .complete_proof_compiled import (
    _POPCOUNT,
    _SHARED,
    CHEAP,
    DEFER,
    MAX_COVERED,
    MINE,
    SAFE,
    _mark_bits,
    pair_rule,
)


@njit(cache=True, inline="always")
def _inside(y, x, height, width):
    """Whether cell (y, x) has all eight neighbours on the board: its window is then read
    at fixed offsets, with no bounds to check."""
    return 0 < y < height - 1 and 0 < x < width - 1


@njit(cache=True)
def _window(cell, flat, height, width):
    """:func:`~counting_groups_compiled.read_window` (the same returns), for a cell inside
    the board by nine loads and no branches: the window of every cell a cascade opens is
    read."""
    y, x = cell // width, cell % width
    if not _inside(y, x, height, width):
        return read_window(cell, flat, height, width)
    mask = 0
    flagged = 0
    for bit in range(9):
        value = flat[cell + (bit // 3 - 1) * width + bit % 3 - 1]
        mask |= np.int64(value == COVERED) << bit
        flagged += value == FLAGGED
    return _POPCOUNT[mask], flagged, mask


@njit(cache=True)
def _refresh(cell, flat, height, width, track):
    """Read number ``cell``'s need and covered mask from the view; False when the
    number cannot hold (more flags around it than it says, or too few covered cells)."""
    value = np.int64(flat[cell])
    room, flagged, mask = _window(cell, flat, height, width)
    track[NEED, cell] = value - flagged
    track[MASK, cell] = mask
    return 0 <= value - flagged <= room


@njit(cache=True)
def _read_all(flat, height, width, track):
    """Every number's constraint read afresh, all of them on the work lists; returns
    how many are listed, or -1 when a number cannot hold."""
    listed = 0
    for i in range(height * width):
        track[MASK, i] = 0
        if flat[i] < 0:
            continue
        if not _refresh(i, flat, height, width, track):
            return -1
        if track[MASK, i] != 0:
            track[LONE, listed] = i
            track[PAIRS, listed] = i
            track[IN_PAIRS, i] = 1
            listed += 1
    return listed


@njit(cache=True)
def _note_around(cells, first, last, flat, height, width, track, count):
    """Add to ``track[WORK]`` (``count`` entries so far) the numbers in the windows of
    ``cells[first:last]``, the cells that changed; returns the new count."""
    for k in range(first, last):
        cell = cells[k]
        y, x = cell // width, cell % width
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                number = ny * width + nx
                if flat[number] >= 0 and not track[LISTED, number]:
                    track[LISTED, number] = 1
                    track[WORK, count] = number
                    count += 1
    return count


@njit(cache=True)
def _reread(count, flat, height, width, track):
    """The ``count`` numbers of ``track[WORK]`` read afresh and those with covered cells
    put on the work lists; returns how many, or -1 when one cannot hold."""
    listed = 0
    ok = True
    for k in range(count):
        number = track[WORK, k]
        track[LISTED, number] = 0
        ok &= _refresh(number, flat, height, width, track)
        if track[MASK, number] != 0:
            track[LONE, listed] = number
            track[PAIRS, listed] = number
            track[IN_PAIRS, number] = 1
            listed += 1
    return listed if ok else -1


@njit(cache=True)
def _pairs_of(listed, height, width, track):
    """Each listed number with each number sharing an undecided cell with it (as
    :func:`~.complete_proof_compiled._pairs` proves them, its reference; held equal by
    ``tests/minesweep_env/solver/rules/test_kept_constraints_compiled.py``); returns how
    many cells it marked."""
    need, masks, marks, marked = track[NEED], track[MASK], track[MARKS], track[MARKED]
    count = 0
    for k in range(listed):
        pa = track[PAIRS, k]
        mask_a = masks[pa]
        if mask_a == 0:
            continue
        ya, xa = pa // width, pa % width
        for ny in range(max(ya - 2, 0), min(ya + 3, height)):
            for nx in range(max(xa - 2, 0), min(xa + 3, width)):
                pb = ny * width + nx
                # Two listed numbers make their pair once, from the first of them.
                if pb == pa or masks[pb] == 0 or (pb < pa and track[IN_PAIRS, pb]):
                    continue
                # A pair sharing no covered cell proves nothing (pair_rule's first test,
                # made here: a call costs four atomic reference-count updates).
                if mask_a & _SHARED[ny - ya + 2, nx - xa + 2] == 0:
                    continue
                count = pair_rule(mask_a, masks[pb], need[pa], need[pb], pa, pb, ny - ya,
                                  nx - xa, width, marks, marked, count)
    return count


@njit(cache=True, inline="always")
def _decide_in_masks(cell, mine, height, width, track, changed, bad):
    """Take decided ``cell`` out of the covered masks of the numbers around it (a mine
    out of their needs too), listing them in ``track[CHANGED]`` (``changed`` so far);
    returns the new count and ``bad``, True once such a number cannot hold."""
    need, masks = track[NEED], track[MASK]
    y, x = cell // width, cell % width
    if _inside(y, x, height, width):
        for k in range(9):
            c = cell + (k // 3 - 1) * width + k % 3 - 1
            if masks[c] == 0:
                continue
            # The cell is at the mirrored offset from that number: bit 8 - k.
            masks[c] &= ~(1 << (8 - k))
            need[c] -= mine
            bad |= not 0 <= need[c] <= _POPCOUNT[masks[c]]
            if not track[IN_CHANGED, c]:
                track[IN_CHANGED, c] = 1
                track[CHANGED, changed] = c
                changed += 1
        return changed, bad
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            c = ny * width + nx
            if masks[c] == 0:
                continue
            # The cell is at (y - ny, x - nx) from that number.
            masks[c] &= ~(1 << ((y - ny + 1) * 3 + x - nx + 1))
            need[c] -= mine
            bad |= not 0 <= need[c] <= _POPCOUNT[masks[c]]
            if not track[IN_CHANGED, c]:
                track[IN_CHANGED, c] = 1
                track[CHANGED, changed] = c
                changed += 1
    return changed, bad


@njit(cache=True)
def _cheap_rounds(flat, height, width, has_total, left, covered, listed, track):
    """The cheap rules' fixed point from the listed numbers: :data:`SAFE` / :data:`MINE`
    bits into ``track[CODES]`` and the decided cells listed in ``track[DECIDED]`` (the
    kept constraints lose the decided cells as they go, as the board will once the round
    is played). Returns how many cells it decided, and whether a number it changed can
    no longer hold (as a fresh read of that number after the round would find: its need
    only falls with its covered cells, so a number that fails once fails at the end).

    As :func:`~.complete_proof_compiled.prove_flat`'s rounds: the bare mine count, else each
    number alone, and only when those find nothing, each pair; numbers alone are
    looked at when they changed, pairs when one of them changed since pairs last ran.
    A compiled copy of the one-number and pair rules:
    :func:`~.complete_proof_compiled.prove_flat` is its reference, and
    ``tests/minesweep_env/solver/rules/test_kept_constraints_compiled.py`` holds the two
    probes equal.
    """
    need, masks, marks, marked, codes = (
        track[NEED], track[MASK], track[MARKS], track[MARKED], track[CODES]
    )
    lone = listed
    pairs = listed
    decided = 0
    bad = False
    while True:
        count = 0
        pairs_round = False
        if has_total and (left == 0 or left == covered):
            code = SAFE if left == 0 else MINE
            for i in range(height * width):
                if flat[i] == COVERED and codes[i] == 0:
                    marks[i] = code
                    marked[count] = i
                    count += 1
        else:
            for k in range(lone):
                c = track[LONE, k]
                mask = masks[c]
                if mask != 0:
                    if need[c] == 0:
                        count = _mark_bits(mask, c, width, SAFE, marks, marked, count)
                    elif need[c] == _POPCOUNT[mask]:
                        count = _mark_bits(mask, c, width, MINE, marks, marked, count)
            if count == 0:
                pairs_round = True
                count = _pairs_of(pairs, height, width, track)
        if pairs_round:
            for k in range(pairs):
                track[IN_PAIRS, track[PAIRS, k]] = 0
            pairs = 0
        if count == 0:
            for k in range(pairs):
                track[IN_PAIRS, track[PAIRS, k]] = 0
            return decided, bad
        changed = 0
        mines = 0
        for k in range(count):
            cell = marked[k]
            mark = marks[cell]
            marks[cell] = 0
            codes[cell] |= mark
            track[DECIDED, decided + k] = cell
            if mark & MINE:
                mines += 1
            changed, bad = _decide_in_masks(cell, mark & MINE != 0, height, width, track,
                                            changed, bad)
        decided += count
        covered -= count
        left -= mines
        for k in range(changed):
            c = track[CHANGED, k]
            track[IN_CHANGED, c] = 0
            track[LONE, k] = c
            if not track[IN_PAIRS, c]:
                track[IN_PAIRS, c] = 1
                track[PAIRS, pairs] = c
                pairs += 1
        lone = changed


@njit(cache=True, inline="always")
def _open_in_masks(cell, height, width, track, count, ok):
    """Take opened ``cell`` (not decided by the cheap rules) out of the covered masks of
    the numbers around it, listing them in ``track[WORK]`` (``count`` so far); returns
    the new count and ``ok``, False once such a number cannot hold."""
    need, masks = track[NEED], track[MASK]
    y, x = cell // width, cell % width
    if _inside(y, x, height, width):
        for k in range(9):
            number = cell + (k // 3 - 1) * width + k % 3 - 1
            # The cell is at the mirrored offset from that number: bit 8 - k.
            bit = 1 << (8 - k)
            if masks[number] & bit:
                masks[number] &= ~bit
                ok &= need[number] <= _POPCOUNT[masks[number]]
                if not track[LISTED, number]:
                    track[LISTED, number] = 1
                    track[WORK, count] = number
                    count += 1
        return count, ok
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            number = ny * width + nx
            # The cell is at (y - ny, x - nx) from that number.
            bit = 1 << ((y - ny + 1) * 3 + x - nx + 1)
            if masks[number] & bit:
                masks[number] &= ~bit
                # A safe cell gone: the need stays, the room shrinks.
                ok &= need[number] <= _POPCOUNT[masks[number]]
                if not track[LISTED, number]:
                    track[LISTED, number] = 1
                    track[WORK, count] = number
                    count += 1
    return count, ok


@njit(cache=True)
def _take_in_opened(opened, first, last, flat, height, width, track):
    """Bring the kept constraints up to date with the cells ``opened[first:last]`` that
    just opened, and list the numbers that changed, as :func:`_reread` of the numbers
    around them would: the same constraints, the same verdict, the numbers listed.

    A cell with the :data:`SAFE` code was decided by the cheap rules, which took it out
    of its numbers already; any other (the probe, a zero's flood) leaves the covered
    cells of the numbers around it here. Every opened cell is a new number, read from
    the view. Returns how many numbers are listed, or -1 when a changed one cannot hold.
    """
    masks, codes = track[MASK], track[CODES]
    count = 0
    ok = True
    # One pass: a cell opened here is covered (mask 0) until its own turn reads its
    # window, in which every cell opened here is open already, so no order of the cells
    # sees another's half-done state.
    for k in range(first, last):
        cell = opened[k]
        if not codes[cell] & SAFE:
            count, ok = _open_in_masks(cell, height, width, track, count, ok)
        ok &= _refresh(cell, flat, height, width, track)
        if not track[LISTED, cell]:
            track[LISTED, cell] = 1
            track[WORK, count] = cell
            count += 1
    listed = 0
    for k in range(count):
        number = track[WORK, k]
        track[LISTED, number] = 0
        if masks[number] != 0:
            track[LONE, listed] = number
            track[PAIRS, listed] = number
            track[IN_PAIRS, number] = 1
            listed += 1
    return listed if ok else -1


SORTED_DECISIONS = 48
"""Decided cells up to which a round plays them from their sorted list; a longer list
is played by a pass over the board (the same cells in the same order)."""



@njit(cache=True)
def _listed_could_lose(track, decided, mines):
    """:func:`~.complete_play_compiled.proof_could_lose` when only the listed decided cells
    have codes."""
    codes = track[CODES]
    for k in range(decided):
        cell = track[DECIDED, k]
        if (codes[cell] & SAFE and mines[cell]) or codes[cell] == SAFE | MINE:
            return True
    return False


@njit(cache=True)
def _view_counts(flat, seen):
    """Whether the view is the one the kept constraints describe, and its flags and covered
    cells: one pass with no early exit, which compiles to vector code."""
    differ = 0
    flags = 0
    covered = 0
    for i in range(len(flat)):
        value = flat[i]
        differ |= value ^ seen[i]
        flags += value == FLAGGED
        covered += value == COVERED
    return differ == 0, flags, covered


@njit(cache=True)
def probe_play_tracked(view, mines, numbers, cell, total, nothing_covered, safe_left,
                       opened, flagged, probabilities, seen, track):
    """:func:`~.complete_play_compiled.probe_play_out_into` (same arguments, same returns, the same
    cells opened and flagged in the same order) with the game's constraints kept.

    :param seen: int8 (H * W): the view ``track`` describes, kept by the caller
        between calls (any contents at first: a view that differs is read afresh).
    :param track: int64 (:data:`TRACK_ROWS`, H * W), kept with ``seen``.
    """
    if mines[cell]:
        return CHEAP, 0, 0, safe_left, False, True
    height, width = view.shape
    n = height * width
    flat = view.reshape(n)
    kept, flags, covered = _view_counts(flat, seen)
    seen[0] = UNSEEN  # until the constraints describe the view again
    stack = track[STACK]
    count = flood_flat(cell, flat, height, width, numbers, opened, 0, stack)
    safe_left -= count
    covered -= count
    won = safe_left == 0
    if won and nothing_covered:
        won = covered == 0
    if won:
        return CHEAP, count, 0, safe_left, True, False
    if kept:
        # The last call left the flag rows all 0 (it ended with the view kept).
        listed = _take_in_opened(opened, 0, count, flat, height, width, track)
    else:
        for row in range(LISTED, CODES + 1):
            track[row, :] = 0
        listed = _read_all(flat, height, width, track)
    left = total - flags
    if listed < 0 or left < 0:
        return DEFER, count, 0, safe_left, False, False
    flags_set = 0
    codes = track[CODES]
    while True:
        status = CHEAP
        decided, bad = _cheap_rounds(flat, height, width, True, left, covered, listed, track)
        # A short list of cheap decisions is played from the list, sorted; a full count's
        # (which decides by writing every cell's code) or a long list, by a board pass.
        short = 0 < decided <= SORTED_DECISIONS
        if decided == 0:
            if covered > MAX_COVERED:
                return DEFER, count, flags_set, safe_left, False, False
            status, proven = _full_count_kept(flat, height, width, total, left, covered, codes,
                                              probabilities, track)
            if status == DEFER:
                return DEFER, count, flags_set, safe_left, False, False
            if proven == 0:  # a full count that proves nothing: the view stays as it is
                seen[:] = flat
                return status, count, flags_set, safe_left, False, False
        if short:
            if _listed_could_lose(track, decided, mines):
                return DEFER, count, flags_set, safe_left, False, False
        elif proof_could_lose(codes, mines, n):
            return DEFER, count, flags_set, safe_left, False, False
        first_flag = flags_set
        before = count
        if short:
            sort_prefix(track[DECIDED], decided)
            for k in range(decided):
                i = track[DECIDED, k]
                if codes[i] & MINE and flat[i] == COVERED:
                    flat[i] = FLAGGED
                    flagged[flags_set] = i
                    flags_set += 1
            for k in range(decided):
                i = track[DECIDED, k]
                if codes[i] & SAFE and flat[i] < 0 and flat[i] != FLAGGED:
                    count = flood_flat(i, flat, height, width, numbers, opened, count, stack)
        else:
            for i in range(n):
                if codes[i] & MINE and flat[i] == COVERED:
                    flat[i] = FLAGGED
                    flagged[flags_set] = i
                    flags_set += 1
            for i in range(n):
                if codes[i] & SAFE and flat[i] < 0 and flat[i] != FLAGGED:
                    count = flood_flat(i, flat, height, width, numbers, opened, count, stack)
        safe_left -= count - before
        covered -= count - before + flags_set - first_flag
        left -= flags_set - first_flag
        won = safe_left == 0
        if won and nothing_covered:
            won = covered == 0
        if won or (count == before and flags_set == first_flag):
            # Won, or only a full count proves nothing: the kept constraints describe the
            # view when no cell changed.
            if short:
                for k in range(decided):
                    codes[track[DECIDED, k]] = 0
            else:
                codes[:] = 0
            if not won:
                seen[:] = flat
            return status, count, flags_set, safe_left, won, False
        if decided > 0:
            # The cheap rules took their decisions out of the kept constraints already.
            listed = _take_in_opened(opened, before, count, flat, height, width, track)
            if bad:
                listed = -1
        else:
            changed = _note_around(flagged, first_flag, flags_set, flat, height, width, track, 0)
            changed = _note_around(opened, before, count, flat, height, width, track, changed)
            listed = _reread(changed, flat, height, width, track)
        if short:
            for k in range(decided):
                codes[track[DECIDED, k]] = 0
        else:
            codes[:] = 0
        if listed < 0 or left < 0:
            return DEFER, count, flags_set, safe_left, False, False


def _signature(mines_readonly: bool) -> tuple:
    """:func:`~.complete_play_compiled.probe_play_out_into`'s arguments, then ``seen`` and
    ``track``."""
    return _probe_signature(mines_readonly) + (
        types.Array(types.int8, 1, "C"),
        types.Array(types.int64, 2, "C"),
    )


SIGNATURES = (_signature(True), _signature(False))
"""The signatures ``Complete.probe_and_play_out`` calls :func:`probe_play_tracked` with (a
layout's mines are read-only, or writable when given non-contiguous)."""


def compile_kernels() -> None:
    """Compile :func:`probe_play_tracked` for :data:`SIGNATURES` (the warm-up does, so numba's
    cache holds them and no game compiles them)."""
    for signature in SIGNATURES:
        if signature not in probe_play_tracked.overloads:
            probe_play_tracked.compile(signature)
