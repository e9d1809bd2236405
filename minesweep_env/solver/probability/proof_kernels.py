"""Compiled (numba) proof of rule set ``complete``: a position in, proven cells out.

The same answer as ``Complete.prove`` on a fresh instance (the stateless
statement is ``tests/complete_reference.py``), in one compiled call:

1. the numbers are checked as :func:`~minesweep_env.solver.numbers.read_numbers`
   and :func:`~.frontier.read_constraints` check them; a position they reject is
   handed back (:data:`DEFER`) for the exact path to raise its error;
2. the cheap rules play round after round on what is still undecided, exactly
   as the reference's rounds: the bare mine count, else each number alone, and
   only when those find nothing, each pair of numbers sharing an undecided cell;
3. only when the first round finds nothing, the float count of :mod:`.kernels`
   weighs every group of cells, and a cell is safe (a mine) iff the weight of
   the layouts with (without) a mine on it is 0.

Why a float weight is 0 exactly when the exact integer weight is: every weight
is a sum of products of nonnegative factors, so it is 0 iff every product has
a factor 0, unless a positive product underflows. None can: each component's
counts are integers scaled by at most 2**cells (its largest count is at most
2**cells), and the ratios of binomials off the frontier are at least
1 / C(off, r) >= 2**-off, so a positive weight is at least 2**-covered, with
rounding only ever a relative error of a few units in 1e-16. Boards with more
than :data:`MAX_COVERED` covered cells are handed back, so 2**-covered stays
far above the smallest float. Counts overflow nowhere for the same reason
(and :mod:`.kernels` hands back anything not finite).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cells import COVERED, FLAGGED
from .kernels import weigh_groups, write_probabilities

CHEAP = 0
"""The proof is the cheap rules' fixed point (it proves something)."""
FULL = 1
"""The cheap rules found nothing: the proof is the full count's (maybe empty), and the
probabilities of the position were written."""
DEFER = 2
"""The exact path must answer (it may raise: the position is inconsistent)."""

SAFE = 1
"""Bit of a cell proven safe in the output codes."""
MINE = 2
"""Bit of a cell proven a mine in the output codes (both bits: an inconsistent board)."""

MAX_COVERED = 900
"""Covered cells above which a positive float weight might underflow (2**-covered)."""


@njit(cache=True)
def _in_window(cell, centre, width):
    """Whether ``cell`` is ``centre`` or one of its eight neighbours."""
    dy = cell // width - centre // width
    dx = cell % width - centre % width
    return -1 <= dx <= 1 and -1 <= dy <= 1


@njit(cache=True)
def _mark_all(cells, length, decided, code, marks, marked, count):
    """Mark the undecided cells among ``cells[:length]`` with ``code``."""
    for k in range(length):
        cell = cells[k]
        if cell < 0:
            break
        if decided[cell]:
            continue
        if marks[cell] == 0:
            marked[count] = cell
            count += 1
        marks[cell] |= code
    return count


@njit(cache=True)
def _mark_only(cells, length, decided, other, width, code, marks, marked, count):
    """Mark the undecided cells among ``cells[:length]`` that ``other`` does not see."""
    for k in range(length):
        cell = cells[k]
        if cell < 0:
            break
        if decided[cell] or _in_window(cell, other, width):
            continue
        if marks[cell] == 0:
            marked[count] = cell
            count += 1
        marks[cell] |= code
    return count


@njit(cache=True)
def _pairs(numbers, count_of, cells, undecided, need, constraint_at, decided, height, width,
           marks, marked):
    """Each pair of numbers sharing an undecided cell; returns how many cells it marked.

    With A-only and B-only the cells one sees and the other does not and I the
    shared ones, the mines x in I satisfy
    max(0, a - |A-only|, b - |B-only|) <= x <= min(a, b, |I|), and an end of
    that range pinned at 0 or at a part's size proves the whole part.
    """
    count = 0
    for a in range(count_of):
        if undecided[a] == 0:
            continue
        pa = numbers[a]
        ya, xa = pa // width, pa % width
        for ny in range(ya, min(ya + 3, height)):
            for nx in range(max(xa - 2, 0), min(xa + 3, width)):
                pb = ny * width + nx
                if pb <= pa:
                    continue
                b = constraint_at[pb]
                if b < 0 or undecided[b] == 0:
                    continue
                shared = 0
                for k in range(len(cells[a])):
                    cell = cells[a, k]
                    if cell >= 0 and not decided[cell] and _in_window(cell, pb, width):
                        shared += 1
                if shared == 0:
                    continue
                need_a, need_b = need[a], need[b]
                only_a = undecided[a] - shared
                only_b = undecided[b] - shared
                low = max(0, need_a - only_a, need_b - only_b)
                high = min(need_a, need_b, shared)
                if high == 0 or low == shared:
                    code = SAFE if high == 0 else MINE
                    for k in range(len(cells[a])):
                        cell = cells[a, k]
                        if cell >= 0 and not decided[cell] and _in_window(cell, pb, width):
                            if marks[cell] == 0:
                                marked[count] = cell
                                count += 1
                            marks[cell] |= code
                if only_a:
                    if need_a - low <= 0:
                        count = _mark_only(cells[a], len(cells[a]), decided, pb, width, SAFE,
                                           marks, marked, count)
                    elif need_a - high >= only_a:
                        count = _mark_only(cells[a], len(cells[a]), decided, pb, width, MINE,
                                           marks, marked, count)
                if only_b:
                    if need_b - low <= 0:
                        count = _mark_only(cells[b], len(cells[b]), decided, pa, width, SAFE,
                                           marks, marked, count)
                    elif need_b - high >= only_b:
                        count = _mark_only(cells[b], len(cells[b]), decided, pa, width, MINE,
                                           marks, marked, count)
    return count


