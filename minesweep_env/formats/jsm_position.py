"""JSMinesweeper's position text: what its users paste and its "Download position" saves.

The first line is ``WIDTHxHEIGHTxMINES`` (``30x16x99``); then one line per row,
one character per cell, no separators::

    8x8x10
    HHHH1000
    HHHF1000
    ...

``0``..``8`` an opened cell showing that number, ``H`` a covered cell, ``F`` a
flag (a mine the player marked), ``M`` or ``?`` a mine that is covered but
known to the file (JSMinesweeper writes ``?`` for the mines of a finished game).

It is a position (what a player sees; ``guess`` and ``probabilities`` read it):
flags become known mines, ``M``/``?`` covered cells. When its flags and
``M``/``?`` marks account for every mine of the header, it carries the whole
layout too, and then it is also a map (the env, ``play``, ``evaluate --maps``).
"""

from __future__ import annotations

import re

import numpy as np

from ..core.board import Board
from ..core.board_spec import size_problem
from ..core.cells import COVERED, FLAGGED, adjacent_mine_counts
from ..core.layout import MineLayout
from ..errors import MapFormatError
from .position import check_numbers_fit
from .source import numbered_lines, shown

HEADER = re.compile(r"^\s*(\d{1,9})x(\d{1,9})x(\d{1,9})\s*$")
"""``WIDTHxHEIGHTxMINES``, lower-case ``x`` as JSMinesweeper writes it."""

MINE_MARKS = "FM?"
"""Characters that put a mine on the cell: a flag, or a covered mine the file knows."""


def is_jsm_position(text: str) -> bool:
    """Whether the first non-blank line of ``text`` is a ``WxHxM`` header."""
    for _, line in numbered_lines(text):
        if line.strip():
            return HEADER.match(line) is not None
    return False


def _read(text: str, source: str) -> tuple[np.ndarray, np.ndarray, int, int, list[int]]:
    """(cells as characters, mine marks, mines, header line, file line of each row)."""
    lines = numbered_lines(text)
    while lines and not lines[-1][1].strip():  # blank lines at the end are no rows
        lines.pop()
    start = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    if start is None:
        raise MapFormatError("empty file: expected a 'WIDTHxHEIGHTxMINES' header", source, 1)
    header_line, header = lines[start]
    match = HEADER.match(header)
    if match is None:
        raise MapFormatError(
            f"header must be 'WIDTHxHEIGHTxMINES', got {shown(header.strip())}",
            source,
            header_line,
        )
    width, height, mines = (int(g) for g in match.groups())
    problem = size_problem(width, height)
    if problem is not None:
        raise MapFormatError(problem, source, header_line)
    if mines > width * height:
        raise MapFormatError(
            f"mine count {mines} out of range 0..{width * height}", source, header_line
        )
    rows = lines[start + 1 : start + 1 + height]
    if len(rows) < height:
        last = rows[-1][0] if rows else header_line
        raise MapFormatError(f"expected {height} rows, found {len(rows)}", source, last)
    for number, line in lines[start + 1 + height :]:
        if line.strip():
            raise MapFormatError(f"extra line after the {height} rows", source, number)
    cells = np.empty((height, width), dtype="<U1")
    for y, (number, line) in enumerate(rows):
        row = line.rstrip()
        if len(row) != width:
            raise MapFormatError(f"row has {len(row)} cells, expected {width}", source, number)
        for x, char in enumerate(row):
            if not (char in "H" + MINE_MARKS or ("0" <= char <= "8")):
                raise MapFormatError(
                    f"unexpected character {char!r} in column {x + 1}: use 0-8 opened, "
                    "'H' covered, 'F' flag, 'M' or '?' mine",
                    source,
                    number,
                )
        cells[y] = list(row)
    marked = np.isin(cells, list(MINE_MARKS))
    return cells, marked, mines, header_line, [number for number, _ in rows]


def _numbers(cells: np.ndarray) -> np.ndarray:
    """The opened cells' numbers, -1 elsewhere."""
    numbers = np.full(cells.shape, -1, dtype=np.int8)
    opened = np.char.isdigit(cells)
    numbers[opened] = cells[opened].astype(np.int8)
    return numbers


def parse_jsm_position(text: str, source: str = "<string>") -> Board:
    """Read the text as a position: flags known mines, every other unopened cell covered."""
    cells, _, mines, header_line, row_lines = _read(text, source)
    height, width = cells.shape
    numbers = _numbers(cells)
    grid = np.where(numbers >= 0, numbers, COVERED).astype(np.int8)
    grid[cells == "F"] = FLAGGED
    check_numbers_fit(grid, source, row_lines)
    flags = int(np.count_nonzero(grid == FLAGGED))
    if flags > mines:
        raise MapFormatError(
            f"{flags} flags but the header says {mines} mines", source, header_line
        )
    return Board(grid, mines)


def parse_jsm_layout(text: str, source: str = "<string>") -> MineLayout:
    """Read the text as a map: its flags and ``M``/``?`` marks are the mines.

    :raises MapFormatError: when the marks are not all the header's mines (then
        it is a position only), or an opened number disagrees with them.
    """
    cells, marked, mines, header_line, row_lines = _read(text, source)
    found = int(np.count_nonzero(marked))
    if found != mines:
        raise MapFormatError(
            f"marks {found} of the header's {mines} mines ('F', 'M' or '?'): a position, "
            "not a whole layout",
            source,
            header_line,
        )
    counts = adjacent_mine_counts(marked)
    numbers = _numbers(cells)
    wrong = np.argwhere((numbers >= 0) & (numbers != counts))
    if wrong.size:
        y, x = (int(v) for v in wrong[0])
        raise MapFormatError(
            f"cell ({x}, {y}) shows {numbers[y, x]} but the marked mines around it make "
            f"{counts[y, x]}",
            source,
            row_lines[y],
        )
    return MineLayout(mines=marked)


def format_jsm_position(board: Board) -> str:
    """Write a position as JSMinesweeper's text (flags ``F``, covered ``H``)."""
    total = board.total_mines if board.total_mines is not None else board.flag_count
    lines = [f"{board.width}x{board.height}x{total}"]
    for row in board.grid:
        lines.append("".join("F" if v == FLAGGED else str(int(v)) if v >= 0 else "H" for v in row))
    return "\n".join(lines) + "\n"
