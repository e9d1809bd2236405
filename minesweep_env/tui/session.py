"""One sitting at the terminal game, without the terminal: games, clock, cursor, odds.

Everything the curses front end shows is decided here, so it can be tested
without a screen. A session makes a new :class:`~minesweep_env.Game` on every
restart: from the map file, at a fixed size, or (as the IOCCC program, with no
map) at the size that fills the terminal with a fifth of the cells mines.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.cells import COVERED, FLAGGED, neighbour_sum
from ..core.first_click import FirstClick
from ..core.layout import MineLayout
from ..core.minefield import GameState
from ..game import Game
from ..solver.registry import get_rule_set
from .autoplay import Autoplay
from .driver import Driver, Guess, InvalidGuess, check_guess, lift_flag
from .geometry import terminal_field_size
from .probability_worker import Advisor, ProbabilityWorker
from .solver_steps import SolverSteps, chunked, reveal_order

ANIMATION_FRAMES = 40
"""Frames an auto-solver move is shown in at most (about 0.6 s at the frame delay)."""


@dataclass(frozen=True)
class GameSpec:
    """What kind of game ``r`` starts.

    Exactly one of: ``layout`` (a map; every restart replays it), ``size``
    (width, height, mines; a new random layout each time), or neither (fill the
    terminal, a fifth of the cells mines, re-fitted on every restart). With a
    ``driver`` the games are the driver's and ``size`` only says how large they
    are (for the terminal check).
    """

    rule_set: str = "endoh"
    first_click: str = FirstClick.ENDOH.value
    layout: MineLayout | None = None
    size: tuple[int, int, int] | None = None
    map_path: Path | None = None
    seed: int | None = None
    win_rule: str = "nothing-covered"  # the IOCCC program's, as the defaults above
    advisor: Advisor | None = None
    """Who the ``h`` key asks (``semiautomines play`` passes the search agent when the
    agents package is installed); ``None``: the safest cell."""
    advisor_name: str = "safest"
    driver: Driver | None = None
    """Who guesses instead of the person (``watch``, ``replay``); ``None``: the person."""
    delay: float = 0.5
    """Seconds between a driver's guesses."""
    start_paused: bool = False
    """Whether a driven game waits for the arrow keys from the start (``replay``)."""
    start: tuple[int, int] | None = None
    """The map's start cell (its ``.start`` file): every game on the map opens there by
    itself, as ``evaluate`` and ``solvable`` play a no-guess map."""

    @property
    def fills_terminal(self) -> bool:
        return self.layout is None and self.size is None and self.driver is None


@dataclass
class Move:
    """What a probe or flag changed, in the order to show it."""

    steps: list[list[tuple[int, int]]] = field(default_factory=list)
    """Chunks of (flat index, new view code), one animation frame each."""


