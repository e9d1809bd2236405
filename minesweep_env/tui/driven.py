"""The input loop of a driven game (``watch``, ``replay``): the driver guesses, the keys steer.

Same screen as ``play``; the keys change: ``space`` pauses and plays on, the
right arrow plays one guess, the left arrow takes one back, ``r`` and the
smiley go to the driver's next game. ``p``, ``a``, ``?`` and ``q`` are
``play``'s. Clicks on the field move nothing but the odds readout: the
player is the driver.
"""

from __future__ import annotations

import curses
import time

from ..core.minefield import GameState
from .app import App, Event, Mouse, is_left_click
from .geometry import cell_at, on_smiley

_PAUSE_KEYS = {ord(" "), ord("\n"), ord("\r"), curses.KEY_ENTER}
NO_MORE_GUESSES = "no more guesses: the game stops here"
_PLAY_KEYS = {ord("p"), ord("P"), ord("a"), ord("A"), ord("?"), curses.KEY_RESIZE}
"""Keys that mean the same as in ``play``."""


class DrivenApp(App):
    """The input loop over a session whose guesses come from its spec's driver."""

    def tick(self) -> None:
        session = self.session
        autoplay = session.autoplay
        assert autoplay is not None, "a driven app needs a driver in its spec"
        guess = autoplay.next_guess(session.game, time.monotonic())
        if guess is None:
            if autoplay.finished and session.state is GameState.PLAYING:
                session.message = autoplay.error or NO_MORE_GUESSES
            return
        self._play(session.play_guess(guess))
        if not autoplay.finished:  # an invalid guess leaves its own message
            session.show_outcome(guess)
        autoplay.played_guess(time.monotonic())

    def _handle(self, event: Event) -> None:
        session = self.session
        autoplay = session.autoplay
        assert autoplay is not None
        if session.help_shown or event in _PLAY_KEYS:
            super()._handle(event)
        elif event in (ord("r"), ord("R")):
            self._next_game()
        elif not self._fits():
            return
        elif isinstance(event, Mouse):
            self._mouse(event)
        elif event in _PAUSE_KEYS:
            autoplay.toggle_pause()
        elif event == curses.KEY_RIGHT:
            autoplay.step()
        elif event == curses.KEY_LEFT:
            self._take_back()

    def _next_game(self) -> None:
        assert self.session.spec.driver is not None
        self.session.spec.driver.next_game()
        self._new_game()

    def _take_back(self) -> None:
        session = self.session
        assert session.autoplay is not None
        guesses = session.autoplay.take_back()
        if guesses is not None:
            session.rewind(guesses)
            self.painter.invalidate()

    def _mouse(self, mouse: Mouse) -> None:
        session = self.session
        if is_left_click(mouse) and on_smiley(mouse.row, mouse.col, session.width):
            self._next_game()
            return
        cell = cell_at(mouse.row, mouse.col, session.width, session.height)
        if cell is not None and session.overlay:
            session.cursor = cell  # the odds readout follows the pointer; nothing is probed
            session.cursor_shown = True
