"""MinesweeperX's board file (``.mbf``): a mine layout as a few bytes.

The layout, every field an unsigned byte::

    byte 0        width, 1..255
    byte 1        height, 1..255
    bytes 2-3     mine count, big-endian (high byte first)
    bytes 4...    two bytes per mine: its column x, then its row y (0-based)

so a file is exactly ``4 + 2 * mines`` bytes. JSMinesweeper reads and writes it
the same way. It carries no start cell and no scan order: a layout read from it
gets fresh IOCCC priorities when written in the IOCCC format.
"""

from __future__ import annotations

import numpy as np

from ..core.layout import MineLayout
from ..errors import MapFormatError

HEADER_BYTES = 4
MAX_SIDE = 255
"""Widest and highest board the format holds (one byte each)."""
MAX_MINES = 65_535
"""Most mines the format holds (two bytes)."""


def mbf_shaped(data: bytes) -> bool:
    """Whether ``data`` has the shape of a board file: a non-empty board, its
    length ``4 + 2 * mines``, every mine on the board. The format has no magic
    number, so this is how content tells it apart from text."""
    if len(data) < HEADER_BYTES:
        return False
    width, height, mines = data[0], data[1], int.from_bytes(data[2:4], "big")
    if width == 0 or height == 0 or mines > width * height:
        return False
    if len(data) != HEADER_BYTES + 2 * mines:
        return False
    body = np.frombuffer(data, dtype=np.uint8, offset=HEADER_BYTES)
    return bool(np.all(body[0::2] < width) and np.all(body[1::2] < height))


def parse_mbf(data: bytes, source: str = "<bytes>") -> MineLayout:
    """Read a board file's bytes into a layout.

    :raises MapFormatError: ``source: byte N: problem`` for a truncated,
        overlong or inconsistent file.
    """
    if len(data) < HEADER_BYTES:
        raise MapFormatError(
            f"truncated header: {len(data)} of {HEADER_BYTES} bytes (width, height, mines)",
            source,
            byte=len(data),
        )
    width, height, mines = data[0], data[1], int.from_bytes(data[2:4], "big")
    if width == 0:
        raise MapFormatError("width is 0", source, byte=0)
    if height == 0:
        raise MapFormatError("height is 0", source, byte=1)
    if mines > width * height:
        raise MapFormatError(
            f"mine count {mines} out of range 0..{width * height} for a {width}x{height} board",
            source,
            byte=2,
        )
    expected = HEADER_BYTES + 2 * mines
    if len(data) < expected:
        raise MapFormatError(
            f"truncated: {mines} mines need {expected} bytes, the file has {len(data)}",
            source,
            byte=len(data),
        )
    if len(data) > expected:
        raise MapFormatError(
            f"{len(data) - expected} extra bytes after the {mines} mines", source, byte=expected
        )
    grid = np.zeros((height, width), dtype=bool)
    for k in range(mines):
        offset = HEADER_BYTES + 2 * k
        x, y = data[offset], data[offset + 1]
        if x >= width:
            raise MapFormatError(f"mine x {x} off the {width}-wide board", source, byte=offset)
        if y >= height:
            raise MapFormatError(f"mine y {y} off the {height}-high board", source, byte=offset + 1)
        if grid[y, x]:
            raise MapFormatError(f"mine ({x}, {y}) listed twice", source, byte=offset)
        grid[y, x] = True
    return MineLayout(mines=grid)


def mbf_problem(layout: MineLayout) -> str | None:
    """Why ``layout`` cannot be written as a board file, or ``None`` when it can."""
    if layout.width > MAX_SIDE or layout.height > MAX_SIDE:
        return (
            f"a {layout.width}x{layout.height} board does not fit the .mbf format "
            f"(at most {MAX_SIDE}x{MAX_SIDE})"
        )
    if layout.mine_count > MAX_MINES:
        return f"{layout.mine_count} mines do not fit the .mbf format (at most {MAX_MINES})"
    return None


def format_mbf(layout: MineLayout) -> bytes:
    """A layout as a board file, mines in row order.

    :raises ValueError: when the board is too large for the format (see :func:`mbf_problem`).
    """
    problem = mbf_problem(layout)
    if problem is not None:
        raise ValueError(problem)
    ys, xs = np.nonzero(layout.mines)  # row-major: y, then x
    body = np.empty(2 * xs.size, dtype=np.uint8)
    body[0::2], body[1::2] = xs, ys
    header = bytes([layout.width, layout.height]) + layout.mine_count.to_bytes(2, "big")
    return header + body.tobytes()
