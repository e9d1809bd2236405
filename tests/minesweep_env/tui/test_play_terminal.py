"""``semiautomines play`` tested as a person uses it: in a pseudo-terminal, by mouse and keys.

A small harness first: a pseudo-terminal with pyte as the screen. The program
runs in a real pty (its own session, a real terminal size, real SIGWINCH on
resize); what it writes is fed to pyte, whose screen the tests read.
Mouse clicks are sent as the escape sequences a terminal sends, in the
encoding the terminfo entry asks for: SGR (``ESC [ < b ; x ; y M``) for
``xterm-256color``, X10 (``ESC [ M b x y``) for ``screen``. Every wait polls
the screen against a deadline; nothing sleeps a fixed time.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte
import pytest

from minesweep_env import Game

ROOT = Path(__file__).resolve().parent.parent
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
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        argv = [sys.executable, "-m", "minesweep_env.cli.main", command, *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: a terminal of the asked size, then the program
            try:
                _set_size(0, lines, cols)
                os.chdir(ROOT)
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


# -- the tests -------------------------------------------------------------------------------
MAPS = ROOT / "maps" / "ioccc"
IOCCC_MAP = "maps/ioccc/ioccc.txt"
UNWINNABLE = "maps/ioccc/unwinnable.txt"
UP, DOWN, RIGHT, LEFT = "\x1bOA", "\x1bOB", "\x1bOC", "\x1bOD"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pty")


@pytest.fixture
def play():
    """Start ``semiautomines play ARGS`` in a pty; every terminal is closed afterwards."""
    started: list[Terminal] = []

    def start(*args: str, **options) -> Terminal:
        terminal = Terminal(list(args), **options)
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.close()


def expected_field(game: Game) -> list[str]:
    """Game.rows() in the screen's spelling: probed zeros are "0", as Terminal.field reads."""
    return game.rows()


def test_click_probes_and_the_solvers_result_appears(play):
    t = play(IOCCC_MAP, "--no-animate")
    t.wait_field(25, 9, ["?" * 25] * 9)
    t.click_cell(12, 4)
    game = Game.from_file(MAPS / "ioccc.txt")
    game.probe(12, 4)
    t.wait_for(lambda t: t.field(25, 9) == expected_field(game), "the solved IOCCC logo")
    assert t.row(0).startswith(f"{game.mines_left:03d}")
    assert "1 guess" in t.text()
    # The original's colours: a colour per number on black, flags red on white.
    colours = {}
    for y, row in enumerate(expected_field(game)):
        for x, char in enumerate(row):
            cell = t.screen.buffer[y + 1][2 * x + 1]
            colours.setdefault(char, set()).add((cell.fg, cell.bg))
    assert colours["1"] == {("blue", "black")}
    assert colours["2"] == {("green", "black")}
    assert colours["3"] == {("red", "black")}
    assert colours["5"] == {("brown", "black")}  # pyte's name for yellow
    assert colours["!"] == {("red", "white")}
    assert colours["?"] == {("black", "white")}


def test_animated_solver_ends_on_the_same_board(play):
    t = play(IOCCC_MAP, "--animate")
    t.wait_text(":-)")
    t.click_cell(0, 0)
    game = Game.from_file(MAPS / "ioccc.txt")
    game.probe(0, 0)
    t.wait_for(lambda t: t.field(25, 9) == expected_field(game), "the animation's last frame")


def test_win_shows_the_cool_smiley_and_stops_the_counter(play):
    t = play(UNWINNABLE, "--rule-set", "endoh", "--no-animate")
    t.wait_text(":-)")
    assert t.smiley(5) == ":-)"
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "the win smiley")
    t.wait_field(5, 5, ["!!200", "!!200", "22100", "00000", "00000"])
    assert t.row(0).startswith("000")


def test_unwinnable_is_stuck_with_endoh_alt_until_flagged_by_hand(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--no-animate")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    game = Game.from_file(MAPS / "unwinnable.txt", "endoh-alt", win_rule="nothing-covered")
    game.probe(4, 4)
    field = expected_field(game)
    assert "?" in "".join(field), "endoh-alt cannot flag the last mine"
    t.wait_field(5, 5, field)
    assert t.smiley(5) == ":-)"
    # The rule set left mines unproven: flag them by hand (right click) and win.
    for y, row in enumerate(field):
        for x, char in enumerate(row):
            if char == "?":
                t.click_cell(x, y, button=2)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "a win by hand flags")


