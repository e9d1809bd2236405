"""Compiled (numba) encoding of the player's view for the envs: planes and mask in one pass.

After every step ``SemiAutoMines-v0`` hands out the one-hot observation planes
and the action mask of the new view. In numpy those are two broadcast
comparisons (``observations.encode_planes`` and ``view == COVERED``), about 4 us
on an expert board, more than a third of what the compiled auto-solver costs
on a typical step; one compiled pass over the view writes both in about a
quarter of that. The arrays are the same: :data:`PLANE_OF` names the plane of
each view code as ``observations.PLANE_CODES`` orders them (tested against it).
The vector env writes only the cells a step changed (:func:`show_changes`): a
whole batch's comparisons cost about 1 us a board-step on expert, more than the
changed cells' writes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..core.cells import COVERED, FLAGGED

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
    W) uint8, every entry written) and its covered cells into ``mask`` (bool, H * W).

    A compiled copy: :func:`~minesweep_env.envs.observations.encode_planes` is the
    reference, held equal by
    ``tests/minesweep_env/envs/test_env_compiled_paths.py::test_the_compiled_view_encoding_is_the_numpy_one``."""
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


@njit(cache=True)
def show_changes(views, planes, masks, state, playing, boards, opened, opened_ends, flagged,
                 flagged_ends):
    """The vector env's planes and masks brought up to date after a step, cell by changed cell.

    A step changes a few cells of each board it probes (the ones it opened and flagged,
    listed as ``BoardBatch.Changes`` lists them), so only those are written: their
    covered and flagged planes cleared, the plane of their new code set, their mask cleared; a board
    whose game ended (``state[b] != playing``) gets an all-True mask, as a finished game
    has. The planes and masks must be those of the views before the step.

    :param views: int8 (N, H * W), the views after the step; ``planes`` uint8 (N,
        :data:`PLANES`, H, W) and ``masks`` bool (N, H * W), changed in place.
    :param boards: int64 (K), the boards probed; board ``boards[k]``'s opened cells are
        ``opened[opened_ends[k - 1]:opened_ends[k]]`` (from 0 for k = 0), its flagged
        ones the same in ``flagged`` and ``flagged_ends``.
    """
    size = views.shape[1]
    planes = planes.reshape((planes.shape[0], PLANES, size))
    start_opened = start_flagged = 0
    for k in range(len(boards)):
        b = boards[k]
        view, board_planes, mask = views[b], planes[b], masks[b]
        for listed, start, end in ((opened, start_opened, opened_ends[k]),
                                   (flagged, start_flagged, flagged_ends[k])):
            for j in range(start, end):
                cell = listed[j]
                board_planes[0, cell] = 0
                board_planes[1, cell] = 0
                plane = PLANE_OF[view[cell] & 255]
                if plane >= 0:
                    board_planes[plane, cell] = 1
                mask[cell] = False
        start_opened, start_flagged = opened_ends[k], flagged_ends[k]
        if state[b] != playing:
            mask[:] = True


SIGNATURE = (
    types.Array(types.int8, 1, "C"),
    types.Array(types.uint8, 3, "C"),
    types.Array(types.boolean, 1, "C"),
)
"""The one signature the env calls :func:`encode_view_into` with."""


def _changes_signature() -> tuple:
    int64_1d = types.Array(types.int64, 1, "C")
    return (
        types.Array(types.int8, 2, "C"),
        types.Array(types.uint8, 4, "C"),
        types.Array(types.boolean, 2, "C"),
        types.Array(types.int8, 1, "C"),
        types.int64,
        int64_1d,
        int64_1d,
        int64_1d,
        int64_1d,
        int64_1d,
    )


CHANGES_SIGNATURE = _changes_signature()
"""The one signature the vector env calls :func:`show_changes` with."""


def compile_kernels() -> None:
    """Compile :func:`encode_view_into` and :func:`show_changes` for their signatures (the
    warm-up does)."""
    if SIGNATURE not in encode_view_into.overloads:
        encode_view_into.compile(SIGNATURE)
    if CHANGES_SIGNATURE not in show_changes.overloads:
        show_changes.compile(CHANGES_SIGNATURE)
