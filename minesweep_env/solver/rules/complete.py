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

Between calls the constraints are kept up to date rather than read afresh
(:class:`~.kept_constraints.TrackedConstraints`), and
the cheap rules look only at the numbers that changed: a number, or a pair of
numbers, that proved nothing last time proves nothing now unless one of them
changed. What ``prove`` returns is the same as on a fresh instance, for any
board; ``tests/complete_reference.py`` keeps the stateless statement of the
rules that the tests hold this to.

Once the compiled kernels are cached (:mod:`minesweep_env.compiled` decides
when), one compiled call answers instead (:mod:`.complete_compiled`, kernels in
:mod:`.complete_proof_compiled`): the same proof, the
cheap rules and the full count both in machine numbers, a weight of exactly 0
deciding a cell as the exact engine's integer 0 does. It hands back the rare
position it cannot settle so (a count too wide for it, an inconsistent board),
and the Python path above answers, raising the same errors. The exact weights of
a settled position are then counted only when someone asks for them
(:meth:`Complete.known_weights`).
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

import numpy as np

from ... import compiled
from ...core.board import Board
from ...core.cells import COVERED
from ...core.minefield import Minefield, WinRule
from ...errors import InconsistentBoardError
from ..base import Proof, RuleSet
from ..probability.engine import CACHE_LIMIT, count_position
from ..probability.frontier import split_components
from ..weights import Weights
from .kept_constraints import TrackedConstraints


class _Trial:
    """The cheap rules played on a copy-on-write overlay of the tracked constraints.

    A proof found in one round is applied to the overlay (proven mines lower
    the needs around them, decided cells leave their numbers' cell sets) so the
    next round builds on it, as the auto-solver's next call would, without
    copying or disturbing the constraints of the board itself.
    """

    def __init__(self, tracked: TrackedConstraints) -> None:
        self.tracked = tracked
        self.need: dict[int, int] = {}
        self.cells: dict[int, set[int]] = {}
        self.decided: set[int] = set()
        self.left = tracked.mines_left
        self.covered = tracked.covered

    def need_of(self, number: int) -> int:
        need = self.need.get(number)
        return self.tracked.need[number] if need is None else need

    def cells_of(self, number: int) -> set[int]:
        cells = self.cells.get(number)
        return self.tracked.cells[number] if cells is None else cells

    def bare_count(self) -> tuple[set[int], set[int]] | None:
        """Every undecided cell, when no mine is left or every one is a mine."""
        left = self.left
        if left is None or (left != 0 and left != self.covered):
            return None
        tracked = self.tracked
        every = (tracked.touching.keys() | tracked.off) - self.decided
        return (every, set()) if left == 0 else (set(), every)

    def singles(self, numbers: set[int]) -> tuple[set[int], set[int]]:
        """Each number alone: it needs no mine more, or a mine on every cell left.

        The rule the compiled rounds (``complete_proof_compiled.prove_flat``,
        ``complete_kept_compiled._cheap_rounds``) copy;
        ``tests/minesweep_env/compiled/test_complete_compiled.py`` and
        ``tests/minesweep_env/solver/rules/test_kept_constraints_compiled.py`` hold them to it."""
        safe: set[int] = set()
        mines: set[int] = set()
        own_cells, own_need = self.cells, self.need
        base_cells, base_need = self.tracked.cells, self.tracked.need
        for number in numbers:
            cells = own_cells.get(number)
            if cells is None:
                cells = base_cells[number]
            if cells:
                need = own_need.get(number)
                if need is None:
                    need = base_need[number]
                if need == 0:
                    safe |= cells
                elif need == len(cells):
                    mines |= cells
        return safe, mines

    def pairs(self, numbers: set[int]) -> tuple[set[int], set[int]]:
        """Each pair of numbers sharing an undecided cell, at least one of them in ``numbers``.

        With A-only and B-only the cells one sees and the other does not and I
        the shared ones, the mines x in I satisfy
        max(0, a - |A-only|, b - |B-only|) <= x <= min(a, b, |I|), and an end of
        that range pinned at 0 or at a part's size proves the whole part.

        The rule the compiled ``complete_proof_compiled.pair_rule`` and
        ``complete_kept_compiled._pairs_of`` copy (tests as :meth:`singles` names them).
        """
        touching = self.tracked.touching
        own_cells, own_need = self.cells, self.need
        base_cells, base_need = self.tracked.cells, self.tracked.need
        safe: set[int] = set()
        mines: set[int] = set()
        looked_at: set[int] = set()
        for a in numbers:
            cells_a = own_cells.get(a)
            if cells_a is None:
                cells_a = base_cells[a]
            if not cells_a:
                continue
            need_a = own_need.get(a)
            if need_a is None:
                need_a = base_need[a]
            # Its partners: every number sharing a cell with it, each pair once.
            partners: set[int] = set()
            partners.update(*[touching[cell] for cell in cells_a])
            partners -= looked_at
            partners.discard(a)
            looked_at.add(a)
            for b in partners:
                cells_b = own_cells.get(b)
                if cells_b is None:
                    cells_b = base_cells[b]
                need_b = own_need.get(b)
                if need_b is None:
                    need_b = base_need[b]
                shared = cells_a & cells_b
                in_shared = len(shared)
                only_a = len(cells_a) - in_shared
                only_b = len(cells_b) - in_shared
                low = max(0, need_a - only_a, need_b - only_b)
                high = min(need_a, need_b, in_shared)
                if high == 0:
                    safe |= shared
                elif low == in_shared:
                    mines |= shared
                if only_a:
                    if need_a - low <= 0:
                        safe |= cells_a - shared
                    elif need_a - high >= only_a:
                        mines |= cells_a - shared
                if only_b:
                    if need_b - low <= 0:
                        safe |= cells_b - shared
                    elif need_b - high >= only_b:
                        mines |= cells_b - shared
        return safe, mines

    def decide(self, safe: set[int], mines: set[int]) -> set[int]:
        """Apply a round's proof to the overlay; returns the numbers it changed."""
        tracked = self.tracked
        touching = tracked.touching
        changed: set[int] = set()
        decided = safe | mines
        for cell in decided:
            users = touching.get(cell)
            if users is None or cell in self.decided:
                continue
            for number in users:
                cells = self.cells.get(number)
                if cells is None:
                    cells = self.cells[number] = set(tracked.cells[number])
                cells.discard(cell)
                if cell in mines:
                    self.need[number] = self.need_of(number) - 1
                changed.add(number)
        self.decided |= decided
        self.covered -= len(decided)
        if self.left is not None:
            self.left -= len(mines)
        return changed