def test_probing_a_mine_loses_and_shows_the_mines(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--first-click", "none", "--no-animate")
    t.wait_text(":-)")
    t.click_cell(0, 0)
    t.wait_for(lambda t: t.smiley(5) == "X-(", "the loss smiley")
    t.wait_for(lambda t: [r[:2] for r in t.field(5, 5)[:2]] == ["**", "**"], "the mines shown")
    t.settle()
    field = t.field(5, 5)
    # After the game is over, clicks on the field change nothing.
    t.click_cell(4, 4)
    t.settle()
    assert t.field(5, 5) == field


def test_r_and_the_smiley_start_a_new_game(play):
    t = play(UNWINNABLE, "--no-animate")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "the win smiley")
    t.send("r")
    t.wait_for(lambda t: t.smiley(5) == ":-)" and t.field(5, 5) == ["?????"] * 5, "a new game")
    assert t.row(0).startswith("004")
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "the win smiley")
    t.mouse(0, 5)  # the smiley's middle column
    t.wait_for(lambda t: t.field(5, 5) == ["?????"] * 5, "a new game by the smiley")


def test_q_quits_and_restores_the_terminal(play):
    t = play(UNWINNABLE)
    t.wait_text(":-)")
    assert not t.echo_on(), "curses runs without echo"
    t.send("q")
    assert t.wait_exit() == 0
    assert t.echo_on(), "echo is back on"
    tail = bytes(t.raw[-300:])
    assert b"\x1b[?1049l" in tail, "the normal screen is back"
    assert b"\x1b[?1003l" in tail and b"1000l" in tail, "mouse reporting is off"
    assert b"Traceback" not in t.raw


def test_keyboard_arrows_space_and_f(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--no-animate")
    t.wait_text(":-)")
    # The cursor starts in the middle (2, 2); go to the corner (4, 4) and probe. Arrow keys
    # as a terminal in keypad mode (which curses switches on) sends them: ESC O A..D.
    t.send(DOWN * 2 + RIGHT * 2 + " ")
    # (the cursor stays on (4, 4), and a dot on blue reads as covered: see field())
    t.wait_for(lambda t: t.field(5, 5)[3:] == ["00000", "0000?"], "the corner opened")
    assert t.cell_bg(4, 4) == "blue" and t.cell_bg(3, 4) == "black"
    # Back to the last covered cell, (0, 0), and flag it with f: that wins.
    t.send(UP * 4 + LEFT * 4 + "f")
    t.wait_for(lambda t: t.smiley(5) == "8-)", "a win by a keyboard flag")


def test_question_mark_shows_the_keys_and_any_key_closes_them(play):
    t = play("--seed", "5", lines=24, cols=80)
    t.wait_field(40, 23, ["?" * 40] * 23)
    assert "? help" in t.row(0)
    t.send("?")
    t.wait_text("p  odds overlay")
    t.hover(5, 5)
    t.settle(0.2)
    assert "p  odds overlay" in t.text(), "moving the pointer keeps the help open"
    t.send("x")
    t.wait_field(40, 23, ["?" * 40] * 23, "the field back")
    assert "odds overlay" not in t.text()


def test_x10_mouse_encoding(play):
    t = play(UNWINNABLE, "--no-animate", term="screen")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "a win by an X10 click")


def test_default_field_fills_the_terminal(play):
    t = play("--seed", "1", "--no-animate", lines=24, cols=80)
    t.wait_text(":-)")
    # 40x23 cells, a fifth of them mines; smiley over the middle, timer at the right edge.
    t.wait_for(
        lambda t: (
            t.row(0)[:3] == f"{40 * 23 // 5:03d}"
            and t.row(0)[39:42] == ":-)"
            and t.row(0)[77:80] == "000"
        ),
        "the counter, the smiley over the middle, the timer at the right edge",
    )
    t.wait_field(40, 23, ["?" * 40] * 23)
    t.click_cell(20, 11)
    t.wait_for(lambda t: t.field(40, 23)[11][20] in "012345678", "the probed cell")
    assert "1 guess" in t.row(0)


