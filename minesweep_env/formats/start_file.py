"""The start cell of a no-guess map, kept in a sidecar file beside it.

A no-guess map is only guaranteed solvable from its start cell, so the start
travels with the map: ``expert-0001.txt`` has ``expert-0001.start`` holding one
line ``x y`` (0-based, x the column). The map file itself stays a plain IOCCC
map that every reader (and the IOCCC program) accepts.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import MapFormatError
from ..fileio import write_text
from .source import read_text, shown

START_SUFFIX = ".start"


def start_path(map_path: str | Path) -> Path:
    """The sidecar path of a map: its name with the suffix replaced by ``.start``."""
    return Path(map_path).with_suffix(START_SUFFIX)


def format_start(start: tuple[int, int]) -> str:
    return f"{start[0]} {start[1]}\n"


def write_start(map_path: str | Path, start: tuple[int, int]) -> Path:
    """Write the sidecar of ``map_path`` (whole or not at all); refuses to write
    over an existing file (``FileExistsError``)."""
    path = start_path(map_path)
    write_text(path, format_start(start), exclusive=True)
    return path


def load_start(map_path: str | Path) -> tuple[int, int] | None:
    """The start cell recorded beside ``map_path``, or ``None`` when there is no sidecar.

    :raises MapFormatError: when the sidecar exists but is not one line ``x y``.
    """
    path = start_path(map_path)
    if not path.exists():
        return None
    text = read_text(path)
    fields = text.split()
    # ASCII digits only: "²".isdigit() holds but int("²") fails. Longer than a
    # board side can be is refused too (int() of thousands of digits raises).
    if len(fields) != 2 or not all(f.isascii() and f.isdigit() and len(f) <= 9 for f in fields):
        got = shown(text.strip())
        raise MapFormatError(f"expected one line 'x y' (0-based), got {got}", path, 1)
    return int(fields[0]), int(fields[1])
