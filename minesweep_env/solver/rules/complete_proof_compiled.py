"""Compiled (numba) proof of rule set ``complete``: a position in, proven cells out.

The same answer as ``Complete.prove`` on a fresh instance (the stateless
statement is ``tests/complete_reference.py``), in one compiled call:

1. the numbers are checked as :func:`~minesweep_env.solver.numbers.read_numbers`
   and :func:`~.frontier.read_constraints` check them; a position they reject is
   handed back (:data:`DEFER`) for the exact path to raise its error;
2. the cheap rules play round after round on what is still undecided, exactly
   as the reference's rounds: the bare mine count, else each number alone, and
   only when those find nothing, each pair of numbers sharing an undecided cell;
3. only when the first round finds nothing, the float count of :mod:`counting_compiled`
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
(and :mod:`counting_compiled` hands back anything not finite).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cells import COVERED, FLAGGED
from ..probability.counting_compiled import weigh_groups, write_probabilities
from ..probability.counting_groups_compiled import read_window

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

WORK_ROWS = 7
"""Rows of :func:`prove_flat`'s scratch array (one per per-cell table it keeps)."""

MAX_COVERED = 900
"""Covered cells above which a positive float weight might underflow (2**-covered)."""


def _window_masks():
    """Per offset (oy + 2, ox + 2) of a number B from a number A: the bits of A's
    3x3 window (bit (dy + 1) * 3 + dx + 1) that also lie in B's window."""
    out = np.zeros((5, 5), np.int64)
    for oy in range(-2, 3):
        for ox in range(-2, 3):
            for dy in range(-1, 2):
                for dx in range(-1, 2):
                    if abs(dx - ox) <= 1 and abs(dy - oy) <= 1:
                        out[oy + 2, ox + 2] |= 1 << ((dy + 1) * 3 + dx + 1)
    return out


_SHARED = _window_masks()
""":func:`_window_masks`: a constraint's cells are a 9-bit mask of its number's window."""

_POPCOUNT = np.array([bin(m).count("1") for m in range(512)], np.int64)
"""Cells in a 9-bit window mask."""