def test_resize_before_the_first_click_refits_the_field(play):
    t = play("--seed", "1", lines=24, cols=80)
    t.wait_text(":-)")
    t.resize(30, 100)
    t.wait_for(
        lambda t: t.row(0)[49:52] == ":-)" and t.row(0)[:3] == f"{50 * 29 // 5:03d}",
        "a 50x29 field's status line",
    )
    t.wait_field(50, 29, ["?" * 50] * 29)


def test_too_small_after_the_first_click_asks_for_a_bigger_terminal(play):
    t = play("--seed", "2", "--no-animate", lines=24, cols=80)
    t.wait_text(":-)")
    t.click_cell(10, 10)
    t.wait_for(lambda t: t.field(40, 23)[10][10] != "?", "the probed cell")
    t.settle()
    before = t.field(40, 23)
    t.resize(20, 60)
    t.wait_text("Make the terminal bigger!")
    t.resize(24, 80)
    t.wait_for(lambda t: t.row(0)[39:42] == ":-)" and "bigger" not in t.text(), "the field")
    t.settle()
    assert t.field(40, 23) == before, "the same game comes back"


def test_map_too_large_for_the_terminal_is_one_line_and_exit_2(play):
    t = play("maps/ioccc/megumin.txt", lines=24, cols=80)
    assert t.wait_exit() == 2
    output = bytes(t.raw).decode().strip()
    assert output.count("\n") == 0, output
    assert "megumin.txt" in output and "64x35" in output and "80x24" in output
    assert t.echo_on()


def test_malformed_map_is_one_line_and_exit_2(play, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3 3 2\n0 1 2\n3 x 5\n6 7 8\n")
    t = play(str(bad))
    assert t.wait_exit() == 2
    output = bytes(t.raw).decode().strip()
    assert output.count("\n") == 0 and "Traceback" not in output, output
    assert f"{bad}:3:" in output
    assert t.echo_on()


def test_odds_overlay_shades_covered_cells_and_reads_under_the_pointer(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--no-animate")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    t.wait_field(5, 5, ["?!200", "!!200", "22100", "00000", "00000"])
    assert t.cell_bg(0, 0) == "white"
    t.send("p")
    # One mine left among one covered cell: certain, drawn in the darkest (red) shade.
    t.wait_for(lambda t: t.cell_bg(0, 0) not in ("white", "default"), "a shaded cell")
    assert t.cell(0, 0) == "x", "a certain mine is marked x"
    t.hover(1, 1)
    t.wait_text("(0, 0) 100% mine")
    t.send("p")
    t.wait_for(lambda t: t.cell_bg(0, 0) == "white", "the overlay off")


def test_h_points_at_the_search_agents_guess(play):
    from semiautomines_agents import SearchAgent

    t = play(IOCCC_MAP, "--no-animate")
    t.wait_text(":-)")
    t.click_cell(12, 4)
    game = Game.from_file(MAPS / "ioccc.txt")
    game.probe(12, 4)
    t.wait_field(25, 9, expected_field(game))
    # No mines are left, so the cells the rule set could not reach are certainly safe;
    # the h key asks the search agent (the agents package's adviser), which takes one.
    assert game.mines_left == 0
    advice = SearchAgent().advise(game.minefield.board())
    assert advice.reason == "safe"
    x, y = advice.cell % game.width, advice.cell // game.width
    t.send("h")
    t.wait_text(f"search's guess ({x}, {y}): 0%")


def test_very_wide_terminal(play):
    t = play("--seed", "4", "--no-animate", lines=50, cols=300)
    t.wait_text(":-)")
    # 150x49 cells and 1470 mines: the counter keeps three digits, as the original's.
    t.wait_for(lambda t: t.row(0)[149:152] == ":-)" and t.row(0)[:3] == "999", "status")
    t.click_cell(149, 48)
    t.wait_text("1 guess")
