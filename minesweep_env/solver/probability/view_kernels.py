"""Compiled (numba) encoding of the player's view for the env: planes and mask in one pass.

After every step ``SemiAutoMines-v0`` hands out the one-hot observation planes
and the action mask of the new view. In numpy those are two broadcast
comparisons (``observations.encode_planes`` and ``view == COVERED``), about 4 us
on an expert board, more than a third of what the compiled auto-solver costs
on a typical step; one compiled pass over the view writes both in about a
quarter of that. The arrays are the same: :data:`PLANE_OF` names the plane of
each view code as ``observations.PLANE_CODES`` orders them (tested against it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...core.cells import COVERED, FLAGGED

PLANES = 11
"""One-hot planes: covered, flagged, then the numbers 0..8."""


def _plane_of() -> np.ndarray:
    """Per view code (as an unsigned byte, ``code & 255``) its plane, or -1 for a code
    no plane shows (the planes of such a cell are all 0, as the comparisons give)."""
    table = np.full(256, -1, np.int64)
    table[COVERED & 255] = 0
    table[FLAGGED & 255] = 1
    for number in range(9):
        table[number] = 2 + number
    return table


PLANE_OF = _plane_of()
""":func:`_plane_of`."""


@njit(cache=True)
def encode_view_into(flat, planes, mask):
    """The one-hot planes of the flat view ``flat`` into ``planes`` ((:data:`PLANES`, H,
    W) uint8, every entry written) and its covered cells into ``mask`` (bool, H * W)."""
    n = len(flat)
    planes = planes.reshape(PLANES, n)
    for p in range(PLANES):
        planes[p, :] = 0
    for i in range(n):
        code = flat[i]
        plane = PLANE_OF[code & 255]
        if plane >= 0:
            planes[plane, i] = 1
        mask[i] = code == COVERED


SIGNATURE = (
    types.Array(types.int8, 1, "C"),
    types.Array(types.uint8, 3, "C"),
    types.Array(types.boolean, 1, "C"),
)
"""The one signature the env calls :func:`encode_view_into` with."""


def compile_kernels() -> None:
    """Compile :func:`encode_view_into` for :data:`SIGNATURE` (the warm-up does)."""
    if SIGNATURE not in encode_view_into.overloads:
        encode_view_into.compile(SIGNATURE)
