"""Board specs and board size limits: checked in one place.

The env, the evaluation harness, the training script, the file readers and the
command line all take a board as text (``beginner``, ``8x8x10``) or as
numbers. They check it here, so every caller accepts the same specs, within
the same bounds, and rejects a bad one with the same message.

**Size limit.** A board is at most :data:`MAX_SIDE` cells wide and high and
at most :data:`MAX_CELLS` cells in all (1024x1024, or 4096x256). Every entry
point checks it before allocating anything: a header such as ``100000 100000``
or ``--width 100000`` is refused in a line, where it would otherwise ask for
tens of gigabytes. The largest board still plays (a reset takes seconds, not
hours); the standard boards are far below it.
"""

from __future__ import annotations

import operator
import re
from typing import Any, NamedTuple

from .cells import STANDARD_BOARDS

MAX_SIDE = 4096
"""Largest width or height of any board, map or position."""
MAX_CELLS = 1_048_576
"""Largest ``width * height`` of any board, map or position (2**20 cells)."""
MAX_BATCH_CELLS = 4 * MAX_CELLS
"""Largest ``num_envs * width * height`` of the native vector env: its
preallocated arrays hold every board's cells at once."""

CUSTOM_BOARD = re.compile(r"^(\d+)x(\d+)x(\d+)$", re.IGNORECASE)
"""``WIDTHxHEIGHTxMINES``, e.g. ``8x8x10``."""


class BoardSize(NamedTuple):
    """The size and mine count of a board."""

    width: int
    height: int
    mines: int


def as_count(value: Any, name: str) -> int:
    """``value`` as a Python ``int``: an ``int`` or numpy integer, never a bool, float or text.

    ``int(8.7)`` would quietly play an 8-cell board and ``True`` a 1-cell one,
    so anything that is not an integer is refused.

    :raises TypeError: naming the argument and the type received.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got the bool {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        shown = repr(value)[:40]
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {shown}") from None


def size_problem(width: int, height: int) -> str | None:
    """Why a ``width`` x ``height`` board cannot be played, or ``None`` when it can.

    The one size check: at least 1x1, at most :data:`MAX_SIDE` per side and
    :data:`MAX_CELLS` in all. Readers turn the answer into a
    :class:`~minesweep_env.MapFormatError`, everyone else into a ``ValueError``.
    """
    if width < 1 or height < 1:
        return f"board must be at least 1x1, got {width}x{height}"
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_CELLS:
        return (
            f"board {width}x{height} is too large: width and height must be at most "
            f"{MAX_SIDE} and width*height at most {MAX_CELLS:,}"
        )
    return None


def check_board_dimensions(width: int, height: int) -> None:
    """Raise ``ValueError`` unless :func:`size_problem` accepts the size."""
    problem = size_problem(width, height)
    if problem is not None:
        raise ValueError(problem)


def check_board_size(width: int, height: int, mines: int, mine_free: int = 1) -> BoardSize:
    """``(width, height, mines)`` if a game can be played on it.

    :param mine_free: cells that must stay free of mines. At least one: a board
        of mines only leaves nothing to play. The env asks for more when its
        first-click rule keeps a whole zone free (e.g. 9 for a zero first click).
    :raises TypeError: for a size or count that is not an integer.
    :raises ValueError: saying which bound was broken and what was given.
    """
    width, height = as_count(width, "width"), as_count(height, "height")
    mines = as_count(mines, "mines")
    check_board_dimensions(width, height)
    free = min(max(1, mine_free), width * height)
    limit = width * height - free
    if not 0 <= mines <= limit:
        reason = f" ({free} cells kept free of mines)" if free > 1 else ""
        raise ValueError(
            f"mines must be in 0..{limit} on a {width}x{height} board{reason}, got {mines}"
        )
    return BoardSize(width, height, mines)


def parse_board_spec(spec: str) -> BoardSize:
    """A standard board name (``beginner``, ``intermediate``, ``expert``) or
    ``WIDTHxHEIGHTxMINES``, checked by :func:`check_board_size`.

    :raises TypeError: when ``spec`` is not a string.
    :raises ValueError: naming the accepted forms, or the bound a custom board breaks.
    """
    if not isinstance(spec, str):
        raise TypeError(f"board must be a name or 'WIDTHxHEIGHTxMINES', got {spec!r}")
    if spec in STANDARD_BOARDS:
        return BoardSize(*STANDARD_BOARDS[spec])
    match = CUSTOM_BOARD.match(spec.strip())
    if not match:
        known = ", ".join(STANDARD_BOARDS)
        raise ValueError(f"unknown board {spec!r}; known: {known}, or WIDTHxHEIGHTxMINES")
    width, height, mines = (int(group) for group in match.groups())
    return check_board_size(width, height, mines)
