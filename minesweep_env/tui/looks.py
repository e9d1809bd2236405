"""What each cell looks like: a character and a colour, chosen for the whole field at once.

The IOCCC program's palette is kept: covered cells are black dots on white,
probed cells coloured digits on black (a dot for 0), flags red ``!`` on
white, mines white ``*`` on red. Added: hand flags in blue (so you see which
flags are yours), the exploded mine and wrong flags after a loss, the cursor,
the hint, and the probability overlay's shades from green (safe) to red.
Shades: exactly 0, up to 10%, 25%, 50%, 75%, below 1, exactly 1.

A cell's look is a small integer, computed for the whole field with numpy, so
the painter redraws only the cells whose look changed.
"""

from __future__ import annotations

import numpy as np

from ..core.cells import COVERED, FLAGGED
from ..core.minefield import GameState

# Looks 0..8 are the probed numbers themselves.
COVERED_LOOK = 9
FLAG_LOOK = 10
HAND_FLAG_LOOK = 11
MINE_LOOK = 12
EXPLODED_LOOK = 13
WRONG_FLAG_LOOK = 14
SHADE_LOOK = 16
"""First of the overlay looks: ``SHADE_LOOK + shade`` for shades 0..6."""
CURSOR = 32
"""Added to a look under the cursor."""
HINT = 64
"""Added to the look of the hinted cell."""

SHADE_LIMITS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0 - 1e-12)
"""Upper bounds of shades 0..5; shade 6 is a certain mine. Shade 0 is a certain safe cell."""

GLYPHS = (
    {n: ".12345678"[n] for n in range(9)}
    | {
        COVERED_LOOK: ".",
        FLAG_LOOK: "!",
        HAND_FLAG_LOOK: "!",
        MINE_LOOK: "*",
        EXPLODED_LOOK: "*",
        WRONG_FLAG_LOOK: "x",
    }
    | {SHADE_LOOK + shade: "." for shade in range(1, 6)}
    | {SHADE_LOOK: "o", SHADE_LOOK + 6: "x"}
)
"""Overlay cells keep the covered dot, except certain ones: ``o`` safe, ``x`` mine (as in
the x/o layout format), so certainty shows even with eight colours."""


def shade_of(probabilities: np.ndarray) -> np.ndarray:
    """Shade 0..6 of every probability (NaN gives 0; only covered cells use it)."""
    values = np.nan_to_num(probabilities, nan=0.0)
    return np.searchsorted(np.asarray(SHADE_LIMITS), values, side="left").astype(np.int16)


def field_looks(
    shown: np.ndarray,
    *,
    state: GameState,
    mines: np.ndarray,
    exploded: tuple[int, int] | None,
    hand_flags: set[int],
    probabilities: np.ndarray | None,
    cursor: tuple[int, int] | None,
    hint: tuple[int, int] | None,
) -> np.ndarray:
    """The look of every cell, shaped like the field.

    :param shown: the view as displayed (lags the game during an animation).
    :param mines: the mines, used only once the game is over.
    :param probabilities: mine probabilities for the overlay, or ``None`` when off.
    """
    looks = shown.astype(np.int16)
    covered = shown == COVERED
    flagged = shown == FLAGGED
    looks[covered] = COVERED_LOOK
    looks[flagged] = FLAG_LOOK
    if hand_flags:
        hand = np.zeros(shown.size, dtype=bool)
        hand[list(hand_flags)] = True
        looks[flagged & hand.reshape(shown.shape)] = HAND_FLAG_LOOK
    if probabilities is not None and state is GameState.PLAYING:
        looks[covered] = SHADE_LOOK + shade_of(probabilities)[covered]
    if state is GameState.LOST:
        looks[covered & mines] = MINE_LOOK
        looks[flagged & ~mines] = WRONG_FLAG_LOOK
        if exploded is not None:
            looks[exploded[1], exploded[0]] = EXPLODED_LOOK
    elif state is GameState.WON:
        looks[covered & mines] = FLAG_LOOK
    if hint is not None:
        looks[hint[1], hint[0]] += HINT
    if cursor is not None:
        looks[cursor[1], cursor[0]] += CURSOR
    return looks
