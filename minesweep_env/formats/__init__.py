"""Map and position file formats: readers, writers and format detection.

Also the ``NAME.start`` sidecar that keeps a no-guess map's start cell beside it.

The single entry points: ``load_layout`` reads a map in any format (IOCCC,
``x``/``o`` grid, MinesweeperX ``.mbf``, Arbiter ``.abf``, JSMinesweeper's
position text when it marks every mine), ``load_board`` a position (the
position format or JSMinesweeper's text). The format is told from the content
where it can be, otherwise from the extension (:mod:`.detect`).
"""

from __future__ import annotations

from pathlib import Path

from ..core.board import Board
from ..core.layout import MineLayout
from ..errors import MapFormatError
from .abf import parse_abf
from .detect import BOARD_FILE_SUFFIXES, MAP_SUFFIXES, FileKind, detect
from .ioccc import format_ioccc, parse_ioccc
from .jsm_position import (
    format_jsm_position,
    is_jsm_position,
    parse_jsm_layout,
    parse_jsm_position,
)
from .layout_grid import format_layout_grid, parse_layout_grid
from .mbf import format_mbf, parse_mbf
from .position import format_board
from .position import parse_board as parse_position
from .source import decode_text, read_bytes
from .start_file import format_start, load_start, start_path, write_start


def parse_layout(text: str, source: str = "<string>") -> MineLayout:
    """Parse a text layout in any text format, detected from the content."""
    first = text.split(maxsplit=1)[:1]
    if not first:
        raise MapFormatError("empty file: expected an IOCCC map or rows of 'x'/'o'", source, 1)
    if is_jsm_position(text):
        return parse_jsm_layout(text, source)
    if first and first[0].lstrip("+-").isdigit():
        return parse_ioccc(text, source)
    return parse_layout_grid(text, source)


def parse_board(text: str, source: str = "<string>", total_mines: int | None = None) -> Board:
    """Parse a position (the position format or JSMinesweeper's text, detected from
    the content). ``total_mines`` overrides the header's count."""
    if not is_jsm_position(text):
        return parse_position(text, source, total_mines)
    board = parse_jsm_position(text, source)
    if total_mines is not None:
        if not 0 <= total_mines <= board.width * board.height:
            cells = board.width * board.height
            raise ValueError(f"total_mines must be in 0..{cells}, got {total_mines}")
        board.total_mines = total_mines
    return board


def parse_board_file(data: bytes, source: str = "<bytes>") -> MineLayout:
    """A ``.mbf`` or ``.abf`` file's bytes as a layout (the same byte layout)."""
    if Path(source).suffix.lower() == ".abf":
        return parse_abf(data, source)
    return parse_mbf(data, source)


def load_layout(path: str | Path) -> MineLayout:
    """Read a map file in any format (see the module docstring)."""
    data = read_bytes(path)
    if detect(data, path) is FileKind.BOARD_FILE:
        return parse_board_file(data, str(path))
    return parse_layout(decode_text(data, path), str(path))


def read_position_text(path: str | Path) -> str:
    """The text of a position file; a board file (a layout, no player's view) is refused.

    :raises MapFormatError: for a board file, or an unreadable file.
    """
    data = read_bytes(path)
    if detect(data, path) is FileKind.BOARD_FILE:
        raise MapFormatError(
            "a board file (.mbf/.abf) holds a mine layout (a map), not a position", path
        )
    return decode_text(data, path)


def load_board(path: str | Path, total_mines: int | None = None) -> Board:
    """Read a position file (a player's view); ``total_mines`` overrides its header."""
    return parse_board(read_position_text(path), str(path), total_mines)


__all__ = [
    "BOARD_FILE_SUFFIXES",
    "MAP_SUFFIXES",
    "FileKind",
    "detect",
    "format_board",
    "format_jsm_position",
    "format_mbf",
    "format_ioccc",
    "format_layout_grid",
    "format_start",
    "is_jsm_position",
    "load_board",
    "load_layout",
    "load_start",
    "parse_abf",
    "parse_board",
    "parse_board_file",
    "parse_ioccc",
    "parse_jsm_layout",
    "parse_jsm_position",
    "parse_layout",
    "parse_layout_grid",
    "parse_mbf",
    "read_position_text",
    "start_path",
    "write_start",
]
