"""Drawing a session on a curses window: status line, field, side panel, "bigger" notice.

Only cells whose look changed since the last frame are redrawn, so an
animation on a 300-column terminal stays smooth; a resize or new game clears
the memory and everything is drawn again.
"""

from __future__ import annotations

import contextlib
import curses
import textwrap

import numpy as np

from ..core.minefield import GameState
from . import looks as lk
from .geometry import MIN_STATUS_WIDTH, Panel, cell_origin, fits, side_panel, smiley_column
from .session import Session

BIGGER = "Make the terminal bigger!"
SMILEYS = {GameState.PLAYING: ":-)", GameState.WON: "8-)", GameState.LOST: "X-("}
HELP = (
    "click, space  probe",
    "right click, f  flag",
    "arrows  move",
    "p  odds overlay",
    "h  {hint}",
    "a  animation on/off",
    "r, smiley  new game",
    "?  this help",
    "q  quit",
)
SHORT_HELP = "click/space probe  f flag  p odds  h hint  r new  ? help  q quit"
DRIVEN_HELP = (
    "space  pause, play on",
    "right  next guess",
    "left  take one back",
    "p  odds overlay",
    "a  animation on/off",
    "r, smiley  {restart}",
    "?  this help",
    "q  quit",
)
DRIVEN_SHORT_HELP = "space pause  right/left step  p odds  r {restart}  q quit"

# Colour pairs 1..12 are the IOCCC program's, in its order.
_IOCCC_PAIRS = (
    (curses.COLOR_WHITE, curses.COLOR_RED),  # 1 mine
    (curses.COLOR_RED, curses.COLOR_WHITE),  # 2 flag
    (curses.COLOR_BLACK, curses.COLOR_WHITE),  # 3 covered
    (curses.COLOR_WHITE, curses.COLOR_BLACK),  # 4 zero, the "bigger" notice
    (curses.COLOR_BLUE, curses.COLOR_BLACK),  # 5..12 the numbers 1..8
    (curses.COLOR_GREEN, curses.COLOR_BLACK),
    (curses.COLOR_RED, curses.COLOR_BLACK),  # 7 also the counter and timer
    (curses.COLOR_MAGENTA, curses.COLOR_BLACK),
    (curses.COLOR_YELLOW, curses.COLOR_BLACK),  # 9 also the smiley
    (curses.COLOR_CYAN, curses.COLOR_BLACK),
    (curses.COLOR_WHITE, curses.COLOR_BLACK),
    (curses.COLOR_WHITE, curses.COLOR_BLACK),
)
_HAND_FLAG, _EXPLODED, _WRONG_FLAG, _CURSOR, _HINT = 13, 14, 15, 16, 17
_SHADE_PAIR = 20
_SHADES_256 = (46, 118, 190, 226, 214, 202, 196)
_SHADES_8 = (
    curses.COLOR_GREEN,
    curses.COLOR_GREEN,
    curses.COLOR_YELLOW,
    curses.COLOR_YELLOW,
    curses.COLOR_MAGENTA,
    curses.COLOR_RED,
    curses.COLOR_RED,
)


class Palette:
    """Look -> curses attribute, with colours when the terminal has them."""

    def __init__(self) -> None:
        self.colour = curses.has_colors()
        self._attrs: dict[int, int] = {}
        if self.colour:
            for pair, (fg, bg) in enumerate(_IOCCC_PAIRS, start=1):
                curses.init_pair(pair, fg, bg)
            curses.init_pair(_HAND_FLAG, curses.COLOR_BLUE, curses.COLOR_WHITE)
            curses.init_pair(_EXPLODED, curses.COLOR_YELLOW, curses.COLOR_RED)
            curses.init_pair(_WRONG_FLAG, curses.COLOR_BLACK, curses.COLOR_RED)
            curses.init_pair(_CURSOR, curses.COLOR_WHITE, curses.COLOR_BLUE)
            curses.init_pair(_HINT, curses.COLOR_BLACK, curses.COLOR_CYAN)
            shades = _SHADES_256 if curses.COLORS >= 256 else _SHADES_8
            for shade, bg in enumerate(shades):
                curses.init_pair(_SHADE_PAIR + shade, curses.COLOR_BLACK, bg)

    def pair(self, number: int, fallback: int = 0) -> int:
        return curses.color_pair(number) if self.colour else fallback

    def of_look(self, look: int) -> int:
        """The attribute a cell of this look is drawn with."""
        attr = self._attrs.get(look)
        if attr is None:
            attr = self._attrs[look] = self._compute(look)
        return attr

    def _compute(self, look: int) -> int:
        if look & lk.CURSOR:
            return self.pair(_CURSOR, curses.A_UNDERLINE) | curses.A_BOLD
        if look & lk.HINT:
            return self.pair(_HINT, curses.A_UNDERLINE)
        if look <= 8:
            return self.pair(4 + look, curses.A_BOLD if look else 0)
        if look >= lk.SHADE_LOOK:
            return self.pair(_SHADE_PAIR + look - lk.SHADE_LOOK, curses.A_REVERSE)
        number = {
            lk.COVERED_LOOK: (3, curses.A_REVERSE),
            lk.FLAG_LOOK: (2, curses.A_REVERSE),
            lk.HAND_FLAG_LOOK: (_HAND_FLAG, curses.A_REVERSE),
            lk.MINE_LOOK: (1, curses.A_BOLD),
            lk.EXPLODED_LOOK: (_EXPLODED, curses.A_BOLD | curses.A_BLINK),
            lk.WRONG_FLAG_LOOK: (_WRONG_FLAG, curses.A_BOLD),
        }[look]
        return self.pair(*number)