def _cheap_proof(tracked: TrackedConstraints) -> Proof:
    """The cheap rules, repeated on their own results until they find nothing.

    Each round: the bare count; else each number alone; only when those find
    nothing, each pair. Only changed numbers (:attr:`TrackedConstraints.dirty`)
    are looked at: the others proved nothing alone or with each other when last
    looked at, and nothing about them has changed. When the first round finds
    nothing, every number has now been looked at, and ``dirty`` is emptied.
    """
    trial = _Trial(tracked)
    dirty = set(tracked.dirty)
    # A number that proved nothing alone proves nothing alone until it changes,
    # even while its pairs still wait to be looked at.
    lone = dirty
    proven_safe: set[int] = set()
    proven_mines: set[int] = set()
    first = True
    while True:
        pairs_round = False
        found = trial.bare_count()
        if found is None:
            found = trial.singles(lone)
            if not found[0] and not found[1]:
                pairs_round = True
                found = trial.pairs(dirty)
        safe, mines = found
        if pairs_round and first:
            # Every number was looked at alone and in every pair: the board's own
            # constraints are clean, but for those this round's proof changes.
            tracked.dirty.clear()
        if not safe and not mines:
            return Proof(proven_safe, proven_mines)
        proven_safe |= safe
        proven_mines |= mines
        changed = trial.decide(safe, mines)
        if first:
            tracked.dirty |= changed
        dirty = changed if pairs_round else dirty | changed
        lone = changed
        first = False


@cache
def _probe_kernels() -> tuple[ModuleType, ModuleType]:
    """The kernel modules of :meth:`Complete.probe_and_play_out`, imported once they are
    wanted (importing them imports numba)."""
    from . import complete_kept_compiled, complete_proof_compiled

    return complete_kept_compiled, complete_proof_compiled


