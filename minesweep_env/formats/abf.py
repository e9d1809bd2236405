"""Minesweeper Arbiter's board file (``.abf``): a mine layout as a few bytes.

JSMinesweeper, the public reader the community opens these boards with, reads an
``.abf`` exactly as a MinesweeperX ``.mbf`` (width, height, a big-endian mine
count, then x, y per mine; see :mod:`.mbf`). This reader does the same, so a
board that opens there opens here; only the name and the program that wrote it
differ. Errors name the ``.abf`` file and the byte, as for ``.mbf``.

No independent description of Arbiter's own layout was found (the maps and
formats page says what was searched): a file holding more than that layout fails
the length check and is refused, never misread.
"""

from __future__ import annotations

from ..core.layout import MineLayout
from .mbf import mbf_shaped, parse_mbf


def abf_shaped(data: bytes) -> bool:
    """Whether ``data`` has the shape of a board file (see :func:`.mbf.mbf_shaped`)."""
    return mbf_shaped(data)


def parse_abf(data: bytes, source: str = "<bytes>") -> MineLayout:
    """Read an Arbiter board file's bytes into a layout (see :func:`.mbf.parse_mbf`)."""
    return parse_mbf(data, source)
