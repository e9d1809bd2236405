"""N games of one board size in flat arrays: the batched core of the vector env.

:class:`BoardBatch` keeps the mines, numbers and player's views of N games in
``(N, W*H)`` arrays and plays probes, zero floods, the auto-solver's flags and
openings on all of them at once. It follows :class:`minesweep_env.core.minefield.Minefield`
and :func:`minesweep_env.solver.autosolve.autosolve` rule for rule, so a board
here ends every step in the same position as a :class:`~minesweep_env.Game`
given the same layout, first-click generator and rule set.

Every operation takes the whole batch in one call: the probes of all boards,
then solver rounds in lockstep (each round asks every board still making
progress for its rule set's proof, then flags and opens for all of them).
Per-board Python is left where it cannot be batched: the rule sets'
``prove``, the first-click policy (where a mine lies under the first click; the
compiled step moves a ``"safe"`` seeded game's mine itself) and each new game's
random draws; the random layouts drawn then start together
(:meth:`BoardBatch.start_random`), their ``MineLayout`` built only when asked
for (:attr:`BoardBatch.layouts`). Once the
compiled kernels are cached (:mod:`minesweep_env.compiled`), the
floods and, for boards whose rule set is ``complete``, every round of the
auto-solver run compiled, all boards in one call
(:mod:`minesweep_env.solver.rules.complete_play_compiled`); a step's probes with their
rounds, counters, verdicts, settled probabilities and the cells they changed
(:class:`Changes`) are one call
(:mod:`minesweep_env.envs.board_batch_compiled`). :func:`open_cells` and the
rounds below stay as the Python path, written the way the kernels take it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from ..compiled import ready as kernels_ready
from ..core.board import Board
from ..core.cells import COVERED, FLAGGED, adjacent_mine_counts
from ..core.first_click import FirstClick, protect_first_click
from ..core.layout import MineLayout
from ..core.minefield import WinRule
from ..solver.base import RuleSet
from ..solver.rules.complete import Complete
from .batch_changes import Changes
from .batch_flood import neighbour_array, open_cells
from .layout_generator import STATE_WORDS, LayoutGenerator, layout_kernels

PLAYING, WON, LOST = 0, 1, 2
"""Codes of :attr:`BoardBatch.state`: the game's own verdict under the rule set's win rule."""


@cache
def _complete_paths() -> ModuleType | None:
    """``complete``'s compiled paths (:mod:`..solver.rules.complete_compiled`) once the
    kernels are cached, else ``None`` (importing them imports numba)."""
    if not kernels_ready():
        return None
    from ..solver.rules import complete_compiled

    return complete_compiled


def batch_kernels() -> ModuleType:
    """The batch's step kernels, imported once they are wanted (importing them imports
    numba); held, since an import statement costs microseconds on every step."""
    from . import board_batch_compiled as kernels

    return kernels


@cache
def step_kernels() -> ModuleType:
    """The vector env's whole-step kernels (:func:`board_batch_compiled`' reason to be held)."""
    from . import board_batch_step_compiled as kernels

    return kernels


class StepArrays:
    """The vector env's arrays a compiled step reads and writes beside the batch's own
    (:func:`~minesweep_env.envs.board_batch_step_compiled.step_boards` says how): its
    settings, its kept buffers, and the arrays of the step under way (set by the env
    before each step: ``actions``, ``restarting``, ``rewards``, ``terminated``,
    ``truncated``, ``probability``, ``invalid``).

    ``words`` holds each board's generator (``PCG64``) as four uint64 words where
    ``in_words`` says so; the env moves a generator between its words and its
    ``numpy`` object (:meth:`SemiAutoMinesVectorEnv._board_rng`).
    """

    def __init__(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        steps: np.ndarray,
        stale: np.ndarray,
        *,
        mine_count: int,
        invalid_reward: float,
        first_click: FirstClick,
        info_probability: bool,
        progress: bool,
        planes: bool,
        max_steps: int,
    ) -> None:
        num_boards = len(steps)
        self.observations, self.masks, self.steps, self.stale = observations, masks, steps, stale
        self.mine_count, self.invalid_reward, self.max_steps = mine_count, invalid_reward, max_steps
        self.first_none = first_click is FirstClick.NONE
        self.first_python = first_click is not FirstClick.NONE  # where a policy may draw
        self.info_probability, self.progress, self.planes = info_probability, progress, planes
        self.probed = np.empty(num_boards, np.int64)
        self.probed_cells = np.empty(num_boards, np.int64)
        self.rest = np.empty(num_boards, dtype=bool)
        self.stepping = np.empty(num_boards, np.int64)
        self.restarted = np.empty(num_boards, np.int64)
        self.seeds = np.empty(num_boards, np.int64)
        self.words = np.zeros((num_boards, 4), np.uint64)
        self.in_words = np.zeros(num_boards, dtype=bool)
        self.deferred = np.empty(num_boards, dtype=bool)
        self.moved = np.empty(num_boards, dtype=bool)
        self.opened_ends = np.empty(num_boards, np.int64)
        self.flagged_ends = np.empty(num_boards, np.int64)
        empty = np.empty(0)
        self.actions = np.empty(0, np.int64)
        self.restarting = np.empty(0, dtype=bool)
        self.rewards = self.probability = empty
        self.terminated = self.truncated = self.invalid = np.empty(0, dtype=bool)


class _Layouts:
    """``BoardBatch.layouts[board]``: each board's :class:`MineLayout`, as
    :meth:`BoardBatch.layout` gives it."""

    def __init__(self, batch: BoardBatch) -> None:
        self._batch = batch

    def __getitem__(self, board: int) -> MineLayout:
        return self._batch.layout(int(board))

    def __len__(self) -> int:
        return self._batch.num_boards


class BoardBatch:
    """The mines, views and game states of N boards of one size.

    :param num_boards: N.
    :param width: board width W; cells are flat indices ``y * W + x``.
    :param height: board height H.
    :param first_click: the first-click policy of every game.
    :param win_rule: when a game counts as won (the rule set's ``win_rule``).
    """

    def __init__(
        self,
        num_boards: int,
        width: int,
        height: int,
        first_click: FirstClick,
        win_rule: WinRule,
    ) -> None:
        self.num_boards, self.width, self.height = num_boards, width, height
        self.first_click = first_click
        self.win_rule = win_rule
        cells = width * height
        self.mines = np.zeros((num_boards, cells), dtype=bool)
        self._mine_bytes = self.mines.view(np.int8)  # as the compiled steps take the mines
        self.numbers = np.zeros((num_boards, cells), dtype=np.int8)
        self.view = np.full((num_boards, cells), COVERED, dtype=np.int8)
        self.mine_count = np.zeros(num_boards, dtype=np.int64)
        self.safe_left = np.zeros(num_boards, dtype=np.int64)
        self.probes = np.zeros(num_boards, dtype=np.int64)
        self.guesses = np.zeros(num_boards, dtype=np.int64)
        self.state = np.zeros(num_boards, dtype=np.int8)
        # A random game keeps its priorities here and builds its MineLayout only when
        # asked (``layouts``); a given layout (a map, options["layout"]) is kept as it is.
        self.priorities = np.zeros((num_boards, cells), dtype=np.int64)
        self._given: list[MineLayout | None] = [None] * num_boards
        self._built: list[MineLayout | None] = [None] * num_boards
        # False while _given, _built and _rngs hold only None (the compiled steps' usual
        # case): then a new game has no object of its own to forget (_forget_objects).
        self._objects_kept = False
        self.layouts = _Layouts(self)
        # The mine probabilities of each board's position where the compiled auto-solver
        # settled it with a full count (``settled``), until the board changes again.
        self.probabilities = np.zeros((num_boards, cells), dtype=np.float64)
        self.settled = np.zeros(num_boards, dtype=bool)
        self._neighbours = neighbour_array(width, height)
        # Each game's generator for its first click: kept, or (None) made from its state
        # in _states when the first click draws (see start_seeded).
        self._rngs: list[np.random.Generator | None] = [None] * num_boards
        self._states = np.zeros((num_boards, STATE_WORDS), dtype=np.uint64)
        # The games whose "safe" first click the compiled step plays (start_seeded's):
        # their mine moves from _states there, not in _move_first_mine.
        self._first_compiled = np.zeros(num_boards, dtype=bool)
        self._spare_rng = np.random.default_rng(0)
        # The compiled probes' constraints per board, kept with the view they describe.
        self._seen: np.ndarray | None = None
        self._track: np.ndarray | None = None
        # The compiled probes' scratch: one board's opened and flagged cells, all boards'.
        self._scratch = np.empty((4, 0), np.int64)
        self._rules_seen: list[RuleSet] = []
        self._rules_compiled = np.zeros(0, dtype=bool)
        self._every_rule_compiled = False

    def start(self, board: int, layout: MineLayout, rng: np.random.Generator) -> None:
        """A new game on ``board``: ``layout`` covered, ``rng`` kept for the first-click policy."""
        self._new_games(np.array([board]), [rng])
        self._set_layout(board, layout)

    def start_random(
        self,
        boards: np.ndarray,
        priorities: np.ndarray,
        mine_count: int,
        rngs: Sequence[np.random.Generator],
    ) -> None:
        """New games on ``boards``: board ``boards[k]`` gets the layout
        ``MineLayout.from_priorities(priorities[k], mine_count)`` (``priorities[k]`` a
        permutation of the flat cells), all in one pass; ``rngs[k]`` as :meth:`start`'s."""
        self._new_games(boards, rngs)
        mines = priorities < mine_count
        self.priorities[boards] = priorities
        self.mines[boards] = mines
        counts = adjacent_mine_counts(mines.reshape(-1, self.height, self.width))
        self.numbers[boards] = counts.reshape(len(boards), -1)
        self.mine_count[boards] = mine_count
        self.safe_left[boards] = self.width * self.height - mine_count
        for board in boards.tolist():
            self._given[board] = self._built[board] = None

    def start_seeded(self, boards: np.ndarray, seeds: np.ndarray, mine_count: int) -> None:
        """:meth:`start_random` with the priorities and generators of
        ``np.random.default_rng(seeds[k])`` (``MineLayout.random``'s draw), drawn, counted
        and written into the batch's rows in one compiled call
        (:func:`~minesweep_env.envs.board_batch_compiled.start_boards`); each
        board's generator is made only if its first click draws. Needs the kernels."""
        batch_kernels().start_boards(
            seeds,
            np.ascontiguousarray(boards, dtype=np.int64),
            mine_count,
            *self._new_game_rows(self.mines),
        )
        self._forget_objects(boards)

    def _new_game_rows(self, mines: np.ndarray) -> tuple[Any, ...]:
        """The batch's rows and settings a compiled new game writes or reads, in the
        order :func:`~minesweep_env.envs.board_batch_compiled.start_boards` and
        :func:`~minesweep_env.envs.board_batch_step_compiled.restart_boards` take them
        (``mines``: the mine rows as the kernel types them)."""
        return (
            self.height,
            self.width,
            self.priorities,
            mines,
            self.numbers,
            self._states,
            self.view,
            self.mine_count,
            self.safe_left,
            self.probes,
            self.guesses,
            self.state,
            self.settled,
            self._first_compiled,
            self.first_click is FirstClick.SAFE,
        )

    def _forget_objects(self, boards: np.ndarray) -> None:
        """No layout object or first-click generator kept for ``boards`` (new random games)."""
        if not self._objects_kept:
            return
        given, built, kept = self._given, self._built, self._rngs
        for board in boards.tolist():
            kept[board] = given[board] = built[board] = None
        self._objects_kept = any(
            item is not None for objects in (given, built, kept) for item in objects
        )

    def restart_compiled(self, boards: np.ndarray, arrays: StepArrays) -> None:
        """New random games on ``boards`` as :meth:`start_seeded` starts them, each seed
        drawn from its board's generator words (into ``arrays.seeds``), and the env's step
        counts, stale flags, observations and masks of those boards as a new game has them,
        in one compiled call
        (:func:`~minesweep_env.envs.board_batch_step_compiled.restart_boards`)."""
        step_kernels().restart_boards(
            boards,
            arrays.words,
            arrays.seeds,
            arrays.mine_count,
            *self._new_game_rows(self._mine_bytes),
            arrays.steps,
            arrays.stale,
            arrays.observations,
            arrays.masks,
            arrays.planes,
        )
        self._forget_objects(boards)

    def step_compiled(
        self, arrays: StepArrays, rule_sets: Sequence[RuleSet], phase: int, count: int
    ) -> tuple[int, int, int, Changes | None]:
        """A whole step of the vector env in one compiled call
        (:func:`~minesweep_env.envs.board_batch_step_compiled.step_boards`, from
        ``phase`` with ``count`` probes read): the actions read, new games on the boards
        ``arrays.restarting`` marks, :meth:`probe_and_autosolve` on the boards probed,
        the env's rewards, ends, stale flags, observations and masks.

        Every board plays a rule set the kernels play (``complete``) and the kernels are
        loaded. Returns the kernel's status, the probes' count, the boards restarted
        (``arrays.restarted[:restarts]``) and, once the probes are played, the cells each
        probed board opened and flagged (the batch's scratch, good until the next step);
        ``None`` when the kernel stopped before (a bad action, or paused for the env).
        """
        self._track_constraints()
        assert self._seen is not None and self._track is not None
        scratch, size = self._scratch, self.width * self.height
        kernels = step_kernels()
        status, count, _, restarts, any_moved = kernels.step_boards(
            arrays.actions,
            arrays.restarting,
            phase,
            count,
            arrays.first_none,
            arrays.first_python,
            arrays.info_probability,
            arrays.invalid_reward,
            arrays.probability,
            arrays.invalid,
            arrays.rest,
            arrays.probed,
            arrays.probed_cells,
            arrays.stepping,
            arrays.restarted,
            arrays.seeds,
            arrays.words,
            self.view,
            self._mine_bytes,
            self.numbers,
            self.mine_count,
            self.win_rule is WinRule.NOTHING_COVERED,
            self.safe_left,
            self.height,
            self.width,
            self.probabilities,
            self.settled,
            self.state,
            self.probes,
            self.guesses,
            arrays.deferred,
            scratch[0, :size],
            scratch[1, :size],
            scratch[2],
            arrays.opened_ends,
            scratch[3],
            arrays.flagged_ends,
            self._seen,
            self._track,
            self._states,
            self._first_compiled,
            arrays.moved,
            arrays.mine_count,
            self.priorities,
            self.first_click is FirstClick.SAFE,
            arrays.progress,
            arrays.rewards,
            arrays.terminated,
            arrays.truncated,
            arrays.stale,
            arrays.observations,
            arrays.masks,
            arrays.planes,
            arrays.steps,
            arrays.max_steps,
        )
        if status in (kernels.BAD_ACTION, kernels.PAUSED):
            return status, count, restarts, None
        boards = arrays.probed[:count]
        self._forget_objects(arrays.restarted[:restarts])
        if any_moved and self._objects_kept:  # a layout built before the mine moved is stale
            for board in boards[arrays.moved[:count]].tolist():
                self._built[board] = None
        opened_ends, flagged_ends = arrays.opened_ends[:count], arrays.flagged_ends[:count]
        end_opened = opened_ends[-1] if count else 0
        end_flagged = flagged_ends[-1] if count else 0
        changes = Changes(
            scratch[2, :end_opened], opened_ends, scratch[3, :end_flagged], flagged_ends
        )
        if status == kernels.DONE:
            return status, count, restarts, changes
        # Some rounds are Python's: played on, then every probed board finished with the
        # whole step's changes, found by comparing (as probe_and_autosolve does).
        before = self.view[boards]
        before[changes.rows(changes.opened_ends), changes.opened] = COVERED
        before[changes.rows(changes.flagged_ends), changes.flagged] = COVERED
        self._play_rounds(boards[arrays.deferred[:count]], rule_sets)
        changes = Changes.between(before, self.view[boards])
        kernels.finish_boards(
            boards,
            self.view,
            self.state,
            self.mine_count,
            changes.opened,
            changes.opened_ends,
            changes.flagged,
            changes.flagged_ends,
            arrays.progress,
            arrays.rewards,
            arrays.terminated,
            arrays.stale,
            arrays.observations,
            arrays.masks,
            arrays.planes,
            arrays.stepping[: len(arrays.stepping) - restarts],
            arrays.steps,
            arrays.max_steps,
            arrays.truncated,
        )
        return status, count, restarts, changes

    def first_clicks_python(self, boards: np.ndarray, cells: np.ndarray) -> None:
        """The first-click policy on the probes ``cells`` of ``boards`` whose first click
        the compiled step does not play (:meth:`step_compiled` pauses for them)."""
        python = ~self._first_compiled[boards]
        self._first_clicks(boards[python], cells[python])

    def _track_constraints(self) -> None:
        """The compiled probes' kept constraints and scratch, made on first use."""
        if self._seen is not None:
            return
        from ..solver.rules import complete_kept_compiled as tracked_kernels

        size = self.width * self.height
        self._seen = np.full((self.num_boards, size), tracked_kernels.UNSEEN, np.int8)
        self._track = np.zeros((self.num_boards, tracked_kernels.TRACK_ROWS, size), np.int64)
        self._scratch = np.empty((4, self.num_boards * size), np.int64)

    def _new_games(
        self, boards: np.ndarray, rngs: Sequence[np.random.Generator | None] | None
    ) -> None:
        """Fresh views and counters on ``boards``; ``rngs`` their first-click generators
        (``None``: none, and no layout object yet, as :meth:`start_seeded` starts them)."""
        if rngs is None:
            self._forget_objects(boards)
        else:
            for board, rng in zip(boards.tolist(), rngs, strict=True):
                self._rngs[board] = rng
            self._objects_kept = True
            self._first_compiled[boards] = False
        self.settled[boards] = False
        self.view[boards] = COVERED
        self.probes[boards] = 0
        self.guesses[boards] = 0
        self.state[boards] = PLAYING

    def layout(self, board: int) -> MineLayout:
        """The mines of ``board``'s game as they are now (after the first-click policy)."""
        layout = self._given[board]
        if layout is None:
            layout = self._built[board]
        if layout is None:
            shape = (self.height, self.width)
            layout = MineLayout(
                mines=self.mines[board].reshape(shape).copy(),
                priorities=self.priorities[board].reshape(shape).copy(),
            )
            self._built[board] = layout
            self._objects_kept = True
        return layout

    def _set_layout(self, board: int, layout: MineLayout) -> None:
        self._given[board] = layout
        self._objects_kept = True
        self.mines[board] = layout.mines.reshape(-1)
        self.numbers[board] = layout.numbers.reshape(-1)
        self.mine_count[board] = layout.mine_count
        opened = int(np.count_nonzero(self.view[board] >= 0))
        self.safe_left[board] = self.mines.shape[1] - layout.mine_count - opened

    def board(self, board: int) -> Board:
        """A snapshot of ``board``'s position, as :meth:`Minefield.board` gives it."""
        grid = self.view[board].reshape(self.height, self.width).copy()
        return Board(grid, int(self.mine_count[board]))

    def probe_and_autosolve(
        self, boards: np.ndarray, cells: np.ndarray, rule_sets: Sequence[RuleSet]
    ) -> Changes:
        """:meth:`probe` then :meth:`autosolve` on ``boards``; returns the cells each board
        opened and flagged.

        When every one of them plays ``complete`` compiled: the probes, their floods
        and every board's rounds in one compiled call that also writes every board's
        counters, verdict and settled probabilities and lists the cells, each board's
        constraints kept from step to step
        (:func:`~minesweep_env.envs.board_batch_compiled.probe_boards`).
        """
        compiled = _complete_paths()
        if compiled is None or not self.plays_compiled(rule_sets)[boards].all():
            before = self.view[boards]  # a copy: an index array gathers
            self.probe(boards, cells)
            self.autosolve(boards, rule_sets)
            return Changes.between(before, self.view[boards])
        first_compiled = self._first_compiled
        if not first_compiled.all():  # some first clicks are Python's
            python = ~first_compiled[boards]
            self._first_clicks(boards[python], cells[python])
        size = self.width * self.height
        self._track_constraints()
        assert self._seen is not None and self._track is not None
        count = len(boards)
        deferred = np.zeros(count, dtype=bool)
        moved = np.empty(count, dtype=bool)
        opened_ends = np.empty(count, np.int64)
        flagged_ends = np.empty(count, np.int64)
        scratch = self._scratch
        batch_kernels().probe_boards(
            self.view,
            self.mines.view(np.int8),
            self.numbers,
            np.ascontiguousarray(boards, dtype=np.int64),
            np.ascontiguousarray(cells, dtype=np.int64),
            self.mine_count,
            self.win_rule is WinRule.NOTHING_COVERED,
            self.safe_left,
            self.height,
            self.width,
            self.probabilities,
            self.settled,
            self.state,
            self.probes,
            self.guesses,
            deferred,
            scratch[0, :size],
            scratch[1, :size],
            scratch[2],
            opened_ends,
            scratch[3],
            flagged_ends,
            self._seen,
            self._track,
            self._states,
            first_compiled,
            moved,
        )
        if moved.any():  # a mine moved off a first click: a layout built before is stale
            for board in boards[moved].tolist():
                self._built[board] = None
        changes = Changes(
            scratch[2, : opened_ends[-1] if count else 0].copy(),
            opened_ends,
            scratch[3, : flagged_ends[-1] if count else 0].copy(),
            flagged_ends,
        )
        if not deferred.any():
            return changes
        # Some rounds are Python's: the views before this step (the listed cells
        # covered again), then every board's changes found by comparing.
        before = self.view[boards]
        before[changes.rows(changes.opened_ends), changes.opened] = COVERED
        before[changes.rows(changes.flagged_ends), changes.flagged] = COVERED
        self._play_rounds(boards[deferred], rule_sets)
        return Changes.between(before, self.view[boards])

    def plays_compiled(self, rule_sets: Sequence[RuleSet]) -> np.ndarray:
        """``bool`` (N,): the boards whose rule set is ``complete`` played compiled.

        Kept with the rule set objects it was found for (asked on every step, found
        again when the objects differ: lists compare their items by identity first, so
        the same objects cost no ``__eq__`` call, and a rule set's class decides).
        """
        rules_now = list(rule_sets)
        if rules_now != self._rules_seen:
            self._rules_seen = rules_now
            self._rules_compiled = np.array(
                [isinstance(rules, Complete) and rules.plays_out_compiled() for rules in rule_sets],
                dtype=bool,
            )
            self._every_rule_compiled = bool(self._rules_compiled.all())
        return self._rules_compiled

    def all_play_compiled(self, rule_sets: Sequence[RuleSet]) -> bool:
        """Whether every board's rule set is played compiled (:meth:`plays_compiled`)."""
        self.plays_compiled(rule_sets)
        return self._every_rule_compiled

    def probe(self, boards: np.ndarray, cells: np.ndarray) -> None:
        """The players' guesses: probe ``cells[k]`` on ``boards[k]``, then let the solver play.

        Every board must be playing and every cell covered (the env checks);
        a board appears at most once.
        """
        self._first_clicks(boards, cells)
        self.settled[boards] = False
        self.probes[boards] += 1
        self.guesses[boards] += 1
        hit = self.mines[boards, cells]
        self.state[boards[hit]] = LOST
        self._open(boards[~hit], cells[~hit])
        self._update_won(boards[~hit])

    def _first_clicks(self, boards: np.ndarray, cells: np.ndarray) -> None:
        """The first-click policy on the boards whose probe is their first."""
        first = self.probes[boards] == 0
        if self.first_click in (FirstClick.SAFE, FirstClick.ENDOH):
            # No mine under the click: these policies neither move one nor draw.
            first &= self.mines[boards, cells]
        elif self.first_click is FirstClick.NONE:
            first[:] = False
        for board, cell in zip(boards[first].tolist(), cells[first].tolist(), strict=True):
            self._protect_first_click(board, cell)

    def _protect_first_click(self, board: int, cell: int) -> None:
        """The first-click policy on ``board``'s first probe, ``cell`` (as ``Minefield``'s)."""
        rng: np.random.Generator | LayoutGenerator | None = self._rngs[board]
        if rng is None and self.first_click is FirstClick.SAFE:
            self._move_first_mine(board, cell)
            return
        if rng is None:  # a game of start_seeded: its generator as the layout left it
            # Made only if the policy needs it, from one spare generator restated (making
            # one costs as much as a beginner step): a game draws here only.
            rng = LayoutGenerator(self._states[board], self._spare_rng)
        shape = (self.height, self.width)
        before = self.mines[board].reshape(shape)
        x, y = cell % self.width, cell // self.width
        mines = protect_first_click(before, x, y, self.first_click, rng)
        if np.array_equal(mines, before):
            return
        given = self._given[board]
        if given is not None:
            self._set_layout(board, MineLayout(mines=mines, priorities=given.priorities))
            return
        # A random game: new mines, the same priorities (the layout is built when asked).
        self._built[board] = None
        self.mines[board] = mines.reshape(-1)
        self.numbers[board] = adjacent_mine_counts(mines).reshape(-1)
        self.mine_count[board] = int(np.count_nonzero(mines))
        opened = int(np.count_nonzero(self.view[board] >= 0))
        self.safe_left[board] = self.mines.shape[1] - int(self.mine_count[board]) - opened

    def _move_first_mine(self, board: int, cell: int) -> None:
        """``"safe"``'s move on a game of :meth:`start_seeded` with a mine under its first
        click ``cell``: :func:`protect_first_click`'s draw and result, in place.

        The mine goes to the free cell numpy's ``choice`` picks from the state the
        layout draw left (:meth:`LayoutGenerator.choose_one`), and only the numbers
        around the two cells change (a whole-board recount costs three times more):
        the mine count, and the safe cells left on an untouched view, stay.

        The reference of the compiled copy
        :func:`~minesweep_env.envs.board_batch_compiled.move_first_mine` (its docstring names
        the tests holding them equal).
        """
        mines = self.mines[board]
        free = np.flatnonzero(~mines)  # the clicked cell holds a mine: it is not among them
        target = int(free[layout_kernels().choose_one(self._states[board], len(free))])
        mines[cell] = False
        mines[target] = True
        numbers, neighbours = self.numbers[board], self._neighbours
        around = neighbours[cell]
        numbers[around[around >= 0]] -= 1
        around = neighbours[target]
        numbers[around[around >= 0]] += 1
        self._built[board] = None

    def autosolve(self, boards: np.ndarray, rule_sets: Sequence[RuleSet]) -> None:
        """Play out every proof of ``rule_sets[b]`` on each board b of ``boards``.

        :func:`minesweep_env.solver.autosolve.autosolve` on many boards: each
        round asks every board still making progress for its proof, flags the
        proven mines and opens the proven safe cells of all of them at once,
        until no board's rule set proves anything new or its game ended.
        Rule sets are sound and env games have no hand-made flags, so no proof
        names a mine safe (the one way ``Minefield.open_safe`` loses).
        """
        active = boards[self.state[boards] == PLAYING]
        compiled = _complete_paths()
        if compiled is not None and len(active):
            batched = self.plays_compiled(rule_sets)[active]
            if batched.any():
                deferred = self._play_out_compiled(compiled, active[batched])
                active = np.sort(np.concatenate([active[~batched], deferred]))
        self._play_rounds(active, rule_sets)

    def _play_rounds(self, active: np.ndarray, rule_sets: Sequence[RuleSet]) -> None:
        """The auto-solver's rounds on the playing boards ``active``, proof by proof in
        Python (:meth:`autosolve` after whatever was played compiled)."""
        while len(active):
            mine_boards: list[int] = []
            mine_cells: list[int] = []
            safe_boards: list[int] = []
            safe_cells: list[int] = []
            for board in active.tolist():
                proof = rule_sets[board].prove(self.board(board))
                mine_boards += [board] * len(proof.mines)
                mine_cells += proof.mines
                safe_boards += [board] * len(proof.safe)
                safe_cells += proof.safe
            flag_boards = np.array(mine_boards, dtype=np.int64)
            flag_cells = np.array(mine_cells, dtype=np.int64)
            new = self.view[flag_boards, flag_cells] == COVERED
            self.view[flag_boards[new], flag_cells[new]] = FLAGGED
            progress = np.zeros(self.num_boards, dtype=bool)
            progress[flag_boards[new]] = True
            opened = self._open(
                np.array(safe_boards, dtype=np.int64), np.array(safe_cells, dtype=np.int64)
            )
            progress |= opened > 0
            self._update_won(active)
            active = active[progress[active] & (self.state[active] == PLAYING)]

    def _play_out_compiled(self, compiled: ModuleType, boards: np.ndarray) -> np.ndarray:
        """``complete``'s auto-solver on ``boards`` in one compiled call; returns the boards
        left to play round by round (a round the compiled proof hands back).

        Where a full count settled a board, its probabilities are kept in
        :attr:`probabilities` (``info["mine_probability"]`` of the next step reads
        them there, the same floats a single env's rule set hands out).
        """
        from ..solver.rules.complete_proof_compiled import DEFER, FULL

        boards = np.ascontiguousarray(boards, dtype=np.int64)
        status = np.empty(len(boards), dtype=np.int8)
        won = np.zeros(len(boards), dtype=bool)
        probabilities = np.empty((len(boards), self.width * self.height))
        compiled.play_out_many(
            self.view,
            self.mines.view(np.int8),
            self.numbers,
            boards,
            self.mine_count,
            self.win_rule is WinRule.NOTHING_COVERED,
            self.safe_left,
            self.height,
            self.width,
            probabilities,
            status,
            won,
        )
        self._update_won(boards)
        settled = (status == FULL) & ~won
        self.probabilities[boards[settled]] = probabilities[settled]
        self.settled[boards] = settled
        return boards[status == DEFER]

    def _open(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Open ``cells[k]`` on ``boards[k]`` with their floods; returns the count per board."""
        compiled = _complete_paths()
        if compiled is None:
            opened = open_cells(self.view, self.numbers, self._neighbours, boards, cells)
        else:
            opened = np.zeros(self.num_boards, dtype=np.int64)
            compiled.open_many(
                self.view,
                self.numbers,
                np.ascontiguousarray(boards, dtype=np.int64),
                np.ascontiguousarray(cells, dtype=np.int64),
                self.height,
                self.width,
                opened,
            )
        self.safe_left -= opened
        return opened

    def _update_won(self, boards: np.ndarray) -> None:
        """Mark as won the boards the win rule calls won (``Minefield._update_won``)."""
        won = (self.state[boards] == PLAYING) & (self.safe_left[boards] == 0)
        if self.win_rule is WinRule.NOTHING_COVERED:
            won &= ~(self.view[boards] == COVERED).any(axis=1)
        self.state[boards[won]] = WON