class Session:
    """The games of one sitting, and what the player sees of the current one.

    :param spec: what every new game is made from.
    :param lines: terminal height, for games that fill the terminal.
    :param cols: terminal width, likewise.
    :param animate: whether moves are shown step by step.
    """

    def __init__(self, spec: GameSpec, lines: int, cols: int, animate: bool = True):
        self.spec = spec
        self.animate = animate
        self.rng = np.random.default_rng(spec.seed)
        self.overlay = False
        self.help_shown = False
        self.cursor_shown = spec.driver is None  # space probes under it: seen from the start
        self.probability_worker = ProbabilityWorker(spec.advisor)
        self.autoplay: Autoplay | None = None
        """The pace of the driver's guesses, when a driver plays."""
        if spec.driver is not None:
            self.autoplay = Autoplay(spec.driver, spec.delay, spec.start_paused)
        self.new_game(lines, cols)

    # -- games -------------------------------------------------------------------------
    def new_game(self, lines: int, cols: int) -> None:
        """Start over: the same map, a fresh layout (re-fitted to the terminal), or the
        driver's game."""
        self._start(self._make_game(lines, cols))
        if self.autoplay is not None:
            self.autoplay.start_game(time.monotonic())
        elif self.spec.start is not None:
            self._open_start(self.spec.start)

    def _open_start(self, start: tuple[int, int]) -> None:
        """Probe the map's start cell at once: from there a no-guess map needs no guess."""
        animate, self.animate = self.animate, False
        try:
            self.probe(*start)
        finally:
            self.animate = animate
        self.cursor = start
        if self.state is GameState.PLAYING:
            self.message = f"opened the map's start cell ({start[0]}, {start[1]})"

    def _make_game(self, lines: int, cols: int) -> Game:
        spec = self.spec
        if spec.driver is not None:
            return spec.driver.game()
        if spec.layout is not None:
            layout = spec.layout
        else:
            width, height, mines = spec.size or terminal_field_size(lines, cols)
            layout = MineLayout.random(width, height, mines, self.rng)
        rule_set = get_rule_set(spec.rule_set)
        return Game(layout, rule_set, spec.first_click, self.rng, spec.win_rule)

    def _start(self, game: Game) -> None:
        self.game = game
        self.solver_steps = SolverSteps(self.game)
        self.shown = self.game.view.copy()
        self.hand_flags: set[int] = set()
        self.started_at: float | None = None
        self.stopped_at: float | None = None
        self.cursor = (self.game.width // 2, self.game.height // 2)
        self.hint: tuple[int, int] | None = None
        self.want_hint = False
        self.message = ""
        self.version = 0
        self.probability_worker.forget()

    @property
    def started(self) -> bool:
        """Whether the first probe has been made (the layout is then final)."""
        return self.game.minefield.probes > 0

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def width(self) -> int:
        return self.game.width

    @property
    def height(self) -> int:
        return self.game.height

    def elapsed(self, now: float | None = None) -> int:
        """Whole seconds since the first probe, frozen when the game ends."""
        if self.started_at is None:
            return 0
        end = self.stopped_at if self.stopped_at is not None else (now or time.monotonic())
        return int(end - self.started_at)

    # -- moves -------------------------------------------------------------------------
    def probe(self, x: int, y: int) -> Move:
        """Probe a covered cell as a guess; the auto-solver then runs."""
        if self.state is not GameState.PLAYING or self.game.view[y, x] != COVERED:
            return Move()
        before = self.game.view.copy()
        self.solver_steps.start_move()
        if self.started_at is None:
            self.started_at = time.monotonic()
        self.solver_steps.probe(x, y)
        return self._finish_move(before, (x, y))

    def toggle_flag(self, x: int, y: int) -> Move:
        """Flag a covered cell by hand (the solver then trusts it), or take a flag off."""
        if self.state is not GameState.PLAYING:
            return Move()
        index = y * self.width + x
        before = self.game.view.copy()
        self.solver_steps.start_move()
        if not self.game.toggle_flag(x, y):
            return Move()
        if self.game.view[y, x] == FLAGGED:
            self.hand_flags.add(index)
            if self.started:
                self.solver_steps.solve_after_flag()
        else:
            self.hand_flags.discard(index)
        return self._finish_move(before, (x, y))

    def play_guess(self, guess: Guess) -> Move:
        """Play a driver's guess; its note goes on the status line. An invalid guess
        stops the driven game (as the evaluation harness stops it)."""
        try:
            check_guess(self.game, guess)
        except InvalidGuess as error:
            self.message = f"invalid guess {error}: the game stops here"
            if self.autoplay is not None:
                self.autoplay.finished, self.autoplay.error = True, self.message
            return Move()
        lift_flag(self.game, guess)
        move = self.probe(*guess.cell)
        self.message = guess.note or str(guess.cell)  # the outcome waits for the animation
        return move

    def show_outcome(self, guess: Guess) -> None:
        """After a guess has been shown: how the game ended if it did, then the guess's note.

        The ending comes first: where the status line cuts a long note, it still shows."""
        ending = {GameState.WON: "won!", GameState.LOST: "boom."}.get(self.state)
        self.message = " - ".join(part for part in (ending, guess.note or str(guess.cell)) if part)

    def rewind(self, guesses: list[Guess]) -> None:
        """The driver's game again with only ``guesses`` played, shown at once (a guess
        taken back)."""
        assert self.spec.driver is not None
        self._start(self.spec.driver.game())
        animate, self.animate = self.animate, False
        try:
            for guess in guesses:
                self.play_guess(guess)
                self.show_outcome(guess)
        finally:
            self.animate = animate
        if not guesses:
            self.message = "taken back to the start"

    def _finish_move(self, before: np.ndarray, origin: tuple[int, int]) -> Move:
        after = self.game.view.copy()
        frames = [before, *self.solver_steps.snapshots, after]
        changes = reveal_order(frames, origin)
        self.version += 1
        self.hint = None
        self.message = ""
        if self.solver_steps.contradiction:
            self.message = "your flags contradict the numbers"
        if self.state is not GameState.PLAYING and self.stopped_at is None:
            self.stopped_at = time.monotonic()
            self.message = "you won!" if self.state is GameState.WON else "boom."
        if not self.animate:
            self.shown = after
            return Move()
        return Move(chunked(changes, ANIMATION_FRAMES))

    def show(self, step: list[tuple[int, int]]) -> None:
        """Apply one animation frame to what is shown."""
        flat = self.shown.reshape(-1)
        for index, code in step:
            flat[index] = code

    def catch_up(self) -> None:
        """Show the game as it is (the end of any animation)."""
        self.shown = self.game.view.copy()

    @property
    def animating(self) -> bool:
        return not np.array_equal(self.shown, self.game.view)

    # -- cursor, odds, hints -----------------------------------------------------------
    def move_cursor(self, dx: int, dy: int) -> None:
        x, y = self.cursor
        self.cursor = (min(max(x + dx, 0), self.width - 1), min(max(y + dy, 0), self.height - 1))
        self.cursor_shown = True

    def probabilities(self) -> np.ndarray | None:
        """Mine probabilities of the current position, if computed yet (else starts it)."""
        result = self.probability_worker.result(self.version)
        if result is None:
            self.probability_worker.request(self.version, self.game.minefield.board())
        return result

    def request_hint(self) -> None:
        """Ask for a guess (the advisor's, else the safest cell); it shows once the
        probabilities are in."""
        if self.state is not GameState.PLAYING:
            return
        if not self.started and self.spec.first_click != FirstClick.NONE.value:
            self.hint = self.cursor
            self.cursor_shown = True
            self.message = "the first probe is always safe"
            return
        self.want_hint = True
        self.poll_odds()

    def poll_odds(self) -> bool:
        """Take in finished probabilities (placing a wanted hint); True if anything changed."""
        if not (self.overlay or self.want_hint):
            return False
        probabilities = self.probabilities()
        worker = self.probability_worker
        if worker.error is not None and worker.error_version == self.version:
            changed = self.message != worker.error
            self.message = worker.error
            self.want_hint = False
            return changed
        if probabilities is None:
            return False
        if self.want_hint:
            self.want_hint = False
            cell, who = self._advised_cell(), self.spec.advisor_name
            if cell is None:
                cell, who = safest_cell(probabilities, self.game.view, self.cursor), "safest"
            if cell is not None:
                self.hint = self.cursor = cell
                self.cursor_shown = True
                chance = _percent(probabilities[cell[1], cell[0]])
                label = "safest guess" if who == "safest" else f"{who}'s guess"
                self.message = f"{label} {cell}: {chance}"
                failure = worker.advice_error(self.version)
                if who == "safest" and failure is not None:
                    self.message += f" ({self.spec.advisor_name} failed: {failure})"
            return True
        return False

    def _advised_cell(self) -> tuple[int, int] | None:
        """The advisor's covered cell for this position as (x, y), if it gave one."""
        index = self.probability_worker.advice(self.version)
        if index is None or not 0 <= index < self.width * self.height:
            return None
        x, y = index % self.width, index // self.width
        return (x, y) if self.game.view[y, x] == COVERED else None

    def cursor_odds(self) -> str:
        """The overlay's readout for the cell under the cursor."""
        probabilities = self.probability_worker.result(self.version)
        x, y = self.cursor
        if probabilities is None or not self.overlay or self.cursor == self.hint:
            return ""
        if self.autoplay is not None and not self.cursor_shown:
            return ""  # a watcher reads the guess's note, unless pointing at a cell
        value = probabilities[y, x]
        if np.isnan(value):
            return ""
        return f"({x}, {y}) {_percent(value)} mine"


def safest_cell(
    probabilities: np.ndarray, view: np.ndarray, near: tuple[int, int] = (0, 0)
) -> tuple[int, int] | None:
    """The covered cell least likely to be a mine; ``None`` when none is covered.

    Ties (common off the frontier) go to the cell with the fewest covered
    neighbours, the likeliest to open an area, then to the one nearest ``near``.
    """
    covered = (view == COVERED) & ~np.isnan(probabilities)
    if not covered.any():
        return None
    values = np.where(covered, probabilities, np.inf)
    best = values.min()
    ys, xs = np.nonzero(values <= best + 1e-12)
    around = neighbour_sum((view == COVERED).view(np.int8))
    distance = np.maximum(abs(xs - near[0]), abs(ys - near[1]))
    order = np.lexsort((distance, around[ys, xs]))
    return int(xs[order[0]]), int(ys[order[0]])


def _percent(p: float) -> str:
    if p in (0.0, 1.0):
        return f"{p * 100:.0f}%"
    return f"{p * 100:.1f}%"