@njit(cache=True)
def _mark_bits(bits, centre, width, code, marks, marked, count):
    """Mark with ``code`` the cells of window mask ``bits`` around flat index ``centre``."""
    for bit in range(9):
        if bits >> bit & 1:
            cell = centre + (bit // 3 - 1) * width + bit % 3 - 1
            if marks[cell] == 0:
                marked[count] = cell
                count += 1
            marks[cell] |= code
    return count


@njit(cache=True)
def pair_rule(mask_a, mask_b, need_a, need_b, pa, pb, oy, ox, width, marks, marked, count):
    """The two-number rule on numbers ``pa`` and ``pb`` (``pb`` at offset ``oy``, ``ox``
    from ``pa``, their covered cells as window masks, their needs): what both must hold
    in the cells they share, and what that leaves each for the cells only it sees, marked
    into ``marks``. Returns the new count of marked cells.

    A compiled copy of the pair rule; the rule is ``Complete.pairs``
    (:mod:`minesweep_env.solver.rules.complete`, stated stateless in
    ``tests/complete_reference.py``), and
    ``tests/minesweep_env/compiled/test_complete_compiled.py`` holds this
    proof equal to that statement."""
    shared_a = mask_a & _SHARED[oy + 2, ox + 2]
    shared = _POPCOUNT[shared_a]
    if shared == 0:
        return count
    only_a_bits = mask_a & ~_SHARED[oy + 2, ox + 2]
    only_b_bits = mask_b & ~_SHARED[2 - oy, 2 - ox]
    only_a = _POPCOUNT[only_a_bits]
    only_b = _POPCOUNT[only_b_bits]
    low = max(0, need_a - only_a, need_b - only_b)
    high = min(need_a, need_b, shared)
    if high == 0:
        count = _mark_bits(shared_a, pa, width, SAFE, marks, marked, count)
    elif low == shared:
        count = _mark_bits(shared_a, pa, width, MINE, marks, marked, count)
    if only_a:
        if need_a - low <= 0:
            count = _mark_bits(only_a_bits, pa, width, SAFE, marks, marked, count)
        elif need_a - high >= only_a:
            count = _mark_bits(only_a_bits, pa, width, MINE, marks, marked, count)
    if only_b:
        if need_b - low <= 0:
            count = _mark_bits(only_b_bits, pb, width, SAFE, marks, marked, count)
        elif need_b - high >= only_b:
            count = _mark_bits(only_b_bits, pb, width, MINE, marks, marked, count)
    return count


@njit(cache=True)
def _pairs(numbers, constraints, masks, need, constraint_at, height, width, marks, marked):
    """Each pair of numbers sharing an undecided cell; returns how many cells it marked.
    (A compiled copy of ``Complete.pairs``: see :func:`pair_rule`.)

    With A-only and B-only the cells one sees and the other does not and I the
    shared ones, the mines x in I satisfy
    max(0, a - |A-only|, b - |B-only|) <= x <= min(a, b, |I|), and an end of
    that range pinned at 0 or at a part's size proves the whole part.
    """
    count = 0
    for a in range(constraints):
        mask_a = masks[a]
        if mask_a == 0:
            continue
        pa = numbers[a]
        ya, xa = pa // width, pa % width
        for ny in range(ya, min(ya + 3, height)):
            for nx in range(max(xa - 2, 0), min(xa + 3, width)):
                pb = ny * width + nx
                if pb <= pa:
                    continue
                b = constraint_at[pb]
                if b < 0 or masks[b] == 0:
                    continue
                count = pair_rule(mask_a, masks[b], need[a], need[b], pa, pb, ny - ya, nx - xa,
                                  width, marks, marked, count)
    return count


@njit(cache=True)
def complete_proof_into(grid, has_total, total, codes, probabilities):
    """Prove what ``complete`` proves on ``grid``: :data:`SAFE` / :data:`MINE` bits into ``codes``.

    :param grid: C-contiguous int8 (H, W) view codes.
    :param has_total: whether ``total`` (the board's mine total, flags included) is known.
    :param codes: int8 (H * W), zeroed here; the proof's bits per cell.
    :param probabilities: float64 (H * W): with :data:`FULL`, every cell's mine
        probability as :func:`~..probability.counting_compiled.mine_probabilities_into` writes it.
    :returns: :data:`CHEAP`, :data:`FULL` or :data:`DEFER`.
    """
    height, width = grid.shape
    work = np.empty((WORK_ROWS, height * width), np.int64)
    return prove_flat(grid.reshape(height * width), height, width, has_total, total, codes,
                      probabilities, work)


@njit(cache=True)
def prove_flat(flat, height, width, has_total, total, codes, probabilities, work):
    """:func:`complete_proof_into` on the flat view (the auto-solver's kernels call it).

    Its rounds are compiled copies of the one-number and pair rules; the rules are
    ``Complete.singles`` and ``Complete.pairs`` (stated stateless in
    ``tests/complete_reference.py``), held equal by
    ``tests/minesweep_env/compiled/test_complete_compiled.py``.

    :param work: int64 (:data:`WORK_ROWS`, H * W) scratch, any contents: a caller that
        proves round after round allocates it once.
    """
    n = height * width
    codes[:] = 0
    # 1. The numbers' own checks, and every number touching a covered cell as a
    # constraint: its need and, as a 9-bit mask of its window, its undecided cells.
    constraint_at, numbers, need, masks = work[0], work[1], work[2], work[3]
    marked, marks, decided = work[4], work[5], work[6]
    constraint_at[:] = -1
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
        room, flagged, mask = read_window(i, flat, height, width)
        if value - flagged < 0 or value - flagged > room:
            return DEFER
        if room > 0:
            constraint_at[i] = constraints
            numbers[constraints] = i
            need[constraints] = value - flagged
            masks[constraints] = mask
            constraints += 1
    left = total - flags
    if has_total and left < 0:
        return DEFER
    # 2. The cheap rules, round after round, on what is still undecided.
    decided[:] = 0
    marks[:] = 0
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
                mask = masks[c]
                if mask != 0:
                    if need[c] == 0:
                        count = _mark_bits(mask, numbers[c], width, SAFE, marks, marked, count)
                    elif need[c] == _POPCOUNT[mask]:
                        count = _mark_bits(mask, numbers[c], width, MINE, marks, marked, count)
            if count == 0:
                count = _pairs(numbers, constraints, masks, need, constraint_at, height, width,
                               marks, marked)
        if count == 0:
            break
        found_any = True
        mines = 0
        for k in range(count):
            cell = marked[k]
            mark = marks[cell]
            marks[cell] = 0
            codes[cell] |= mark
            decided[cell] = 1
            if mark & MINE:
                mines += 1
            y, x = cell // width, cell % width
            for ny in range(max(y - 1, 0), min(y + 2, height)):
                for nx in range(max(x - 1, 0), min(x + 2, width)):
                    c = constraint_at[ny * width + nx]
                    if c >= 0:
                        # The cell is at (y - ny, x - nx) from that number.
                        masks[c] &= ~(1 << ((y - ny + 1) * 3 + x - nx + 1))
                        if mark & MINE:
                            need[c] -= 1
        covered -= count
        left -= mines
    if found_any:
        return CHEAP
    # 3. Nothing cheap: the full count, and the cells whose weight one way is 0.
    if covered > MAX_COVERED:
        return DEFER
    return full_count(flat, height, width, has_total, total, codes, probabilities)


@njit(cache=True)
def full_count(flat, height, width, has_total, total, codes, probabilities):
    """Step 3 of :func:`prove_flat`: weigh every group of cells, a cell safe (a mine) iff
    the weight of the layouts with (without) a mine on it is 0, into ``codes`` (which
    must hold 0 on every cell), and the probabilities written; :data:`FULL`, or
    :data:`DEFER` when the count does not fit machine numbers."""
    ok, group_cells, start, off, w_mine, w_free = weigh_groups(
        flat, height, width, total if has_total else -1, probabilities
    )
    if not ok:
        return DEFER
    decide_weighed(has_total, total, codes, probabilities, group_cells, start, off, w_mine,
                   w_free)
    return FULL


@njit(cache=True)
def decide_weighed(has_total, total, codes, probabilities, group_cells, start, off, w_mine,
                   w_free):
    """The end of :func:`full_count` from the groups' weights: the codes of the cells
    decided (a weight one way of exactly 0) and the probabilities written; returns how
    many cells it decided (a caller with nothing decided skips the round)."""
    decided = 0
    for g in range(len(start) - 1):
        code = SAFE if w_mine[g] == 0.0 else MINE if w_free[g] == 0.0 else 0
        if code != 0:
            decided += start[g + 1] - start[g]
        for f in range(start[g], start[g + 1]):
            codes[group_cells[f]] = code
    if has_total and len(off) > 0:
        last = len(start) - 1
        code = SAFE if w_mine[last] == 0.0 else MINE if w_free[last] == 0.0 else 0
        if code != 0:
            decided += len(off)
        for i in off:
            codes[i] = code
    write_probabilities(probabilities, total if has_total else -1, group_cells, start, off,
                        w_mine, w_free)
    return decided
