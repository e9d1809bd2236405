"""Who makes the guesses when the person at the terminal only watches.

``semiautomines play`` is played by a person. ``watch`` and ``replay`` (in the
agents package: the library never imports it) show the same screen, but the
guesses come from a :class:`Driver`: an agent thinking, or a recorded game read
back. The driver hands out the games and the guesses; the terminal game (or
:func:`play_out`, off-screen) plays them, so the auto-solver's rounds, the
smiley and the counters are exactly the ones a person sees in ``play``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from ..core.cells import COVERED, FLAGGED
from ..core.minefield import GameState
from ..game import Game
from ..solver.autosolve import SolverObserver


@dataclass(frozen=True)
class Guess:
    """One guess of a driver: the cell, and what the status line says about it."""

    cell: tuple[int, int]
    """(x, y) of the covered cell to probe."""
    note: str = ""
    """Why this cell, for a person: e.g. its mine probability and the agent's reasoning."""
    opens_flag: bool = False
    """The cell carries the auto-solver's flag and the guess opens it anyway: a person's
    replayed click on a cell their own game had not solved (a proven mine: it loses)."""


class Driver(ABC):
    """The games of a driven sitting and every guess in them.

    The terminal game calls :meth:`guess` in a background thread (a slow agent
    must not freeze the keys), never while it changes the game, and
    :meth:`game` again to take guesses back (it rebuilds the game and plays the
    earlier guesses), so :meth:`game` must give the same game every time until
    :meth:`next_game`.
    """

    restart_label: str = "next game"
    """What ``r`` and the smiley do, for the key help."""

    @abstractmethod
    def game(self) -> Game:
        """A fresh game of the current game number, nothing probed yet."""

    @abstractmethod
    def guess(self, game: Game, moves: int) -> Guess | None:
        """The next guess in ``game``, after ``moves`` guesses; ``None`` when there is
        none (a record played to its end). Must only read ``game``."""

    def next_game(self) -> None:  # noqa: B027 (optional hook: by default the same game again)
        """Move on to the next game (``r``, the smiley)."""

    def title(self, moves: int) -> str:
        """One line about the current game (who plays what), after ``moves`` guesses."""
        return ""


class InvalidGuess(ValueError):
    """A driver chose a cell that cannot be probed (the game stops there, as in evaluation)."""


def check_guess(game: Game, guess: Guess) -> None:
    """Raise :class:`InvalidGuess` unless the guess is a covered cell of ``game`` (or a
    flagged one, for a guess that :attr:`~Guess.opens_flag`)."""
    x, y = guess.cell
    allowed = (COVERED, FLAGGED) if guess.opens_flag else (COVERED,)
    if not (0 <= x < game.width and 0 <= y < game.height) or game.view[y, x] not in allowed:
        raise InvalidGuess(f"({x}, {y}) cannot be probed")


def lift_flag(game: Game, guess: Guess) -> None:
    """Before a guess that :attr:`~Guess.opens_flag` is played: take the flag off its cell,
    so the probe opens it."""
    x, y = guess.cell
    if guess.opens_flag and game.view[y, x] == FLAGGED:
        game.toggle_flag(x, y)


def play_out(
    driver: Driver,
    observer: SolverObserver | None = None,
    before: Callable[[Game, Guess], None] | None = None,
) -> tuple[Game, list[Guess]]:
    """Play the driver's current game to its end off the screen; the game and its guesses.

    Stops when the game is over, the driver has no more guesses, or a guess is
    invalid (:class:`InvalidGuess` is raised then).

    :param observer: watches the auto-solver's rounds (see :func:`~minesweep_env.solver.autosolve`).
    :param before: called with the game and each guess before it is played.
    """
    game = driver.game()
    guesses: list[Guess] = []
    while game.state is GameState.PLAYING:
        guess = driver.guess(game, len(guesses))
        if guess is None:
            break
        check_guess(game, guess)
        if before is not None:
            before(game, guess)
        guesses.append(guess)
        lift_flag(game, guess)
        game.probe(*guess.cell, observer=observer)
    return game, guesses
