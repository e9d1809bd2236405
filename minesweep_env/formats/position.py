"""The position format: what a player sees, as text.

First line ``W H`` and optionally a third number, the total mine count; then H
rows of W cells: ``!`` a known mine, ``?`` a covered cell, a digit a probed cell.
Spaces inside a row are ignored, so aligned and compact files both read.
"""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from ..core.board_spec import size_problem
from ..core.cells import COVERED, FLAGGED, neighbour_table
from ..errors import MapFormatError
from .source import numbered_lines, shown

_CODES = {"?": COVERED, "!": FLAGGED}


def _header(line: str, number: int, source: str) -> tuple[int, int, int | None]:
    fields = line.split()
    if len(fields) not in (2, 3):
        raise MapFormatError(
            f"header must be 'width height' or 'width height mines', got {shown(line.strip())}",
            source,
            number,
        )
    try:
        values = [int(f) for f in fields]
    except ValueError:
        raise MapFormatError(
            f"header numbers must be integers, got {shown(line.strip())}", source, number
        ) from None
    width, height = values[0], values[1]
    problem = size_problem(width, height)
    if problem is not None:
        raise MapFormatError(problem, source, number)
    total = values[2] if len(values) == 3 else None
    if total is not None and not 0 <= total <= width * height:
        raise MapFormatError(
            f"mine count {total} out of range 0..{width * height}", source, number
        )
    return width, height, total


def check_numbers_fit(grid: np.ndarray, source: str, row_lines: list[int]) -> None:
    """Refuse a number larger than its cell's neighbour count (a 4 in a corner), placed
    at the file line of its row: no layout could show it, and the count would find none
    without saying where."""
    height, width = grid.shape
    neighbours = neighbour_table(width, height)
    for index, value in enumerate(grid.reshape(-1)):
        if value > len(neighbours[index]):
            x, y = index % width, index // width
            raise MapFormatError(
                f"cell ({x}, {y}) shows {value} but has only {len(neighbours[index])} neighbours",
                source,
                row_lines[y],
            )


def parse_board(text: str, source: str = "<string>", total_mines: int | None = None) -> Board:
    """Parse a position. ``total_mines`` overrides the header's count."""
    lines = [(n, line) for n, line in numbered_lines(text) if line.strip()]
    if not lines:
        raise MapFormatError("empty file: expected a 'width height' header", source, 1)
    header_line, header = lines[0]
    width, height, header_total = _header(header, header_line, source)
    rows = lines[1:]
    if len(rows) != height:
        where = rows[-1][0] if rows else header_line
        raise MapFormatError(f"expected {height} rows, found {len(rows)}", source, where)
    grid = np.empty((height, width), dtype=np.int8)
    for y, (number, line) in enumerate(rows):
        cells = "".join(line.split())
        if len(cells) != width:
            raise MapFormatError(
                f"row has {len(cells)} cells, expected {width}", source, number
            )
        for x, char in enumerate(cells):
            if char in _CODES:
                grid[y, x] = _CODES[char]
            elif char.isdigit() and char.isascii():
                grid[y, x] = int(char)
            else:
                raise MapFormatError(
                    f"unexpected character {char!r} in column {x + 1}: "
                    "use '?' covered, '!' mine or a digit",
                    source,
                    number,
                )
    check_numbers_fit(grid, source, [number for number, _ in rows])
    if total_mines is not None and not 0 <= total_mines <= width * height:
        raise ValueError(f"total_mines must be in 0..{width * height}, got {total_mines}")
    total = header_total if total_mines is None else total_mines
    return Board(grid, total)


def format_board(board: Board) -> str:
    """Write a position in the position format (with the total when known)."""
    header = f"{board.width} {board.height}"
    if board.total_mines is not None:
        header += f" {board.total_mines}"
    return "\n".join([header, *board.rows()]) + "\n"
