"""Semi-automatic Minesweeper: a minefield plus an auto-solver that runs after every probe."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .core.board import Board
from .core.board_spec import parse_board_spec
from .core.cells import COVERED, cell_coordinates
from .core.first_click import DeferredGenerator, FirstClick
from .core.layout import MineLayout
from .core.minefield import GameState, GeneratorSource, Minefield, WinRule
from .formats import load_layout
from .solver.autosolve import SolverObserver, autosolve
from .solver.base import RuleSet
from .solver.registry import get_rule_set
from .solver.rules.complete import Complete

IOCCC_RULE_SETS = frozenset({"endoh", "endoh-alt"})
"""The rule sets of the IOCCC 2020 program (``prog.c`` and ``prog.alt.c``)."""


def program_win_rule(rule_set: str | RuleSet) -> WinRule:
    """The win rule of the program a rule set reproduces.

    ``"nothing-covered"`` for the IOCCC rule sets: the program waits until no
    cell is left covered, so under ``endoh-alt`` a mine no number proves
    (``maps/ioccc/unwinnable.txt``) must be flagged by hand. ``"safe-cells-opened"``
    for every other. The terminal game and the rule-set ladder play by it to
    reproduce the program; :class:`Game` never looks it up: a rule set proves
    cells, the game decides when it is won.
    """
    name = rule_set if isinstance(rule_set, str) else rule_set.name
    return WinRule.NOTHING_COVERED if name in IOCCC_RULE_SETS else WinRule.SAFE_CELLS_OPENED


class Game:
    """A semi-automatic game: you guess, the rule set does the rest.

    After every probe the auto-solver opens every cell the rule set proves safe
    and flags every cell it proves a mine, until it proves nothing more.

    :param layout: the mines (the first-click policy may still change them).
    :param rule_set: a registered rule set name or instance.
    :param first_click: the first-click policy; ``"endoh"`` as the IOCCC program.
    :param seed: seeds the first-click policy's randomness: a seed, a generator, or a
        :class:`~minesweep_env.core.first_click.DeferredGenerator` (made only if the
        policy draws).
    :param win_rule: when the game is won, and :attr:`state` says so: ``"safe-cells-opened"``
        (default, the usual rule and the env's) or ``"nothing-covered"`` (the IOCCC
        program's: every mine flagged too; :func:`program_win_rule` gives it for
        ``endoh`` and ``endoh-alt``).

    A game on a random standard board, and the position to analyse, in two calls::

        game = Game.new("expert", seed=0)      # or "beginner", "intermediate", "16x16x40"
        game.probe(15, 8)
        probabilities = mine_probabilities(game.board)   # game.board: a Board snapshot

    :attr:`view` is the raw int8 array; :attr:`board` is the :class:`~minesweep_env.Board`
    the solvers take (the view plus the mine total).
    """

    def __init__(
        self,
        layout: MineLayout,
        rule_set: str | RuleSet = "endoh",
        first_click: FirstClick | str = FirstClick.ENDOH,
        seed: int | GeneratorSource | None = None,
        win_rule: WinRule | str = WinRule.SAFE_CELLS_OPENED,
    ):
        self.rule_set = get_rule_set(rule_set)
        self.rule_set.reset()  # an instance passed in may remember an earlier game
        rng: GeneratorSource
        if isinstance(seed, np.random.Generator | DeferredGenerator):
            rng = seed
        else:
            rng = np.random.default_rng(seed)
        self.minefield = Minefield(layout, first_click, rng, win_rule=win_rule)
        self.guesses = 0
        # complete plays a probe and its rounds in one compiled call when it can.
        self._compiled_probe = (
            self.rule_set.probe_and_play_out
            if isinstance(self.rule_set, Complete) and self.rule_set.plays_out_compiled()
            else None
        )
        self.last_opened: list[tuple[int, int]] = []
        self.last_flagged: list[tuple[int, int]] = []
        # (x, y) of each flat index, looked up once a game rather than once a probe.
        self._coordinates = cell_coordinates(self.minefield.width, self.minefield.height)

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        rule_set: str | RuleSet = "endoh",
        first_click: FirstClick | str = FirstClick.ENDOH,
        seed: int | GeneratorSource | None = None,
        win_rule: WinRule | str = WinRule.SAFE_CELLS_OPENED,
    ) -> Game:
        """A game on the layout in ``path`` (IOCCC or ``x``/``o`` format)."""
        return cls(
            load_layout(path),
            rule_set=rule_set,
            first_click=first_click,
            seed=seed,
            win_rule=win_rule,
        )

    @classmethod
    def new(
        cls,
        board: str = "beginner",
        seed: int | None = None,
        rule_set: str | RuleSet = "complete",
        first_click: FirstClick | str = FirstClick.SAFE,
        win_rule: WinRule | str = WinRule.SAFE_CELLS_OPENED,
    ) -> Game:
        """A game on a random layout of a standard board or ``WIDTHxHEIGHTxMINES``.

        The layout is ``MineLayout.random(W, H, M, np.random.default_rng(seed))``, the
        env's layout for layout seed ``seed``, and the first-click policy draws from the
        same generator after it. Defaults are the env's (``complete``, a safe
        first click that moves a mine), not the IOCCC program's that :meth:`__init__` keeps.

        :raises ValueError: for an unknown board or one that cannot be played.
        """
        width, height, mines = parse_board_spec(board)
        rng = np.random.default_rng(seed)
        layout = MineLayout.random(width, height, mines, rng)
        return cls(layout, rule_set=rule_set, first_click=first_click, seed=rng, win_rule=win_rule)

    @property
    def board(self) -> Board:
        """The position as the solvers take it (:func:`~minesweep_env.mine_probabilities`,
        :func:`~minesweep_env.deduce`): a copy of :attr:`view` with the mine total."""
        return self.minefield.board()

    @property
    def layout(self) -> MineLayout:
        """The mines as they are now (after the first-click policy)."""
        return self.minefield.layout

    @property
    def width(self) -> int:
        return self.minefield.width

    @property
    def height(self) -> int:
        return self.minefield.height

    @property
    def win_rule(self) -> WinRule:
        return self.minefield.win_rule

    @property
    def state(self) -> GameState:
        """The verdict: ``"playing"``, ``"won"`` (by :attr:`win_rule`) or ``"lost"``.

        The only one: the env reports it as ``info["state"]`` and the evaluation
        harness counts its wins from it.
        """
        return self.minefield.state

    @property
    def mines_left(self) -> int:
        """Mines minus flags: the IOCCC program's counter."""
        return self.minefield.mines_left

    @property
    def view(self) -> np.ndarray:
        """The player's view (int8 codes, see :mod:`minesweep_env.core.cells`); read-only use."""
        return self.minefield.view

    def probe(self, x: int, y: int, observer: SolverObserver | None = None) -> GameState:
        """Probe (x, y) as a guess, then let the auto-solver run. Returns the state.

        Probing a cell that is not covered (or a flag, or after the game) changes nothing;
        a cell off the board raises ``ValueError``.

        :param observer: watches the auto-solver's rounds (see :func:`autosolve`).
        """
        minefield = self.minefield
        minefield.check_cell(x, y)
        if minefield.state is not GameState.PLAYING or minefield.view[y, x] != COVERED:
            self.last_opened, self.last_flagged = [], []  # a probed cell or a flag
            return minefield.state
        self.guesses += 1
        compiled_probe = self._compiled_probe if observer is None else None
        played = None if compiled_probe is None else compiled_probe(minefield, x, y)
        if played is None:
            opened = minefield.probe(x, y)
            flagged: list[int] = []
            done = False
        else:
            opened, flagged, done = played
        if not done and minefield.state is GameState.PLAYING:
            more_opened, more_flagged = autosolve(minefield, self.rule_set, observer)
            opened += more_opened
            flagged += more_flagged
        # A comprehension: half the time of map() over the tuple's bound __getitem__.
        coordinates = self._coordinates
        self.last_opened = [coordinates[cell] for cell in opened]
        self.last_flagged = [coordinates[cell] for cell in flagged] if flagged else []
        return minefield.state

    def toggle_flag(self, x: int, y: int) -> bool:
        """Flag or unflag a covered cell by hand; returns whether anything changed.

        A cell off the board raises ``ValueError``.
        """
        self.minefield.check_cell(x, y)
        flagged = self.minefield.view[y, x] == -2
        return self.minefield.set_flag(x, y, not flagged)

    def rows(self) -> list[str]:
        """One string per row: ``?`` covered, ``!`` flag, digits, ``*`` mines after a loss."""
        return self.minefield.rows()
