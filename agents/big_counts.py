"""Floats and exact layout counts mixed without overflow.

The exact engine counts layouts as Python ints, and on large boards those pass the
largest float (C(3600, 720) alone has over 700 digits): ``0.025 * layouts`` then raises
``OverflowError``. ``int / int`` is safe (Python divides big ints exactly and rounds
once), so these helpers keep the float arithmetic the agents always did while the
counts fit a float (every decision there stays bit for bit the same) and switch to
exact fractions only beyond it.
"""

from __future__ import annotations

import sys
from fractions import Fraction

FLOAT_BITS = sys.float_info.max_exp - 2
"""Counts below ``2 ** FLOAT_BITS`` times a factor of at most 2 stay finite floats."""


def fits(count: int) -> bool:
    """Whether ``count`` times a factor of at most 2 is a finite float."""
    return abs(count).bit_length() < FLOAT_BITS


def times(factor: float, count: int) -> float | Fraction:
    """``factor * count``: the float product while it fits, else exactly (a Fraction
    compares exactly with ints and floats, so callers only compare it)."""
    return factor * count if fits(count) else Fraction(factor) * count


def scaled_ratio(factor: float, part: int, whole: int) -> float:
    """``factor * part / whole`` as a float, whatever the size of ``part`` and ``whole``
    (the float expression itself while both fit a float)."""
    if fits(part) and fits(whole):
        return factor * part / whole
    return factor * (part / whole)
