"""The no-guess generator's cheap rules in one compiled call (see ``generator_check.py``).

Most random layouts the generator draws fail, and most of a failing layout's cost
was the Python play of openings, the one-cell rules and the two-number rule
before the first stall. :func:`settle` plays exactly those rules, knowing the
layout, until none applies; the caller asks the rule set only at that stall.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

COVERED = -1
FLAGGED = -2


@njit(cache=True)
def _open(cell, mines, numbers, view, covered, work, queued, top, height, width):
    """Open ``cell`` if covered (zeros flood); returns the new worklist top, or -1 when a
    cell to open holds a mine. ``top`` counts the cells on ``work`` (numbers to look at)."""
    if view[cell] != COVERED:
        return top
    if mines[cell]:
        return -1
    flood = np.empty(height * width, np.int64)
    size = 1
    flood[0] = cell
    view[cell] = numbers[cell]
    while size:
        size -= 1
        c = flood[size]
        y, x = c // width, c % width
        if covered[c] and not queued[c]:
            queued[c] = True
            work[top] = c
            top += 1
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                n = ny * width + nx
                if n == c:
                    continue
                covered[n] -= 1
                if view[n] == COVERED:
                    if numbers[c] == 0:
                        view[n] = numbers[n]
                        flood[size] = n
                        size += 1
                elif view[n] >= 0 and covered[n] and not queued[n]:
                    queued[n] = True
                    work[top] = n
                    top += 1
    return top


@njit(cache=True)
def _flag(cell, view, covered, missing, work, queued, top, height, width):
    """Flag ``cell`` if covered; returns the new worklist top."""
    if view[cell] != COVERED:
        return top
    view[cell] = FLAGGED
    y, x = cell // width, cell % width
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            n = ny * width + nx
            if n == cell:
                continue
            covered[n] -= 1
            missing[n] -= 1
            if view[n] >= 0 and covered[n] and not queued[n]:
                queued[n] = True
                work[top] = n
                top += 1
    return top


@njit(cache=True)
def _pair_pass(mines, numbers, view, covered, missing, work, queued, height, width):
    """The two-number rule on every pair of numbers sharing covered cells (with A-only
    and B-only the cells one sees and the other does not: if rem(A) - rem(B) = #A-only,
    A-only are mines and B-only safe). Returns (worklist top, cells changed); top -1 when
    a cell to open holds a mine."""
    top = 0
    changed = 0
    a_only = np.empty(8, np.int64)
    b_only = np.empty(8, np.int64)
    for a in range(height * width):
        if view[a] < 0 or not covered[a]:
            continue
        ay, ax = a // width, a % width
        for by in range(max(ay - 2, 0), min(ay + 3, height)):
            for bx in range(max(ax - 2, 0), min(ax + 3, width)):
                b = by * width + bx
                if b <= a or view[b] < 0 or not covered[b] or not covered[a]:
                    continue
                shared = 0
                na = 0
                for cy in range(max(ay - 1, 0), min(ay + 2, height)):
                    for cx in range(max(ax - 1, 0), min(ax + 2, width)):
                        if view[cy * width + cx] != COVERED:
                            continue
                        if abs(cy - by) <= 1 and abs(cx - bx) <= 1:
                            shared += 1
                        else:
                            a_only[na] = cy * width + cx
                            na += 1
                if not shared:
                    continue
                nb = 0
                for cy in range(max(by - 1, 0), min(by + 2, height)):
                    for cx in range(max(bx - 1, 0), min(bx + 2, width)):
                        if view[cy * width + cx] == COVERED and (
                            abs(cy - ay) > 1 or abs(cx - ax) > 1
                        ):
                            b_only[nb] = cy * width + cx
                            nb += 1
                for side in range(2):
                    if side == 0:
                        hit = missing[a] - missing[b] == na
                        mine_cells, nm, safe_cells, ns = a_only, na, b_only, nb
                    else:
                        hit = missing[b] - missing[a] == nb
                        mine_cells, nm, safe_cells, ns = b_only, nb, a_only, na
                    if not hit or not nm + ns:
                        continue
                    changed += nm + ns
                    for k in range(nm):
                        top = _flag(mine_cells[k], view, covered, missing, work, queued, top,
                                    height, width)
                    for k in range(ns):
                        top = _open(safe_cells[k], mines, numbers, view, covered, work, queued,
                                    top, height, width)
                        if top < 0:
                            return -1, changed
                    break  # the cells changed: the other side is looked at on the next pass
    return top, changed


@njit(cache=True)
def settle(mines, view, height, width, opens, flags):
    """Flag ``flags``, open ``opens``, then play the cheap rules until none applies.

    :param mines: flat (H * W) bool, the layout.
    :param view: flat int8 board codes (numbers, COVERED, FLAGGED), updated in place.
    :returns: safe cells still covered, or -1 when a cell to open holds a mine.
    """
    n = height * width
    numbers = np.zeros(n, np.int64)
    covered = np.zeros(n, np.int64)
    missing = np.zeros(n, np.int64)
    for i in range(n):
        y, x = i // width, i % width
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                j = ny * width + nx
                if j == i:
                    continue
                if mines[j]:
                    numbers[i] += 1
                if view[j] == COVERED:
                    covered[i] += 1
                elif view[j] == FLAGGED:
                    missing[i] -= 1
    for i in range(n):
        missing[i] += numbers[i]
    work = np.empty(n, np.int64)
    queued = np.zeros(n, np.bool_)
    top = 0
    for k in range(len(flags)):
        top = _flag(flags[k], view, covered, missing, work, queued, top, height, width)
    for k in range(len(opens)):
        top = _open(opens[k], mines, numbers, view, covered, work, queued, top, height, width)
        if top < 0:
            return -1
    while True:
        while top:
            top -= 1
            cell = work[top]
            queued[cell] = False
            if not covered[cell]:
                continue
            y, x = cell // width, cell % width
            if missing[cell] == 0:
                for ny in range(max(y - 1, 0), min(y + 2, height)):
                    for nx in range(max(x - 1, 0), min(x + 2, width)):
                        top = _open(ny * width + nx, mines, numbers, view, covered, work,
                                    queued, top, height, width)
                        if top < 0:
                            return -1
            elif missing[cell] == covered[cell]:
                for ny in range(max(y - 1, 0), min(y + 2, height)):
                    for nx in range(max(x - 1, 0), min(x + 2, width)):
                        top = _flag(ny * width + nx, view, covered, missing, work, queued, top,
                                    height, width)
        safe_left = 0
        for i in range(n):
            if view[i] == COVERED and not mines[i]:
                safe_left += 1
        if not safe_left:
            return 0
        top, changed = _pair_pass(
            mines, numbers, view, covered, missing, work, queued, height, width
        )
        if top < 0:
            return -1
        if not changed:
            return safe_left


SETTLE_SIGNATURE = (
    types.Array(types.boolean, 1, "C"),
    types.Array(types.int8, 1, "C"),
    types.int64,
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
)
"""The signature the generator calls :func:`settle` with."""


def compile_kernels() -> None:
    """Compile :func:`settle` for :data:`SETTLE_SIGNATURE` (the warm-up does, so numba's
    cache holds it and no generator compiles it)."""
    if SETTLE_SIGNATURE not in settle.overloads:
        settle.compile(SETTLE_SIGNATURE)
