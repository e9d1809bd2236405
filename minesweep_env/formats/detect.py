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

import re
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


_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Bytes no text map holds: ASCII control characters other than tab, newline and CR."""


def _plain_text(data: bytes) -> bool:
    if _CONTROL_BYTES.search(data):
        return False
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return True


def detect(data: bytes, path: str | Path) -> FileKind:
    """The kind of ``data`` read from ``path`` (see the module docstring for the rule).

    Text is only examined when the extension and the shape disagree, so a large
    text map costs one length check here.
    """
    named_binary = Path(path).suffix.lower() in BOARD_FILE_SUFFIXES
    shaped = mbf_shaped(data)
    if shaped and named_binary:
        return FileKind.BOARD_FILE
    if not shaped and not named_binary:
        return FileKind.TEXT  # the text readers say what is wrong with anything else
    text = _plain_text(data)
    if shaped:  # a board file's shape under another name: content decides
        return FileKind.TEXT if text else FileKind.BOARD_FILE
    # named .mbf/.abf without a board file's shape: text if it is text (an empty
    # file is a truncated board file), else a broken board file
    return FileKind.TEXT if text and data.strip() else FileKind.BOARD_FILE
