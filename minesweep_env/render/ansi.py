"""The position as text, laid out like the IOCCC program's screen.

The program draws a top line (mine counter, smiley, timer) and then every cell
as two characters, a space and a glyph, in these colours (its ncurses pairs):
covered ``.`` black on white, a probed zero ``.`` white on black, numbers 1 to 8
in blue, green, red, magenta, yellow, cyan, white, white on black, a flag ``!``
red on white, and after a loss ``*`` white on red on every unflagged mine.
We show the guess count where the program shows its timer (a game here has no
clock), and mark the fatal mine in bold yellow on red.

Without colour a covered ``.`` and a zero ``.`` would look the same, so the
plain variant uses the glyphs of :meth:`minesweep_env.Game.rows`: ``?``
covered, ``!`` flag, digits, ``*`` mines after a loss, and ``X`` the fatal one.
"""

from __future__ import annotations

from ..core.cells import FLAGGED
from ..core.minefield import GameState
from ..game import Game

_RESET = "\x1b[0m"
_COVERED = "\x1b[30;47m"
_FLAG = "\x1b[31;47m"
_MINE = "\x1b[37;41m"
_FATAL = "\x1b[1;33;41m"
_COUNTER = "\x1b[31;40m"
_FACE = "\x1b[33;40m"
_NUMBER = [
    "\x1b[37;40m",  # 0, drawn as "."
    "\x1b[34;40m",
    "\x1b[32;40m",
    "\x1b[31;40m",
    "\x1b[35;40m",
    "\x1b[33;40m",
    "\x1b[36;40m",
    "\x1b[37;40m",
    "\x1b[37;40m",
]

FACES = {"playing": ":-)", "won": "8-)", "lost": "X-("}
"""The program's smiley for each state."""


def _counter(value: int) -> str:
    """Three characters, as the program's ``%03d`` capped at 999."""
    return f"{min(value, 999):03d}"


def _cell(value: int, mine: bool, fatal: bool, state: str, color: bool) -> str:
    """The two characters (and colour) of one cell."""
    if value >= 0:
        if not color:
            return f" {value}"
        return f"{_NUMBER[value]} {'.' if value == 0 else value}"
    shown_mine = state == "lost" and mine and value != FLAGGED
    if value == FLAGGED or (state == "won" and mine):
        return f"{_FLAG} !" if color else " !"
    if shown_mine:
        if fatal:
            return f"{_FATAL} *" if color else " X"
        return f"{_MINE} *" if color else " *"
    return f"{_COVERED} ." if color else " ?"


def render_ansi(game: Game, won: bool = False, color: bool = True) -> str:
    """The IOCCC-style screen of ``game``: a top line, then one text line per row.

    :param won: the env's verdict that the game is won even though the rule
        set's own rule keeps it going (every safe cell open); remaining covered
        cells are then shown as flags, as at any win.
    :param color: ANSI colours as the program's; ``False`` for plain glyphs.
    """
    state = GameState.WON.value if won else game.state.value
    width = max(2 * game.width, 12)  # room for both counters and the face on narrow boards
    # At a win every covered cell shows a flag, so no mine is left to find.
    mines_left = 0 if state == GameState.WON.value else game.mines_left
    counter, guesses = _counter(mines_left), _counter(game.guesses)
    face = FACES[state]
    middle = width - 6
    left_pad = (middle - 3) // 2
    top_plain = (counter, " " * left_pad, face, " " * (middle - 3 - left_pad), guesses)
    if color:
        top = (
            f"{_COUNTER}{counter}{top_plain[1]}{_FACE}{face}{_COUNTER}{top_plain[3]}"
            f"{guesses}{_RESET}"
        )
    else:
        top = "".join(top_plain)
    mines = game.layout.mines
    exploded = game.minefield.exploded
    lines = [top]
    for y in range(game.height):
        row = game.minefield.view[y]
        parts = []
        current = ""
        for x in range(game.width):
            cell = _cell(int(row[x]), bool(mines[y, x]), exploded == (x, y), state, color)
            attribute, text = cell[:-2], cell[-2:]
            if attribute != current:  # repeat a colour only where it changes
                parts.append(attribute)
                current = attribute
            parts.append(text)
        lines.append("".join(parts) + (_RESET if color else ""))
    return "\n".join(lines) + "\n"
