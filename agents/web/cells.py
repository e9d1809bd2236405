"""A board as the page draws it: one state string per cell, and what changed."""

from __future__ import annotations

from typing import Any

import numpy as np

from minesweep_env.core.cells import FLAGGED

_CHARS = {"?": "covered", "!": "flag", "*": "mine"}


def states_of_rows(rows: list[str]) -> list[str]:
    """Flat cell states from a game's text rows (``?``, ``!``, digits, ``*`` after a loss):
    ``"covered"``, ``"flag"``, ``"0"``..``"8"``, ``"mine"``."""
    return [_CHARS.get(char, char) for row in rows for char in row]


def states_of_view(view: np.ndarray) -> list[str]:
    """Flat cell states of a player's view (int8 codes)."""
    return [
        str(v) if v >= 0 else ("flag" if v == FLAGGED else "covered")
        for v in view.reshape(-1).tolist()
    ]


def grid_of(states: list[str], width: int) -> list[list[str]]:
    """Flat states as H lists of W."""
    return [states[i : i + width] for i in range(0, len(states), width)]


def changes(before: list[str], after: list[str], width: int) -> list[dict[str, Any]]:
    """The cells whose state differs, as ``{"x", "y", "state"}`` in reading order."""
    return [
        {"x": i % width, "y": i // width, "state": new}
        for i, (old, new) in enumerate(zip(before, after, strict=True))
        if old != new
    ]
