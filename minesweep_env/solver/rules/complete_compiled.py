"""``complete``'s compiled paths, one call each: the proof of a position, the auto-solver's
play-out of a game, and the same on the boards of a batch.

:func:`complete_proof` answers ``complete``'s question (which cells are safe or
mines in every layout) exactly, from the float count (see
:mod:`.complete_proof_compiled`); :func:`complete_play_out` plays the auto-solver's
rounds (see :mod:`.complete_play_compiled`). Each hands back ``None`` or an
unfinished flag where the Python path of :mod:`.complete` must answer instead.

Importing this module imports numba; :mod:`minesweep_env.compiled` decides when
that is worth it.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ... import compiled
from ...compiled.loading import load_on_first_call
from ...core.board import Board
from .complete_play_compiled import open_many, play_out_into, play_out_many
from .complete_proof_compiled import DEFER, FULL, MINE, SAFE, complete_proof_into

PROOF_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.boolean,
    types.int64,
    types.Array(types.int8, 1, "C"),
    types.Array(types.float64, 1, "C"),
)
"""The one signature :func:`complete_proof` calls its kernel with."""

PLAY_OUT_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.Array(types.int8, 1, "C"),
    types.Array(types.int8, 1, "C"),
    types.boolean,
    types.int64,
    types.boolean,
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.float64, 1, "C"),
)
"""The one signature :func:`complete_play_out` calls its kernel with."""

_VIEWS = types.Array(types.int8, 2, "C")
_INDICES = types.Array(types.int64, 1, "C")

PLAY_OUT_MANY_SIGNATURE = (
    _VIEWS,
    _VIEWS,
    _VIEWS,
    _INDICES,
    _INDICES,
    types.boolean,
    _INDICES,
    types.int64,
    types.int64,
    types.Array(types.float64, 2, "C"),
    types.Array(types.int8, 1, "C"),
    types.Array(types.boolean, 1, "C"),
)
"""The one signature :func:`play_out_many` is called with (by the vector env's batch)."""

OPEN_MANY_SIGNATURE = (_VIEWS, _VIEWS, _INDICES, _INDICES, types.int64, types.int64, _INDICES)
"""The one signature :func:`open_many` is called with (by the vector env's batch)."""

KERNELS = (
    (complete_proof_into, PROOF_SIGNATURE),
    (play_out_into, PLAY_OUT_SIGNATURE),
    (play_out_many, PLAY_OUT_MANY_SIGNATURE),
    (open_many, OPEN_MANY_SIGNATURE),
)
"""What the warm-up compiles for this module."""

CHECK = "minesweep_env.solver.rules.complete:check_compiled"
"""The warm-up's check of the compiled proof against the Python one."""


def complete_proof(board: Board) -> tuple[set[int], set[int], np.ndarray | None] | None:
    """What rule set ``complete`` proves on ``board``, or ``None`` to ask the exact path.

    :returns: (safe, mines, probabilities): flat indices, and when the proof is
        the full count's, the mine probability of every cell as float64 (H, W),
        as :func:`~..probability.engine_compiled.fast_mine_probabilities` gives it
        (else ``None``).
    """
    total = board.total_mines
    grid = np.require(board.grid, np.int8, ["C", "W"])
    codes = np.empty(grid.size, np.int8)
    probabilities = np.empty(grid.size)
    status = complete_proof_into(
        grid, total is not None, 0 if total is None else int(total), codes, probabilities
    )
    if status == DEFER:
        return None
    safe = set(np.flatnonzero(codes & SAFE).tolist())
    mines = set(np.flatnonzero(codes & MINE).tolist())
    return safe, mines, probabilities.reshape(grid.shape) if status == FULL else None


def complete_play_out(
    view: np.ndarray,
    mines: np.ndarray,
    numbers: np.ndarray,
    total: int,
    nothing_covered: bool,
    safe_left: int,
) -> tuple[list[int], list[int], int, bool, np.ndarray | None]:
    """The auto-solver with ``complete`` played on a game's ``view`` in place, in one call.

    :param view: the game's int8 (H, W) view (C-contiguous), changed in place.
    :param mines: bool (H, W), the layout; ``numbers`` its mine counts.
    :param nothing_covered: whether the game is won only when nothing is left covered.
    :param safe_left: safe cells not yet open.
    :returns: (opened, flagged, safe cells left, finished, probabilities): flat
        indices in the order played; ``finished`` False when the Python path must
        play on from the view as it is now; the final view's mine probabilities
        (H, W) when a full count settled it, else ``None``.
    """
    size = view.size
    opened = np.empty(size, np.int64)
    flagged = np.empty(size, np.int64)
    probabilities = np.empty(size)
    status, opened_count, flagged_count, left, won = play_out_into(
        view,
        mines.astype(np.int8).reshape(-1),
        numbers.astype(np.int8).reshape(-1),
        True,
        int(total),
        bool(nothing_covered),
        int(safe_left),
        opened,
        flagged,
        probabilities,
    )
    settled = probabilities.reshape(view.shape) if status == FULL and not won else None
    return (
        opened[:opened_count].tolist(),
        flagged[:flagged_count].tolist(),
        int(left),
        bool(won) or status != DEFER,
        settled,
    )


if compiled.loaded():  # imported by its owners once the cache is ready: load on first call
    load_on_first_call(globals(), KERNELS)


__all__ = ["complete_play_out", "complete_proof", "open_many", "play_out_many"]
