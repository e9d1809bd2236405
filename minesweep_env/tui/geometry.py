"""Where things are on the screen: the IOCCC program's geometry, kept exactly.

Cell (x, y) is drawn at screen row ``y + 1``, columns ``2x`` and ``2x + 1``;
row 0 is the status line: the mine counter at column 0, the smiley at columns
``W - 1 .. W + 1`` (centred over the ``2W`` columns of the field) and the timer
ending at column ``2W - 1``. A person, and a test, knows where to click.
Pure functions only, so they are tested without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

CELL_COLUMNS = 2
"""Screen columns per cell: a blank then the cell's character, as the original."""
STATUS_ROWS = 1
"""Rows above the field: the status line."""
MIN_STATUS_WIDTH = 11
"""Columns the status line needs: ``000 :-) 000``."""


def terminal_field_size(lines: int, cols: int) -> tuple[int, int, int]:
    """The IOCCC program's field for a terminal: (width, height, mines).

    The field fills the terminal below the status line, two columns a cell,
    and a fifth of the cells are mines (``W*H/5`` rounded down).
    """
    width = max(1, cols // CELL_COLUMNS)
    height = max(1, lines - STATUS_ROWS)
    return width, height, width * height // 5


def fits(width: int, height: int, lines: int, cols: int) -> bool:
    """Whether a width x height field and its status line fit the terminal."""
    return height + STATUS_ROWS <= lines and max(width * CELL_COLUMNS, MIN_STATUS_WIDTH) <= cols


def cell_at(row: int, col: int, width: int, height: int) -> tuple[int, int] | None:
    """The cell (x, y) drawn at a screen position, or ``None`` off the field."""
    x, y = col // CELL_COLUMNS, row - STATUS_ROWS
    if 0 <= x < width and 0 <= y < height:
        return x, y
    return None


def cell_origin(x: int, y: int) -> tuple[int, int]:
    """(row, column) of the first of the two screen columns of cell (x, y)."""
    return y + STATUS_ROWS, x * CELL_COLUMNS


def smiley_column(width: int) -> int:
    """First column of the three-character smiley, centred over the field."""
    return max(width * CELL_COLUMNS, MIN_STATUS_WIDTH) // 2 - 1


def on_smiley(row: int, col: int, width: int) -> bool:
    """Whether a click at (row, col) hits the smiley (any of its three columns)."""
    start = smiley_column(width)
    return row == 0 and start <= col < start + 3


@dataclass(frozen=True)
class Panel:
    """A free screen rectangle for the guess count, messages and key help."""

    row: int
    col: int
    rows: int
    cols: int


def side_panel(width: int, height: int, lines: int, cols: int) -> Panel | None:
    """Free space right of the field, else below it; ``None`` when there is none.

    A field that fills the terminal (the default game) leaves no panel; its
    guess count and messages then go into the gaps of the status line.
    """
    field_cols = max(width * CELL_COLUMNS, MIN_STATUS_WIDTH)
    if cols - field_cols - 2 >= 20:
        return Panel(0, field_cols + 2, lines, cols - field_cols - 2)
    below = height + STATUS_ROWS + 1
    if lines - below >= 2:
        return Panel(below, 0, lines - below, cols)
    return None
