"""N games of one board size in flat arrays: the batched core of the vector env.

:class:`BoardBatch` keeps the mines, numbers and player's views of N games in
``(N, W*H)`` arrays and plays probes, zero floods, the auto-solver's flags and
openings on all of them at once. It follows :class:`minesweep_env.core.minefield.Minefield`
and :func:`minesweep_env.solver.autosolve.autosolve` rule for rule, so a board
here ends every step in the same position as a :class:`~minesweep_env.Game`
given the same layout, first-click generator and rule set.

It is built in three layers, one module each: the games' state
(:mod:`.batch_state`: arrays, new games, layouts, first clicks, and
:meth:`~.batch_state.BatchState.step_path`, the one choice among the step's three
paths), the Python and per-round compiled rounds (:mod:`.batch_rounds`), and here
the compiled paths that take the whole batch in one call: a step's probes with
their rounds, counters, verdicts, settled probabilities and the cells they changed
(:class:`Changes`; :mod:`.board_batch_compiled`), and the vector env's whole step
(:meth:`BoardBatch.step_compiled`; :mod:`.board_batch_step_compiled`). Per-board
Python is left where it cannot be batched: the rule sets' ``prove``, the
first-click policy (the compiled step moves a ``"safe"`` seeded game's mine itself)
and each new game's random draws. The kernels take the batch's arrays as one
object, :meth:`BoardBatch.kernel_buffers`, built once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from ..core.cells import COVERED
from ..core.first_click import FirstClick
from ..core.minefield import WinRule
from ..solver.base import RuleSet
from .batch_changes import Changes
from .batch_flood import neighbour_array, open_cells
from .batch_rounds import BatchRounds
from .batch_state import LOST, PLAYING, WON, BatchState, StepPath
from .step_arrays import StepArrays, step_kernels

__all__ = [
    "LOST",
    "PLAYING",
    "WON",
    "BatchState",
    "BoardBatch",
    "Changes",
    "StepArrays",
    "StepPath",
    "batch_kernels",
    "neighbour_array",
    "open_cells",
    "step_kernels",
]


@cache
def batch_kernels() -> ModuleType:
    """The batch's step kernels (:mod:`.board_batch_compiled`), imported once they are
    wanted (importing them imports numba); held, since an import statement costs
    microseconds on every step."""
    from . import board_batch_compiled as kernels

    return kernels


class BoardBatch(BatchRounds):
    """The mines, views and game states of N boards of one size, and every way to step them.

    Its arguments are :class:`~minesweep_env.envs.batch_state.BatchState`'s.
    """

    def __init__(
        self,
        num_boards: int,
        width: int,
        height: int,
        first_click: FirstClick,
        win_rule: WinRule,
    ) -> None:
        super().__init__(num_boards, width, height, first_click, win_rule)
        # The kernels' one object over the batch's arrays (kernel_buffers), and the
        # compiled probes' scratch rows it holds: one board's opened and flagged cells,
        # then all boards'.
        self._buffers: Any = None
        self._scratch = np.empty((4, 0), np.int64)

    def kernel_buffers(self) -> Any:
        """The batch's :class:`~.board_batch_compiled.BatchBuffers`: its arrays, the
        compiled probes' kept constraints per board (kept with the view they describe)
        and their scratch, made on first use and handed to every kernel after. Needs the
        kernels."""
        if self._buffers is not None:
            return self._buffers
        from ..solver.rules import complete_kept_compiled as kept

        size = self.width * self.height
        seen = np.full((self.num_boards, size), kept.UNSEEN, np.int8)
        track = np.zeros((self.num_boards, kept.TRACK_ROWS, size), np.int64)
        scratch = self._scratch = np.empty((4, self.num_boards * size), np.int64)
        self._buffers = batch_kernels().batch_buffers(
            views=self.view,
            mines=self._mine_bytes,
            numbers=self.numbers,
            priorities=self.priorities,
            states=self._states,
            totals=self.mine_count,
            safe_left=self.safe_left,
            probes=self.probes,
            guesses=self.guesses,
            state=self.state,
            settled=self.settled,
            probabilities=self.probabilities,
            first_here=self._first_compiled,
            seen=seen,
            track=track,
            opened=scratch[0, :size],
            flagged=scratch[1, :size],
            opened_cells=scratch[2],
            flagged_cells=scratch[3],
            height=self.height,
            width=self.width,
            nothing_covered=self.win_rule is WinRule.NOTHING_COVERED,
            first_safe=self.first_click is FirstClick.SAFE,
        )
        return self._buffers

    def start_seeded(self, boards: np.ndarray, seeds: np.ndarray, mine_count: int) -> None:
        """:meth:`start_random` with the priorities and generators of
        ``np.random.default_rng(seeds[k])`` (``MineLayout.random``'s draw), drawn, counted
        and written into the batch's rows in one compiled call
        (:func:`~minesweep_env.envs.board_batch_compiled.start_boards`); each
        board's generator is made only if its first click draws. Needs the kernels."""
        batch_kernels().start_boards(
            self.kernel_buffers(),
            np.ascontiguousarray(seeds, dtype=np.int64),
            np.ascontiguousarray(boards, dtype=np.int64),
            mine_count,
        )
        self._forget_objects(boards)

    def restart_compiled(self, boards: np.ndarray, arrays: StepArrays) -> None:
        """New random games on ``boards`` as :meth:`start_seeded` starts them, each seed
        drawn from its board's generator words (into ``arrays.seeds``), and the env's step
        counts, stale flags, observations and masks of those boards as a new game has them,
        in one compiled call
        (:func:`~minesweep_env.envs.board_batch_step_compiled.restart_boards`)."""
        step_kernels().restart_boards(
            self.kernel_buffers(), arrays.buffers, np.ascontiguousarray(boards, dtype=np.int64)
        )
        self._forget_objects(boards)

    def probe_and_autosolve(
        self, boards: np.ndarray, cells: np.ndarray, rule_sets: Sequence[RuleSet]
    ) -> Changes:
        """:meth:`probe` then :meth:`autosolve` on ``boards``; returns the cells each board
        opened and flagged.

        On :attr:`StepPath.COMPILED` (every one of them plays ``complete`` compiled):
        the probes, their floods and every board's rounds in one compiled call that also
        writes every board's counters, verdict and settled probabilities and lists the
        cells, each board's constraints kept from step to step
        (:func:`~minesweep_env.envs.board_batch_compiled.probe_boards`).
        """
        if self.step_path(rule_sets, boards) is not StepPath.COMPILED:
            before = self.view[boards]  # a copy: an index array gathers
            self.probe(boards, cells)
            self.autosolve(boards, rule_sets)
            return Changes.between(before, self.view[boards])
        if not self._first_compiled.all():  # some first clicks are Python's
            self.first_clicks_python(boards, cells)
        count = len(boards)
        deferred = np.zeros(count, dtype=bool)
        moved = np.empty(count, dtype=bool)
        opened_ends = np.empty(count, np.int64)
        flagged_ends = np.empty(count, np.int64)
        buffers = self.kernel_buffers()
        batch_kernels().probe_boards(
            buffers,
            np.ascontiguousarray(boards, dtype=np.int64),
            np.ascontiguousarray(cells, dtype=np.int64),
            deferred,
            opened_ends,
            flagged_ends,
            moved,
        )
        if moved.any():  # a mine moved off a first click: a layout built before is stale
            for board in boards[moved].tolist():
                self._built[board] = None
        changes = self._listed_changes(opened_ends, flagged_ends, copy=True)
        if not deferred.any():
            return changes
        return self._rounds_deferred(boards, deferred, changes, rule_sets)

    def _listed_changes(
        self, opened_ends: np.ndarray, flagged_ends: np.ndarray, copy: bool = False
    ) -> Changes:
        """The cells the compiled probes listed in the scratch rows, ``opened_ends`` and
        ``flagged_ends`` as ``probe_boards`` wrote them: the rows themselves (good until
        the next step) or, with ``copy``, copies."""
        count = len(opened_ends)
        opened = self._scratch[2, : opened_ends[-1] if count else 0]
        flagged = self._scratch[3, : flagged_ends[-1] if count else 0]
        if copy:
            opened, flagged = opened.copy(), flagged.copy()
        return Changes(opened, opened_ends, flagged, flagged_ends)

    def _rounds_deferred(
        self,
        boards: np.ndarray,
        deferred: np.ndarray,
        changes: Changes,
        rule_sets: Sequence[RuleSet],
    ) -> Changes:
        """The rounds the compiled probes left to Python (``deferred`` of ``boards``)
        played on; returns the whole step's changes of ``boards``, found by comparing the
        views before this step (the listed cells covered again) with the views after."""
        before = self.view[boards]
        before[changes.rows(changes.opened_ends), changes.opened] = COVERED
        before[changes.rows(changes.flagged_ends), changes.flagged] = COVERED
        self._play_rounds(boards[deferred], rule_sets)
        return Changes.between(before, self.view[boards])

    def step_compiled(
        self, arrays: StepArrays, rule_sets: Sequence[RuleSet], phase: int, count: int
    ) -> tuple[int, int, int, Changes | None]:
        """A whole step of the vector env in one compiled call
        (:func:`~minesweep_env.envs.board_batch_step_compiled.step_boards`, from
        ``phase`` with ``count`` probes read): the actions read, new games on the boards
        ``arrays.restarting`` marks, :meth:`probe_and_autosolve` on the boards probed,
        the env's rewards, ends, stale flags, observations and masks.

        Every board plays a rule set the kernels play (:attr:`StepPath.COMPILED`).
        Returns the kernel's status, the probes' count, the boards restarted
        (``arrays.restarted[:restarts]``) and, once the probes are played, the cells each
        probed board opened and flagged (the batch's scratch, good until the next step);
        ``None`` when the kernel stopped before (a bad action, or paused for the env).
        """
        kernels = step_kernels()
        status, count, _, restarts, any_moved = kernels.step_boards(
            self.kernel_buffers(), arrays.buffers, phase, count
        )
        if status in (kernels.BAD_ACTION, kernels.PAUSED):
            return status, count, restarts, None
        boards = arrays.probed[:count]
        self._forget_objects(arrays.restarted[:restarts])
        if any_moved and self._objects_kept:  # a layout built before the mine moved is stale
            for board in boards[arrays.moved[:count]].tolist():
                self._built[board] = None
        changes = self._listed_changes(arrays.opened_ends[:count], arrays.flagged_ends[:count])
        if status == kernels.DONE:
            return status, count, restarts, changes
        # Some rounds are Python's: played on, then every probed board finished with the
        # whole step's changes.
        changes = self._rounds_deferred(boards, arrays.deferred[:count], changes, rule_sets)
        kernels.finish_boards(
            self.kernel_buffers(),
            arrays.buffers,
            boards,
            changes.opened,
            changes.opened_ends,
            changes.flagged,
            changes.flagged_ends,
            arrays.stepping[: len(arrays.stepping) - restarts],
        )
        return status, count, restarts, changes

    def first_clicks_python(self, boards: np.ndarray, cells: np.ndarray) -> None:
        """The first-click policy on the probes ``cells`` of ``boards`` whose first click
        the compiled step does not play (:meth:`step_compiled` pauses for them)."""
        python = ~self._first_compiled[boards]
        self._first_clicks(boards[python], cells[python])