@njit(cache=True)
def complete_proof_into(grid, has_total, total, codes, probabilities):
    """Prove what ``complete`` proves on ``grid``: :data:`SAFE` / :data:`MINE` bits into ``codes``.

    :param grid: C-contiguous int8 (H, W) view codes.
    :param has_total: whether ``total`` (the board's mine total, flags included) is known.
    :param codes: int8 (H * W), zeroed here; the proof's bits per cell.
    :param probabilities: float64 (H * W): with :data:`FULL`, every cell's mine
        probability as :func:`~.kernels.mine_probabilities_into` writes it.
    :returns: :data:`CHEAP`, :data:`FULL` or :data:`DEFER`.
    """
    height, width = grid.shape
    return prove_flat(grid.reshape(height * width), height, width, has_total, total, codes,
                  probabilities)


@njit(cache=True)
def prove_flat(flat, height, width, has_total, total, codes, probabilities):
    """:func:`complete_proof_into` on the flat view (the auto-solver's kernels call it)."""
    n = height * width
    codes[:] = 0
    # 1. The numbers' own checks, and every number touching a covered cell as a constraint.
    constraint_at = np.full(n, -1, np.int64)
    numbers = np.empty(n, np.int64)
    need = np.empty(n, np.int64)
    undecided = np.empty(n, np.int64)
    cells = np.full((n, 8), -1, np.int64)
    constraints = 0
    flags = 0
    covered = 0
    for i in range(n):
        value = np.int64(flat[i])
        if value == FLAGGED:
            flags += 1
        elif value == COVERED:
            covered += 1
        if value < 0:
            continue
        y, x = i // width, i % width
        room = 0
        flagged = 0
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                code = flat[ny * width + nx]
                if code == COVERED:
                    cells[constraints, room] = ny * width + nx
                    room += 1
                elif code == FLAGGED:
                    flagged += 1
        if value - flagged < 0 or value - flagged > room:
            return DEFER
        if room > 0:
            constraint_at[i] = constraints
            numbers[constraints] = i
            need[constraints] = value - flagged
            undecided[constraints] = room
            constraints += 1
    left = total - flags
    if has_total and left < 0:
        return DEFER
    cells = cells[:constraints]
    # 2. The cheap rules, round after round, on what is still undecided.
    decided = np.zeros(n, np.bool_)
    marks = np.zeros(n, np.int8)
    marked = np.empty(n, np.int64)
    found_any = False
    while True:
        count = 0
        if has_total and (left == 0 or left == covered):
            code = SAFE if left == 0 else MINE
            for i in range(n):
                if flat[i] == COVERED and not decided[i]:
                    marks[i] = code
                    marked[count] = i
                    count += 1
        else:
            for c in range(constraints):
                if undecided[c] > 0:
                    if need[c] == 0:
                        count = _mark_all(cells[c], 8, decided, SAFE, marks, marked,
                                          count)
                    elif need[c] == undecided[c]:
                        count = _mark_all(cells[c], 8, decided, MINE, marks, marked,
                                          count)
            if count == 0:
                count = _pairs(numbers, constraints, cells, undecided, need, constraint_at,
                               decided, height, width, marks, marked)
        if count == 0:
            break
        found_any = True
        mines = 0
        for k in range(count):
            cell = marked[k]
            mark = marks[cell]
            marks[cell] = 0
            codes[cell] |= mark
            decided[cell] = True
            if mark & MINE:
                mines += 1
            y, x = cell // width, cell % width
            for ny in range(max(y - 1, 0), min(y + 2, height)):
                for nx in range(max(x - 1, 0), min(x + 2, width)):
                    c = constraint_at[ny * width + nx]
                    if c >= 0:
                        undecided[c] -= 1
                        if mark & MINE:
                            need[c] -= 1
        covered -= count
        left -= mines
    if found_any:
        return CHEAP
    # 3. Nothing cheap: the full count, and the cells whose weight one way is 0.
    if covered > MAX_COVERED:
        return DEFER
    ok, group_cells, start, off, w_mine, w_free = weigh_groups(
        flat, height, width, total if has_total else -1, probabilities
    )
    if not ok:
        return DEFER
    for g in range(len(start) - 1):
        code = SAFE if w_mine[g] == 0.0 else MINE if w_free[g] == 0.0 else 0
        for f in range(start[g], start[g + 1]):
            codes[group_cells[f]] = code
    if has_total and len(off) > 0:
        last = len(start) - 1
        code = SAFE if w_mine[last] == 0.0 else MINE if w_free[last] == 0.0 else 0
        for i in off:
            codes[i] = code
    write_probabilities(probabilities, total if has_total else -1, group_cells, start, off,
                        w_mine, w_free)
    return FULL