class Complete(RuleSet):
    """Exact inference: proves every cell that is the same in all consistent layouts."""

    name = "complete"

    def __init__(self) -> None:
        self._cache: dict = {}
        self._last: tuple[bytes, int | None, Weights] | None = None
        # The last position the compiled path settled with a full count: its probabilities.
        self._settled: tuple[bytes, int | None, np.ndarray] | None = None
        self._tracked: TrackedConstraints | None = None
        self._opened = self._flagged = np.empty(0, np.int64)
        # The compiled probe's constraints, kept between probes with the view they describe.
        self._seen = np.empty(0, np.int8)
        self._kept = np.empty((0, 0), np.int64)

    def known_weights(self, board: Board) -> Weights | None:
        """The engine's exact weights for ``board`` if the last full run was on it.

        The auto-solver's last call on a position where nothing more can be
        proven always runs the full engine, so a caller that wants the
        probabilities of the position the auto-solver left (an env's
        observation) can take them from here instead of counting again.
        """
        last = self._last
        grid = board.grid.tobytes()
        if last is not None and last[1] == board.total_mines and last[0] == grid:
            return last[2]
        settled = self._settled
        if settled is None or settled[1] != board.total_mines or settled[0] != grid:
            return None
        # The compiled path settled it: count exactly now, once, as the Python path would have.
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        weights = count_position(board, cache=self._cache)
        self._last = (grid, board.total_mines, weights)
        return weights

    def known_probabilities(self, board: Board) -> np.ndarray | None:
        """The compiled path's float probabilities of ``board`` if its last full count was
        on it: within 1e-12 of the exact engine's (see :meth:`RuleSet.known_probabilities`).
        """
        settled = self._settled
        if (
            settled is None
            or settled[1] != board.total_mines
            or settled[0] != board.grid.tobytes()
        ):
            return None
        return settled[2]

    weights_for = known_weights
    """The former name of :meth:`known_weights`."""

    def reset(self) -> None:
        """Forget the component counts, the last full count and the tracked constraints."""
        self._cache.clear()
        self._last = None
        self._settled = None
        self._tracked = None

    def _track(self, board: Board) -> TrackedConstraints:
        """The constraints of ``board``: the remembered ones brought up to date, or read afresh."""
        tracked = self._tracked
        try:
            if tracked is None or not tracked.update(board):
                tracked = TrackedConstraints(board)
        except InconsistentBoardError:
            self._tracked = None
            raise
        self._tracked = tracked
        return tracked

    def play_out(self, minefield: Minefield) -> tuple[list[int], list[int], bool] | None:
        """Every round of the auto-solver in one compiled call, when the kernels are loaded.

        The rounds are those of :meth:`prove`; within a round the cells are opened
        in increasing index order (round by round, a set's order).
        """
        if not compiled.ready():
            return None
        from .complete_compiled import complete_play_out

        layout = minefield.layout
        opened, flagged, left, done, probabilities = complete_play_out(
            minefield.view,
            layout.mines,
            layout.numbers,
            minefield.mine_count,
            minefield.win_rule is WinRule.NOTHING_COVERED,
            minefield.safe_cells_left,
        )
        minefield.record_opened(minefield.safe_cells_left - left)
        if probabilities is not None:
            self.remember_settled(minefield.view, minefield.mine_count, probabilities)
        return opened, flagged, done

    def probe_and_play_out(
        self, minefield: Minefield, x: int, y: int
    ) -> tuple[list[int], list[int], bool] | None:
        """A player's probe of covered (x, y) and then :meth:`play_out`, in one compiled call.

        What ``minefield.probe(x, y)`` and then the auto-solver's rounds do (the
        first-click policy runs in Python first): returns the cells opened (the
        probe's flood first) and flagged, and whether the rounds are over (False:
        play on round by round from the view as it is); ``None`` when the kernels
        are not loaded, with nothing done.
        """
        if not compiled.ready():
            return None
        tracked_kernels, proof_kernels = _probe_kernels()
        minefield.apply_first_click(x, y)
        size = minefield.width * minefield.height
        if len(self._opened) != size:  # the cells opened and flagged, reused
            self._opened, self._flagged = np.empty(size, np.int64), np.empty(size, np.int64)
            self._seen = np.full(size, tracked_kernels.UNSEEN, np.int8)
            self._kept = np.zeros((tracked_kernels.TRACK_ROWS, size), np.int64)
        opened, flagged = self._opened, self._flagged
        probabilities = np.empty(size)  # kept as the settled position's: one per call
        mines, numbers = minefield.flat_layout()
        view, safe_left = minefield.view, minefield.safe_cells_left
        status, opened_count, flagged_count, left, won, lost = tracked_kernels.probe_play_tracked(
            view,
            mines,
            numbers,
            y * minefield.width + x,
            minefield.mine_count,
            minefield.win_rule is WinRule.NOTHING_COVERED,
            safe_left,
            opened,
            flagged,
            probabilities,
            self._seen,
            self._kept,
        )
        minefield.record_probe(x, y, safe_left - left)
        if status == proof_kernels.FULL and not won and not lost:
            # remember_settled's record, written here: this runs on every env step.
            settled = probabilities.reshape(view.shape)
            self._settled = (view.tobytes(), minefield.mine_count, settled)
        done = lost or won or status != proof_kernels.DEFER
        # Most probes flag nothing: no slice to copy then.
        flags = flagged[:flagged_count].tolist() if flagged_count else []
        return opened[:opened_count].tolist(), flags, done

    def plays_out_compiled(self) -> bool:
        """Whether :meth:`play_out` and :meth:`prove` are this class's own, so a batch may
        play this rule set's rounds compiled (a subclass that changes either is played
        round by round, through its own methods)."""
        cls = type(self)
        return cls.prove is Complete.prove and cls.play_out is Complete.play_out

    def remember_settled(self, grid: np.ndarray, total: int, probabilities: np.ndarray) -> None:
        """A compiled auto-solver settled the position ``grid`` (its view codes, any shape)
        with a full count that found ``probabilities``: hand them out for it from now on
        (:meth:`known_probabilities`; :meth:`known_weights` counts it exactly on demand)."""
        self._settled = (grid.tobytes(), total, probabilities)

    def prove(self, board: Board) -> Proof:
        answer = None
        if compiled.ready():
            from .complete_compiled import complete_proof

            answer = complete_proof(board)
        if answer is not None:
            safe, mines, probabilities = answer
            if probabilities is not None:
                self._settled = (board.grid.tobytes(), board.total_mines, probabilities)
            return Proof(safe, mines)
        return self._prove_exactly(board)

    def _prove_exactly(self, board: Board) -> Proof:
        """The Python path: tracked constraints, the cheap rules, the exact engine."""
        tracked = self._track(board)
        cheap = _cheap_proof(tracked)
        if cheap.safe or cheap.mines:
            return cheap
        frontier = split_components(tracked.constraints())
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        weights = count_position(board, cache=self._cache, frontier=frontier)
        self._last = (board.grid.tobytes(), board.total_mines, weights)
        flat = board.grid.reshape(-1)
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


def check_compiled() -> None:
    """The warm-up's check: the compiled proof of ``complete`` is the Python path's, along
    a whole game (:mod:`.complete_compiled`).

    :raises RuntimeError: on any disagreement.
    """
    from ...core.layout import MineLayout
    from ...core.minefield import GameState
    from .complete_compiled import complete_proof

    rng = np.random.default_rng(11)
    field = Minefield(MineLayout.random(16, 16, 40, rng), first_click="safe", rng=rng)
    field.probe(8, 8)
    exact = Complete()
    while field.state is GameState.PLAYING:
        board = field.board()
        answer = complete_proof(board)
        want = exact._prove_exactly(board)
        if answer is None or (answer[0], answer[1]) != (want.safe, want.mines):
            raise RuntimeError(f"compiled proof disagrees with the Python one on {board.rows()}")
        if not want.safe and not want.mines:
            break
        for index in want.mines:
            field.set_flag(index % 16, index // 16)
        field.open_safe(want.safe)
