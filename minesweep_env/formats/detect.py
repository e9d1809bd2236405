"""Which format a map or position file is in: from its content where the format
allows, otherwise from its extension.

The rule, in order:

1. Bytes that have the exact shape of a board file (``.mbf``/``.abf``: length
   ``4 + 2 * mines``, every mine on the board) and are not plain text, or that
   have that shape and the ``.mbf``/``.abf`` extension: a board file.
2. Plain UTF-8 text (no NUL byte): a text format, told apart by its first line
   (``WxHxM`` JSMinesweeper's position text; an integer: an IOCCC map or a
   position; otherwise rows of ``x``/``o``).
3. Anything else named ``.mbf``/``.abf``: a board file, whose reader then says
   at which byte it goes wrong.
4. Otherwise: text, whose reader says it is binary data or at which line it is
   not UTF-8.

So a board file renamed ``.txt`` still reads as one, and a pasted position saved
as ``.mbf`` reads as text.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from .mbf import mbf_shaped


class FileKind(Enum):
    """What a file holds, as far as the readers are concerned."""

    BOARD_FILE = "board file"
    """MinesweeperX ``.mbf`` or Arbiter ``.abf`` bytes."""
    TEXT = "text"


BOARD_FILE_SUFFIXES = (".mbf", ".abf")
"""Extensions of the binary board files."""
MAP_SUFFIXES = (".txt", ".mine", *BOARD_FILE_SUFFIXES)
"""Files a folder of maps is read for: text maps (``.txt``), JSMinesweeper
positions that carry every mine (``.mine``) and board files."""


def _plain_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return all(c.isprintable() or c.isspace() for c in text)


def detect(data: bytes, path: str | Path) -> FileKind:
    """The kind of ``data`` read from ``path`` (see the module docstring for the rule)."""
    named_binary = Path(path).suffix.lower() in BOARD_FILE_SUFFIXES
    text = _plain_text(data)
    if mbf_shaped(data) and (named_binary or not text):
        return FileKind.BOARD_FILE
    if text and (data.strip() or not named_binary):  # an empty .mbf is a truncated one
        return FileKind.TEXT
    if named_binary:
        return FileKind.BOARD_FILE
    return FileKind.TEXT
