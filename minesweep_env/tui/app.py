"""The curses front end: read mouse and keys, play moves, draw, restore the terminal.

Mouse input is decoded by ncurses from whatever the terminal sends, X10
(``ESC [ M b x y``) or SGR (``ESC [ < b ; x ; y M``), as the terminfo entry
says. Motion reporting (xterm mode 1003) is switched on by hand so the
probability overlay can follow the pointer; it is switched off again on every
way out, before ncurses restores the terminal.
"""

from __future__ import annotations

import contextlib
import curses
import os
import signal
import sys
from collections import deque
from dataclasses import dataclass

from ..core.minefield import GameState
from .geometry import cell_at, fits, on_smiley
from .painter import Painter
from .session import GameSpec, Move, Session

IDLE_MS = 100
"""Input wait while idle: the clock and late probabilities redraw this often."""
FRAME_MS = 15
"""Delay between the frames of an auto-solver animation."""
MOTION_ON, MOTION_OFF = b"\033[?1003h", b"\033[?1003l"

_LEFT = curses.BUTTON1_PRESSED | curses.BUTTON1_CLICKED
_RIGHT = curses.BUTTON3_PRESSED | curses.BUTTON3_CLICKED
_ARROWS = {
    curses.KEY_UP: (0, -1),
    curses.KEY_DOWN: (0, 1),
    curses.KEY_LEFT: (-1, 0),
    curses.KEY_RIGHT: (1, 0),
}
_PROBE_KEYS = {ord(" "), ord("\n"), ord("\r"), curses.KEY_ENTER}


@dataclass(frozen=True)
class Mouse:
    """A mouse report: screen position and ncurses button state."""

    row: int
    col: int
    buttons: int


Event = int | Mouse


