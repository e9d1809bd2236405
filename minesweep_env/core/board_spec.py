"""Board specs: a standard board name or ``WIDTHxHEIGHTxMINES``, checked in one place.

The env, the evaluation harness and the training script all take a board as
text (``beginner``, ``8x8x10``) or as numbers. They read it here, so every
caller accepts the same specs, within the same bounds, and rejects a bad one
with the same message.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .cells import STANDARD_BOARDS

CUSTOM_BOARD = re.compile(r"^(\d+)x(\d+)x(\d+)$", re.IGNORECASE)
"""``WIDTHxHEIGHTxMINES``, e.g. ``8x8x10``."""


class BoardSize(NamedTuple):
    """The size and mine count of a board."""

    width: int
    height: int
    mines: int


def check_board_size(width: int, height: int, mines: int, mine_free: int = 1) -> BoardSize:
    """``(width, height, mines)`` if a game can be played on it.

    :param mine_free: cells that must stay free of mines. At least one: a board
        of mines only leaves nothing to play. The env asks for more when its
        first-click rule keeps a whole zone free (e.g. 9 for a zero first click).
    :raises ValueError: saying which bound was broken and what was given.
    """
    if width < 1 or height < 1:
        raise ValueError(f"board must be at least 1x1, got {width}x{height}")
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

    :raises ValueError: naming the accepted forms, or the bound a custom board breaks.
    """
    if spec in STANDARD_BOARDS:
        return BoardSize(*STANDARD_BOARDS[spec])
    match = CUSTOM_BOARD.match(spec.strip())
    if not match:
        known = ", ".join(STANDARD_BOARDS)
        raise ValueError(f"unknown board {spec!r}; known: {known}, or WIDTHxHEIGHTxMINES")
    width, height, mines = (int(group) for group in match.groups())
    return check_board_size(width, height, mines)
