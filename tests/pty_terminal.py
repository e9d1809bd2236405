"""A pseudo-terminal with pyte as the screen, for tests that use a command as a person does.

The program runs in a real pty (its own session, a real terminal size, real
SIGWINCH on resize); what it writes is fed to pyte, whose screen the tests read.
Mouse clicks are sent as the escape sequences a terminal sends, in the
encoding the terminfo entry asks for: SGR (``ESC [ < b ; x ; y M``) for
``xterm-256color``, X10 (``ESC [ M b x y``) for ``screen``. Every wait polls
the screen against a deadline; nothing sleeps a fixed time.

The helpers at the end read a finished game the way the screen shows it
(``semiautomines watch`` and ``replay``).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable

import pyte
import pytest
from paths import REPO

from minesweep_env import Game
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.minefield import GameState

X10_TERMS = {"screen", "tmux", "tmux-256color", "screen-256color"}


class XtermScreen(pyte.Screen):
    """pyte with xterm's pending-wrap rule.

    After a character is written in the last column the cursor waits there; in
    xterm any cursor movement cancels the pending wrap, but pyte keeps it, so a
    later vertical move plus a character would land on the next line. curses
    relies on xterm's behaviour (the timer sits in the last column).
    """

    def ensure_vbounds(self, use_margins: bool | None = None) -> None:
        super().ensure_vbounds(use_margins)
        self.cursor.x = min(self.cursor.x, self.columns - 1)


class Terminal:
    """``semiautomines COMMAND ARGS`` (``play`` by default) in a ``cols`` x ``lines`` pty."""

    def __init__(
        self,
        args: list[str],
        lines: int = 24,
        cols: int = 80,
        term: str = "xterm-256color",
        timeout: float = 15.0,
        command: str = "play",
    ):
        self.lines, self.cols, self.term, self.timeout = lines, cols, term, timeout
        self.screen = XtermScreen(cols, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.exit_status: int | None = None
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
        env["TERM"] = term
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
        argv = [sys.executable, "-m", "minesweep_env.cli.main", command, *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: a terminal of the asked size, then the program
            try:
                _set_size(0, lines, cols)
                os.chdir(REPO)
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd

    # -- reading -----------------------------------------------------------------------
    def _pump(self, wait: float) -> bool:
        """Read what is there (waiting up to ``wait`` s); False once the program is gone."""
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the slave side is closed, the program has exited
            return False
        if not data:
            return False
        self.raw.extend(data)
        self.stream.feed(data)
        return True

    def wait_for(self, condition: Callable[[Terminal], bool], what: str = "") -> None:
        """Pump output until ``condition(self)`` holds; fail with the screen shown if never."""
        deadline = time.monotonic() + self.timeout
        while True:
            if condition(self):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or condition}:\n{self.dump()}")
            if not self._pump(0.05):
                if condition(self):
                    return
                raise AssertionError(f"program ended while waiting for {what}:\n{self.dump()}")

    def wait_text(self, text: str) -> None:
        self.wait_for(lambda t: text in t.text(), repr(text))

    def settle(self, quiet: float = 0.3) -> None:
        """Pump until the program has written nothing for ``quiet`` seconds."""
        deadline = time.monotonic() + self.timeout
        last = len(self.raw)
        calm_since = time.monotonic()
        while time.monotonic() < deadline:
            if not self._pump(0.05):
                return
            if len(self.raw) != last:
                last, calm_since = len(self.raw), time.monotonic()
            elif time.monotonic() - calm_since >= quiet:
                return

    def wait_exit(self) -> int:
        """Wait for the program to end; its exit status."""
        deadline = time.monotonic() + self.timeout
        while self._pump(0.05):
            if time.monotonic() > deadline:
                raise AssertionError(f"program did not exit:\n{self.dump()}")
        _, status = os.waitpid(self.pid, 0)
        self.exit_status = os.waitstatus_to_exitcode(status)
        return self.exit_status

    # -- the screen --------------------------------------------------------------------
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def row(self, y: int) -> str:
        return self.screen.display[y]

    def smiley(self, width: int) -> str:
        """The three characters of the smiley of a ``width``-cell field."""
        start = max(2 * width, 11) // 2 - 1
        return self.row(0)[start : start + 3]

    def cell(self, x: int, y: int) -> str:
        """The character of cell (x, y): screen row y+1, column 2x+1."""
        return self.screen.buffer[y + 1][2 * x + 1].data

    def cell_bg(self, x: int, y: int) -> str:
        return self.screen.buffer[y + 1][2 * x + 1].bg

    def field(self, width: int, height: int) -> list[str]:
        """The field as text: ``?`` covered (a dot on white), ``0`` a dot on black, etc.

        The keyboard cursor (a dot on blue, shown from the start) reads as covered.
        """
        rows = []
        for y in range(height):
            line = self.screen.buffer[y + 1]
            chars = []
            for x in range(width):
                char = line[2 * x + 1]
                if char.data == ".":
                    chars.append("?" if char.bg in ("white", "blue") else "0")
                else:
                    chars.append(char.data)
            rows.append("".join(chars))
        return rows

    def wait_field(self, width: int, height: int, rows: list[str], what: str = "") -> None:
        """Wait until the field reads ``rows`` (spelt as :meth:`field` does)."""
        self.wait_for(lambda t: t.field(width, height) == rows, what or f"the field {rows}")

    def dump(self) -> str:
        return "\n".join(f"{i:2d}|{line}|" for i, line in enumerate(self.screen.display))

    # -- input -------------------------------------------------------------------------
    def send(self, data: bytes | str) -> None:
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def mouse(self, row: int, col: int, button: int = 0, release: bool = True) -> None:
        """Press (and release) a mouse button at a 0-based screen position."""
        if self.term in X10_TERMS:

            def report(code: int) -> bytes:
                return b"\033[M" + bytes([32 + code, 33 + col, 33 + row])

            self.send(report(button) + (report(3) if release else b""))
        else:
            press = f"\033[<{button};{col + 1};{row + 1}M"
            self.send(press + (f"\033[<{button};{col + 1};{row + 1}m" if release else ""))

    def click_cell(self, x: int, y: int, button: int = 0) -> None:
        self.mouse(y + 1, 2 * x + 1, button)

    def hover(self, row: int, col: int) -> None:
        """Move the pointer with no button held (a motion report)."""
        self.mouse(row, col, button=35, release=False)

    def resize(self, lines: int, cols: int) -> None:
        """Change the terminal size; the kernel sends the program SIGWINCH."""
        self.lines, self.cols = lines, cols
        self.screen.resize(lines, cols)
        _set_size(self.fd, lines, cols)

    def close(self) -> None:
        if self.exit_status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def echo_on(self) -> bool:
        """Whether the terminal echoes typed keys (curses switches it off while it runs)."""
        return bool(termios.tcgetattr(self.fd)[3] & termios.ECHO)


def _set_size(fd: int, lines: int, cols: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, cols, 0, 0))


SMILEYS = {GameState.WON: "8-)", GameState.LOST: "X-(", GameState.PLAYING: ":-)"}


@pytest.fixture
def terminal():
    """Start ``semiautomines COMMAND ARGS`` in a pty; every terminal is closed afterwards."""
    started: list[Terminal] = []

    def start(command: str, *args: str, **options) -> Terminal:
        started.append(Terminal(list(args), command=command, timeout=60.0, **options))
        return started[-1]

    yield start
    for t in started:
        t.close()


def screen_rows(game: Game) -> list[str]:
    """The field as :meth:`Terminal.field` reads it: ``?`` covered, ``!`` flag, ``*`` a mine
    shown after a loss (at a win every covered cell is shown flagged)."""
    rows = []
    for y in range(game.height):
        row = []
        for x in range(game.width):
            code = game.view[y, x]
            if code == FLAGGED:
                row.append("!")
            elif code == COVERED:
                mine = game.layout.mines[y, x]
                shown = {GameState.WON: "!", GameState.LOST: "*"}.get(game.state, "?")
                row.append(shown if mine else "?")
            else:
                row.append(str(code))
        rows.append("".join(row))
    return rows


def guesses_on_screen(t: Terminal) -> int | None:
    found = re.search(r"\b(\d+) guess(es)?\b", t.text())
    return int(found.group(1)) if found else None