def play(spec: GameSpec, animate: bool = True, app: type[App] | None = None) -> str | None:
    """Run the game until the player quits; returns an error message or ``None``.

    The terminal is restored before this returns, whatever happened.

    :param app: the input loop (default :class:`App`, a person playing; a driven
        game passes :class:`~.driven.DrivenApp`).
    """
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return curses.wrapper(_main, spec, animate, app or App)
    except curses.error as error:  # no terminfo entry for $TERM, or no terminal at all
        term = os.environ.get("TERM", "")
        return f"cannot drive the terminal (TERM={term!r}): {error}"
    finally:
        signal.signal(signal.SIGTERM, previous)


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM leaves through the normal way out, so curses restores the terminal."""
    raise SystemExit(128 + signum)


def _write(data: bytes) -> None:
    with contextlib.suppress(OSError):
        os.write(sys.stdout.fileno(), data)


def _main(window: curses.window, spec: GameSpec, animate: bool, app: type[App]) -> str | None:
    if not curses.tigetstr("cup"):
        return f"the terminal (TERM={os.environ.get('TERM', '')!r}) cannot move its cursor"
    lines, cols = window.getmaxyx()
    if not spec.fills_terminal:
        width, height = _spec_size(spec)
        if not fits(width, height, lines, cols):
            return (
                f"a {width}x{height} field needs a terminal of at least {max(2 * width, 11)} "
                f"columns and {height + 1} lines; this one is {cols}x{lines}"
            )
    elif not fits(1, 1, lines, cols):
        return f"the terminal ({cols}x{lines}) is too small to play in"
    with contextlib.suppress(curses.error):  # some terminals cannot hide the cursor
        curses.curs_set(0)
    curses.set_escdelay(25)
    curses.mouseinterval(0)
    curses.mousemask(curses.ALL_MOUSE_EVENTS | curses.REPORT_MOUSE_POSITION)
    window.timeout(IDLE_MS)
    window.refresh()
    _write(MOTION_ON)
    try:
        app(window, Session(spec, lines, cols, animate)).run()
    finally:
        _write(MOTION_OFF)  # before curses' own clean-up switches its mouse modes off
    return None


def _spec_size(spec: GameSpec) -> tuple[int, int]:
    if spec.layout is not None:
        return spec.layout.width, spec.layout.height
    assert spec.size is not None
    return spec.size[0], spec.size[1]


class App:
    """The input loop over one session."""

    def __init__(self, window: curses.window, session: Session):
        self.window = window
        self.session = session
        self.painter = Painter(window)
        self.pending: deque[Event] = deque()

    def run(self) -> None:
        while True:
            self.session.poll_odds()
            self.tick()
            self.painter.paint(self.session)
            event = self.pending.popleft() if self.pending else self._read()
            if event is None:
                continue
            if event in (ord("q"), ord("Q")):
                return
            self._handle(event)

    def tick(self) -> None:  # noqa: B027 (a hook: a person's game has nothing to do here)
        """Called every turn of the loop before the frame is painted (a driver plays here)."""

    def _read(self) -> Event | None:
        key = self.window.getch()
        if key == -1:
            return None
        if key == curses.KEY_MOUSE:
            try:
                _, col, row, _, buttons = curses.getmouse()
            except curses.error:
                return None
            return Mouse(row, col, buttons)
        return key

    def _fits(self) -> bool:
        lines, cols = self.window.getmaxyx()
        return fits(self.session.width, self.session.height, lines, cols)

    def _new_game(self) -> None:
        self.session.new_game(*self.window.getmaxyx())
        self.painter.invalidate()

    def _handle(self, event: Event) -> None:
        session = self.session
        if event == curses.KEY_RESIZE:
            curses.update_lines_cols()
            if session.spec.fills_terminal and not session.started:
                self._new_game()  # before the first probe the field re-fits, as the original
            else:
                self.painter.invalidate()
            return
        if event in (ord("r"), ord("R")):
            self._new_game()
            return
        if not self._fits():
            return  # only "Make the terminal bigger!" is on the screen
        if session.help_shown:
            if not _is_motion(event):
                session.help_shown = False  # any key or click closes the help
            return
        if event == ord("?"):
            session.help_shown = True
            return
        if isinstance(event, Mouse):
            self._mouse(event)
        elif event in _ARROWS:
            session.move_cursor(*_ARROWS[event])
        elif event in _PROBE_KEYS:
            session.cursor_shown = True
            self._play(session.probe(*session.cursor))
        elif event in (ord("f"), ord("F")):
            session.cursor_shown = True
            self._play(session.toggle_flag(*session.cursor))
        elif event in (ord("p"), ord("P")):
            session.overlay = not session.overlay
            session.cursor_shown = session.overlay and session.cursor_shown
            session.message = "odds overlay on" if session.overlay else ""
        elif event in (ord("h"), ord("H")):
            session.request_hint()
        elif event in (ord("a"), ord("A")):
            session.animate = not session.animate
            session.message = f"animation {'on' if session.animate else 'off'}"

    def _mouse(self, mouse: Mouse) -> None:
        session = self.session
        if is_left_click(mouse) and on_smiley(mouse.row, mouse.col, session.width):
            self._new_game()
            return
        cell = cell_at(mouse.row, mouse.col, session.width, session.height)
        if cell is None:
            return
        session.cursor = cell
        if mouse.buttons & _LEFT:
            session.cursor_shown = False
            self._play(session.probe(*cell))
        elif mouse.buttons & _RIGHT:
            session.cursor_shown = False
            self._play(session.toggle_flag(*cell))
        elif session.overlay and session.state is GameState.PLAYING:
            session.cursor_shown = True  # hovering with the overlay on: show the cell's odds

    def _play(self, move: Move) -> None:
        """Show a move frame by frame; any input cuts the animation short (and is kept)."""
        self.window.timeout(FRAME_MS)
        try:
            for step in move.steps:
                self.session.show(step)
                self.painter.paint(self.session)
                event = self._read()
                if event is not None and not _is_motion(event):
                    self.pending.append(event)
                    break
        finally:
            self.session.catch_up()
            self.window.timeout(IDLE_MS)


def is_left_click(mouse: Mouse) -> bool:
    return bool(mouse.buttons & _LEFT)


def _is_motion(event: Event) -> bool:
    return isinstance(event, Mouse) and not event.buttons & (_LEFT | _RIGHT)
