"""Map and position file formats: readers, writers and format detection.

Also the ``NAME.start`` sidecar that keeps a no-guess map's start cell beside it.

``load_layout`` reads either layout format (IOCCC or ``x``/``o`` grid), chosen
from the content: a file whose first token is an integer is IOCCC.
"""

from __future__ import annotations

from pathlib import Path

from ..core.board import Board
from ..core.layout import MineLayout
from ..errors import MapFormatError
from .ioccc import format_ioccc, parse_ioccc
from .layout_grid import format_layout_grid, parse_layout_grid
from .position import format_board, parse_board
from .source import read_text
from .start_file import format_start, load_start, start_path, write_start


def parse_layout(text: str, source: str = "<string>") -> MineLayout:
    """Parse a layout in either format, detected from the content."""
    first = text.split(maxsplit=1)[:1]
    if not first:
        raise MapFormatError("empty file: expected an IOCCC map or rows of 'x'/'o'", source, 1)
    if first and first[0].lstrip("+-").isdigit():
        return parse_ioccc(text, source)
    return parse_layout_grid(text, source)


def load_layout(path: str | Path) -> MineLayout:
    """Read a layout file (IOCCC or ``x``/``o`` grid)."""
    return parse_layout(read_text(path), str(path))


def load_board(path: str | Path, total_mines: int | None = None) -> Board:
    """Read a position file (a player's view); ``total_mines`` overrides its header."""
    return parse_board(read_text(path), str(path), total_mines)


__all__ = [
    "format_board",
    "format_ioccc",
    "format_layout_grid",
    "format_start",
    "load_board",
    "load_layout",
    "load_start",
    "parse_board",
    "parse_ioccc",
    "parse_layout",
    "parse_layout_grid",
    "start_path",
    "write_start",
]
