"""The pace of a driven game: the driver thinks off the input loop, guesses are played one by one.

A guess is played ``delay`` seconds after the last one ended; ``space``
pauses, the right arrow plays one guess, the left arrow takes one back. What
was taken back is played again before the driver is asked anything new, so
stepping back and forth always shows the same game, even a random agent's.
The driver's guess is computed in a daemon thread (as the probabilities are,
see :mod:`.probability_worker`), one at a time, so a slow agent never freezes
the keys and never runs twice at once.
"""

from __future__ import annotations

import threading

from ..core.minefield import GameState
from ..game import Game
from .driver import Driver, Guess


class GuessWorker:
    """The driver's next guess, computed in the background; at most one thread at a time.

    :param driver: whose :meth:`~.Driver.guess` runs.
    """

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self._lock = threading.Lock()
        self._generation = 0
        self._running: tuple[int, int] | None = None
        """(generation, moves) being computed."""
        self._wanted: tuple[int, Game, int] | None = None
        self._done: tuple[int, int, Guess | None, str | None] | None = None

    def forget(self) -> None:
        """Drop every answer asked for so far (the game was replaced)."""
        with self._lock:
            self._generation += 1
            self._wanted = None
            self._done = None

    def poll(self, game: Game, moves: int) -> tuple[bool, Guess | None, str | None]:
        """(ready, guess, error) for the guess after ``moves`` guesses; asks for it if needed."""
        with self._lock:
            done = self._done
            if done is not None and done[:2] == (self._generation, moves):
                return True, done[2], done[3]
            if self._running != (self._generation, moves):
                self._wanted = (self._generation, game, moves)
                if self._running is None:
                    self._start_locked()
            return False, None, None

    def _start_locked(self) -> None:
        assert self._wanted is not None
        generation, game, moves = self._wanted
        self._wanted = None
        self._running = (generation, moves)
        thread = threading.Thread(target=self._compute, args=(generation, game, moves), daemon=True)
        thread.start()

    def _compute(self, generation: int, game: Game, moves: int) -> None:
        guess: Guess | None = None
        error: str | None = None
        try:
            guess = self.driver.guess(game, moves)
        except Exception as exc:  # the screen must outlive an agent's bug, and say what it was
            error = f"the player failed: {type(exc).__name__}: {exc}"
        with self._lock:
            self._running = None
            if generation == self._generation:
                self._done = (generation, moves, guess, error)
            if self._wanted is not None and self._wanted[0] == self._generation:
                self._start_locked()
            else:
                self._wanted = None


class Autoplay:
    """What a driven sitting has played of the current game, and when the next guess is due.

    :param driver: who guesses.
    :param delay: seconds between the end of one guess (its animation) and the next.
    :param paused: start paused (``replay`` does: it is stepped with the arrow keys).
    """

    def __init__(self, driver: Driver, delay: float = 0.5, paused: bool = False) -> None:
        self.driver = driver
        self.delay = max(0.0, float(delay))
        self.paused = paused
        self.worker = GuessWorker(driver)
        self.played: list[Guess] = []
        self.undone: list[Guess] = []
        """Guesses taken back, the next to play again last."""
        self.finished = False
        """The driver has no guess left for this game (or failed: see :attr:`error`)."""
        self.error: str | None = None
        self.due_at = 0.0
        self.steps_wanted = 0
        """Right-arrow presses not played yet (each plays one guess, paused or not)."""

    def start_game(self, now: float) -> None:
        """A new game: nothing played, the first guess due after the delay."""
        self.worker.forget()
        self.played.clear()
        self.undone.clear()
        self.finished = False
        self.error = None
        self.steps_wanted = 0
        self.due_at = now + self.delay

    def next_guess(self, game: Game, now: float) -> Guess | None:
        """The guess to play now, if one is due and known (else asks the driver for it)."""
        if game.state is not GameState.PLAYING or self.finished:
            return None
        due = self.steps_wanted > 0 or (not self.paused and now >= self.due_at)
        if self.undone:
            if not due:
                return None
            guess: Guess | None = self.undone.pop()
        else:
            ready, guess, error = self.worker.poll(game, len(self.played))
            if not ready:
                return None
            if error is not None or guess is None:
                self.finished, self.error = True, error
                return None
            if not due:
                return None
        assert guess is not None
        self.steps_wanted = max(0, self.steps_wanted - 1)
        self.played.append(guess)
        return guess

    def played_guess(self, now: float) -> None:
        """A guess has been shown: the next is due after the delay."""
        self.due_at = now + self.delay

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.steps_wanted = 0

    def step(self) -> None:
        """Play one more guess now (after those already asked for), and pause after it."""
        self.paused = True
        self.steps_wanted += 1

    def take_back(self) -> list[Guess] | None:
        """Take the last guess back (pausing); the guesses to play again on a fresh game,
        or ``None`` when nothing was played."""
        self.paused = True
        self.steps_wanted = 0
        if not self.played:
            return None
        self.undone.append(self.played.pop())
        self.worker.forget()
        self.finished = False
        self.error = None
        return list(self.played)

    def state(self) -> str:
        """What the watcher should know about the pace: paused, or nothing."""
        return "paused: space plays on" if self.paused else ""
