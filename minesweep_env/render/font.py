"""Our own pixel font for the cell numbers, and a seven-segment display for counters.

Bold 6x8 digits, two pixels per stroke like the classic game's numbers; the
painter scales them to the cell size. Drawn here, so rendering needs no font
file and no dependency beyond numpy.
"""

from __future__ import annotations

import numpy as np

_DIGITS = {
    0: (".####.", "##..##", "##.###", "######", "###.##", "##..##", "##..##", ".####."),
    1: ("..##..", ".###..", "####..", "..##..", "..##..", "..##..", "..##..", "######"),
    2: (".####.", "##..##", "....##", "...##.", "..##..", ".##...", "##....", "######"),
    3: (".####.", "##..##", "....##", "..###.", "....##", "....##", "##..##", ".####."),
    4: ("...##.", "..###.", ".####.", "##.##.", "######", "...##.", "...##.", "...##."),
    5: ("######", "##....", "##....", "#####.", "....##", "....##", "##..##", ".####."),
    6: (".####.", "##..##", "##....", "#####.", "##..##", "##..##", "##..##", ".####."),
    7: ("######", "....##", "....##", "...##.", "..##..", "..##..", ".##...", ".##..."),
    8: (".####.", "##..##", "##..##", ".####.", "##..##", "##..##", "##..##", ".####."),
    9: (".####.", "##..##", "##..##", "##..##", ".#####", "....##", "##..##", ".####."),
}

GLYPH_WIDTH, GLYPH_HEIGHT = 6, 8


def digit_glyph(digit: int, scale: int = 1) -> np.ndarray:
    """Boolean (8*scale, 6*scale) mask of ``digit``, ``True`` on ink."""
    rows = _DIGITS[digit]
    mask = np.array([[c == "#" for c in row] for row in rows], dtype=bool)
    return np.kron(mask, np.ones((scale, scale), dtype=bool))


# Segments a..g: a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle.
_SEGMENTS_OF = {
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}


def seven_segment(char: str, width: int, height: int, stroke: int) -> tuple[np.ndarray, np.ndarray]:
    """Masks (lit, all segments) of one seven-segment character, shaped (height, width).

    The classic counter shows unlit segments dimly, so both masks are returned.
    """
    rows, cols = np.mgrid[0:height, 0:width]
    mid = height // 2
    half = stroke // 2
    # One pixel of gap where segments meet keeps the digits legible when small.
    across = (cols > stroke) & (cols < width - stroke - 1)
    upper = (rows > stroke) & (rows < mid - half - 1)
    lower = (rows > mid - half + stroke) & (rows < height - stroke - 1)
    left, right = cols < stroke, cols >= width - stroke
    segments = {
        "a": (rows < stroke) & across,
        "g": (rows >= mid - half) & (rows < mid - half + stroke) & across,
        "d": (rows >= height - stroke) & across,
        "f": left & upper,
        "e": left & lower,
        "b": right & upper,
        "c": right & lower,
    }
    every = np.zeros((height, width), dtype=bool)
    for mask in segments.values():
        every |= mask
    lit = np.zeros((height, width), dtype=bool)
    for name in _SEGMENTS_OF[char]:
        lit |= segments[name]
    return lit, every