def _put(window: curses.window, row: int, col: int, text: str, attr: int = 0) -> None:
    """addstr that tolerates the bottom-right corner and clips at the right edge."""
    lines, cols = window.getmaxyx()
    if row < 0 or row >= lines or col >= cols:
        return
    text = text[: cols - col]
    # Writing the screen's last cell moves the cursor off it, which curses reports: harmless.
    with contextlib.suppress(curses.error):
        window.addstr(row, col, text, attr)


class Painter:
    """Draws a session; remembers what is on the screen to redraw only changes."""

    def __init__(self, window: curses.window):
        self.window = window
        self.palette = Palette()
        self._drawn: np.ndarray | None = None
        self._text: dict[tuple[int, int], tuple[str, int]] = {}
        self._help_drawn = False

    def invalidate(self) -> None:
        """Forget the screen (after a resize or a new game): the next frame draws all."""
        self._drawn = None
        self._help_drawn = False
        self._text.clear()
        self.window.erase()

    def paint(self, session: Session, now: float | None = None) -> None:
        lines, cols = self.window.getmaxyx()
        if not fits(session.width, session.height, lines, cols):
            self._bigger(lines, cols)
        elif session.help_shown:
            self._help(session, lines, cols)
            self._status(session, now)
        else:
            if self._help_drawn:
                self.invalidate()
            self._field(session)
            panel = side_panel(session.width, session.height, lines, cols)
            shown = self._status(session, now, panel is not None)
            self._panel(session, panel, shown)
        self.window.refresh()

    def _help(self, session: Session, lines: int, cols: int) -> None:
        """The key list in a box over the field (which is redrawn when it closes)."""
        if self._help_drawn:
            return
        self._help_drawn = True
        self._drawn = None
        who = "You guess" if session.autoplay is None else "The player guesses"
        rows = [
            "Semi-automatic Minesweeper",
            "",
            f"{who}; the rule set opens",
            f"what it proves ({session.spec.rule_set}).",
            "",
            *_help(session)[0],
        ]
        width = max(len(r) for r in rows) + 4
        top = max(1, (lines - len(rows) - 2) // 2)
        left = max(0, (cols - width) // 2)
        attr = self.palette.pair(4)
        _put(self.window, top, left, "+" + "-" * (width - 2) + "+", attr)
        for offset, text in enumerate(rows, start=1):
            _put(self.window, top + offset, left, f"| {text.ljust(width - 4)} |", attr)
        _put(self.window, top + len(rows) + 1, left, "+" + "-" * (width - 2) + "+", attr)

    def _bigger(self, lines: int, cols: int) -> None:
        if self._text.get((-1, -1)) != (BIGGER, 0):
            self.window.erase()
            self._drawn = None
            self._text = {(-1, -1): (BIGGER, 0)}
        _put(
            self.window, lines // 2, max(0, (cols - len(BIGGER)) // 2), BIGGER, self.palette.pair(4)
        )

    def _field(self, session: Session) -> None:
        if (-1, -1) in self._text:
            self.invalidate()
        game = session.game
        animating = session.animating
        state = GameState.PLAYING if animating else session.state
        probabilities = None
        if session.overlay:
            probabilities = session.probability_worker.result(session.version)
        looks = lk.field_looks(
            session.shown,
            state=state,
            mines=game.layout.mines,
            exploded=game.minefield.exploded,
            hand_flags=session.hand_flags,
            probabilities=probabilities,
            cursor=session.cursor if session.cursor_shown else None,
            hint=session.hint,
        )
        if self._drawn is None or self._drawn.shape != looks.shape:
            changed = np.ones(looks.shape, dtype=bool)
        else:
            changed = looks != self._drawn
        width = session.width
        for index in np.flatnonzero(changed):
            x, y = int(index) % width, int(index) // width
            look = int(looks[y, x])
            row, col = cell_origin(x, y)
            glyph = lk.GLYPHS[look & (lk.CURSOR - 1)]
            _put(self.window, row, col, " " + glyph, self.palette.of_look(look))
        self._drawn = looks

    def _text_at(self, row: int, col: int, text: str, attr: int, width: int) -> None:
        """Draw ``text`` padded to ``width`` unless the same is there already."""
        text = text[:width].ljust(width)
        if self._text.get((row, col)) != (text, attr):
            self._text[(row, col)] = (text, attr)
            _put(self.window, row, col, text, attr)

    def _status(
        self, session: Session, now: float | None, panel: bool = False
    ) -> tuple[bool, bool]:
        """Counter, smiley, timer; guesses and message in the gaps when they fit.

        With a side ``panel`` on screen, a message longer than its gap goes there whole
        instead: cut on the status line, a search agent's long note would hide how the
        game ended ("won!" comes last). Returns whether the guesses and the message
        found room on the status line.
        """
        field_cols = max(session.width * 2, MIN_STATUS_WIDTH)
        red = self.palette.pair(7)
        # At a win every covered cell shows a flag (see looks), so no mine is left to find.
        won = session.state is GameState.WON and not session.animating
        counter = 0 if won else max(-99, min(999, session.game.mines_left))
        self._text_at(0, 0, f"{counter:03d}", red, 3)
        smiley = smiley_column(session.width)
        face = SMILEYS[GameState.PLAYING if session.animating else session.state]
        self._text_at(0, smiley, face, self.palette.pair(9, curses.A_BOLD), 3)
        self._text_at(0, field_cols - 3, f"{min(999, session.elapsed(now)):03d}", red, 3)
        left = smiley - 4  # columns 4 .. smiley-1, a blank kept either side
        guesses_fit = left >= len("999 guesses")
        if guesses_fit:
            self._text_at(0, 4, _guesses(session), 0, left)
        right = field_cols - 3 - (smiley + 5)  # between the smiley and the timer
        message = session.cursor_odds() or session.message or "? help"
        message_fits = right >= 24 and (len(message) <= right or not panel)
        if message_fits:
            self._text_at(0, smiley + 4, message[:right].rjust(right), 0, right)
        elif right > 0:  # the gap is cleared: the message is on the panel
            self._text_at(0, smiley + 4, " " * right, 0, right)
        return guesses_fit, message_fits

    def _panel(self, session: Session, panel: Panel | None, shown: tuple[bool, bool]) -> None:
        if panel is None:
            return
        guesses_shown, message_shown = shown
        message = "" if message_shown else session.cursor_odds() or session.message
        keys, short_keys = _help(session)
        autoplay = session.autoplay
        first = "" if guesses_shown else _guesses(session)
        if autoplay is None:
            about, state = f"rule set {session.spec.rule_set}", ""
        else:  # who plays what, and whether the play is paused
            about, state = autoplay.driver.title(len(autoplay.played)), autoplay.state()
        if panel.col == 0:  # below the field: short lines
            rows = [f"{first}   {message}".strip(), short_keys]
            if autoplay is not None:
                rows[1:1] = [about, state]
        elif autoplay is None:
            rows = [first, about, message, state, *keys]
        else:  # a driver's lines are long (a map's path, the search agent's figures): wrap
            width = panel.cols - 1
            rows = [first, *_wrapped(about, width), *_wrapped(message, width), state, *keys]
        for offset, text in enumerate(rows[: panel.rows]):
            self._text_at(panel.row + offset, panel.col, text, 0, panel.cols - 1)


def hint_label(advisor_name: str | None) -> str:
    """What the ``h`` key shows: the named adviser's guess, or the safest cell without one
    (the same words as ``semiautomines play --help``)."""
    return "safest cell" if advisor_name is None else f"{advisor_name} agent's guess"


def _help(session: Session) -> tuple[tuple[str, ...], str]:
    """The key help (long and one-line) for who plays: a person, or a driver."""
    driver = session.spec.driver
    if driver is None:
        hint = hint_label(session.spec.advisor_name if session.spec.advisor else None)
        return tuple(row.format(hint=hint) for row in HELP), SHORT_HELP
    restart = driver.restart_label
    return (
        tuple(row.format(restart=restart) for row in DRIVEN_HELP),
        DRIVEN_SHORT_HELP.format(restart=restart),
    )


def _wrapped(text: str, width: int, lines: int = 2) -> list[str]:
    """``text`` on exactly ``lines`` rows of at most ``width`` columns (the rest cut)."""
    rows = textwrap.wrap(text, max(1, width))[:lines]
    return rows + [""] * (lines - len(rows))


def _guesses(session: Session) -> str:
    guesses = session.game.guesses
    return f"{guesses} guess" if guesses == 1 else f"{guesses} guesses"
