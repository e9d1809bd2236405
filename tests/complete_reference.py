"""The stateless statement of rule set ``complete``: what every call must return.

This is ``complete``'s ``prove`` as it was before it kept constraints between
calls: read the whole board, play the cheap rules (the bare mine count, each
number alone, each pair of numbers sharing cells) to their fixed point, and
run the exact engine only when they find nothing. The library's incremental
version must give exactly these proofs on every board, whatever it saw before;
tests/minesweep_env/solver/rules/test_complete_incremental.py holds it to that.
"""

from __future__ import annotations

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.base import Proof
from minesweep_env.solver.probability.engine import count_position
from minesweep_env.solver.probability.frontier import (
    Constraints,
    read_constraints,
    split_components,
)


def _cheap_round(
    needs: list[int],
    cells_of: list[set[int]],
    touching: dict[int, list[int]],
    off: set[int],
    left: int | None,
    covered: int,
) -> tuple[set[int], set[int]]:
    """One round of the cheap rules on what is still undecided.

    The bare count first (no mines left, or as many as covered cells), then each
    number alone; only when those find nothing, each pair of numbers sharing
    cells: with A-only and B-only the cells one sees and the other does not and
    I the shared ones, the mines x in I satisfy
    max(0, a - |A-only|, b - |B-only|) <= x <= min(a, b, |I|), and an end of
    that range pinned at 0 or at a part's size proves the whole part.
    """
    safe: set[int] = set()
    mines: set[int] = set()
    if left is not None and (left == 0 or left == covered):
        (safe if left == 0 else mines).update(touching, off)
        return safe, mines
    for need, cells in zip(needs, cells_of, strict=True):
        if cells:
            if need == 0:
                safe |= cells
            elif need == len(cells):
                mines |= cells
    if safe or mines:
        return safe, mines
    pairs: set[tuple[int, int]] = set()
    for cs in touching.values():
        if len(cs) > 1:
            for i, a in enumerate(cs):
                for b in cs[i + 1 :]:
                    pairs.add((a, b))
    for a, b in pairs:
        need_a, need_b = needs[a], needs[b]
        cells_a, cells_b = cells_of[a], cells_of[b]
        shared = cells_a & cells_b
        only_a = cells_a - shared
        only_b = cells_b - shared
        low = max(0, need_a - len(only_a), need_b - len(only_b))
        high = min(need_a, need_b, len(shared))
        if high == 0:
            safe |= shared
        elif low == len(shared):
            mines |= shared
        for need, only in ((need_a, only_a), (need_b, only_b)):
            if not only:
                continue
            if need - low <= 0:
                safe |= only
            elif need - high >= len(only):
                mines |= only
    return safe, mines


def _cheap_proof(constraints: Constraints, covered: int) -> Proof:
    """The cheap rules, repeated on their own results until they find nothing.

    Proven mines lower the needs of the numbers around them and proven-safe
    cells leave their numbers' cell sets, so one call proves what the
    auto-solver would otherwise need several calls (and several readings of the
    board) for; only opening cells, which shows new numbers, needs a new call.
    """
    needs = list(constraints.needs)
    cells_of = [set(cells) for cells in constraints.cells]
    touching = dict(constraints.touching)
    off = set(constraints.off_frontier)
    left = constraints.mines_left
    proven_safe: set[int] = set()
    proven_mines: set[int] = set()
    while True:
        safe, mines = _cheap_round(needs, cells_of, touching, off, left, covered)
        if not safe and not mines:
            return Proof(proven_safe, proven_mines)
        proven_safe |= safe
        proven_mines |= mines
        for cell in safe | mines:
            for c in touching.pop(cell, ()):
                cells_of[c].discard(cell)
                if cell in mines:
                    needs[c] -= 1
            off.discard(cell)
        covered -= len(safe | mines)
        if left is not None:
            left -= len(mines)


def reference_prove(board: Board) -> Proof:
    """What ``Complete().prove(board)`` returns on a fresh instance."""
    constraints = read_constraints(board)
    grid = board.grid
    covered = int(np.count_nonzero(grid == COVERED))
    cheap = _cheap_proof(constraints, covered)
    if cheap.safe or cheap.mines:
        return cheap
    weights = count_position(board, frontier=split_components(constraints))
    flat = grid.reshape(-1)
    safe: set[int] = set()
    mines: set[int] = set()
    for cell, weight in weights.mine_weight.items():
        if weight is None or flat[cell] != COVERED:
            continue
        if weight == 0:
            safe.add(cell)
        elif weight == weights.layouts:
            mines.add(cell)
    return Proof(safe, mines)
