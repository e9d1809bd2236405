"""The state of N games of one board size in flat arrays: the base of the batched core.

:class:`BatchState` keeps the mines, numbers and player's views of N games in
``(N, W*H)`` arrays, starts their games (given layouts, or random layouts drawn
together), plays their first-click policies and builds a board's
:class:`MineLayout` or :class:`Board` when asked. How a step is played on this
state, and which of the ways, is :mod:`.batch_rounds` and
:mod:`.board_batch`'s: :meth:`BatchState.step_path` makes that choice, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache
from types import ModuleType

import numpy as np

from ..compiled import ready as kernels_ready
from ..core.board import Board
from ..core.cells import COVERED, adjacent_mine_counts
from ..core.first_click import FirstClick, protect_first_click
from ..core.layout import MineLayout
from ..core.minefield import WinRule
from ..solver.base import RuleSet
from ..solver.rules.complete import Complete
from .batch_flood import neighbour_array
from .layout_generator import STATE_WORDS, LayoutGenerator, layout_kernels

PLAYING, WON, LOST = 0, 1, 2
"""Codes of :attr:`BatchState.state`: the game's own verdict under the rule set's win rule."""


def complete_paths() -> ModuleType | None:
    """``complete``'s compiled paths (:mod:`..solver.rules.complete_compiled`) while the
    kernels may answer (:func:`~minesweep_env.compiled.ready`, asked every time, so
    :func:`~minesweep_env.compiled.python_only` holds here too), else ``None``."""
    if not kernels_ready():
        return None
    return _complete_compiled()


@cache
def _complete_compiled() -> ModuleType:
    """:mod:`..solver.rules.complete_compiled`, imported once (it imports numba)."""
    from ..solver.rules import complete_compiled

    return complete_compiled


class StepPath(Enum):
    """The three ways the batch plays a step's probes and the auto-solver's rounds
    (:meth:`BatchState.step_path` picks one)."""

    PYTHON = "python"
    """The kernels are not loaded: numpy probes and floods, every rule set's proof in Python."""
    ROUNDS = "rounds"
    """The kernels are loaded but some board plays a rule set they do not: numpy probes,
    compiled floods, ``complete``'s rounds compiled board by board, the others' in Python
    (:meth:`~.batch_rounds.BatchRounds.autosolve`)."""
    COMPILED = "compiled"
    """Every board concerned plays ``complete`` compiled: probes, floods and rounds in one
    compiled call (:meth:`~.board_batch.BoardBatch.probe_and_autosolve`; the vector env's
    whole step, :meth:`~.board_batch.BoardBatch.step_compiled`)."""


class _Layouts:
    """``BoardBatch.layouts[board]``: each board's :class:`MineLayout`, as
    :meth:`BatchState.layout` gives it."""

    def __init__(self, batch: BatchState) -> None:
        self._batch = batch

    def __getitem__(self, board: int) -> MineLayout:
        return self._batch.layout(int(board))

    def __len__(self) -> int:
        return self._batch.num_boards


class BatchState:
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

    def step_path(self, rule_sets: Sequence[RuleSet], boards: np.ndarray | None = None) -> StepPath:
        """How a step on ``boards`` (all of them when ``None``) is played: the batch's one
        choice among its three paths (:class:`StepPath`)."""
        if complete_paths() is None:
            return StepPath.PYTHON
        compiled = self.plays_compiled(rule_sets)
        every = self._every_rule_compiled if boards is None else bool(compiled[boards].all())
        return StepPath.COMPILED if every else StepPath.ROUNDS

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
