"""Rule set ``complete``: exact inference, everything that can be proven at all.

A cell is proven safe (a mine) iff it is safe (a mine) in every layout
consistent with all the numbers and, when known, the total mine count:
MySweeper's unimplemented rules 5 (simultaneous equations) and 6 (the endgame
mine count), and every combination of them. The test is exact: the probability
engine's integer mine weight is 0, or equal to the number of layouts.

The auto-solver calls a rule set after every probe until it proves nothing, so
``prove`` first tries cheap sound rules (each number alone, each pair of
numbers that share cells, the bare mine count) and runs the full engine only
when they find nothing. The fixed point is the same as running the engine every
time, because the engine always gets the last word, and most calls never need it.
"""

from __future__ import annotations

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED
from ..base import Proof, RuleSet
from ..probability.engine import CACHE_LIMIT, Weights, count_position
from ..probability.frontier import Constraints, read_constraints, split_components


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


class Complete(RuleSet):
    """Exact inference: proves every cell that is the same in all consistent layouts."""

    name = "complete"

    def __init__(self) -> None:
        self._cache: dict = {}
        self._last: tuple[bytes, int | None, Weights] | None = None

    def known_weights(self, board: Board) -> Weights | None:
        """The engine's exact weights for ``board`` if the last full run was on it.

        The auto-solver's last call on a position where nothing more can be
        proven always runs the full engine, so a caller that wants the
        probabilities of the position the auto-solver left (an env's
        observation) can take them from here instead of counting again.
        """
        last = self._last
        if last is None or last[1] != board.total_mines or last[0] != board.grid.tobytes():
            return None
        return last[2]

    weights_for = known_weights
    """The former name of :meth:`known_weights`."""

    def reset(self) -> None:
        """Forget the component counts and the last full count."""
        self._cache.clear()
        self._last = None

    def prove(self, board: Board) -> Proof:
        constraints = read_constraints(board)
        grid = board.grid
        covered = int(np.count_nonzero(grid == COVERED))
        cheap = _cheap_proof(constraints, covered)
        if cheap.safe or cheap.mines:
            return cheap
        frontier = split_components(constraints)
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        weights = count_position(board, cache=self._cache, frontier=frontier)
        self._last = (board.grid.tobytes(), board.total_mines, weights)
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


__all__ = ["Complete"]
