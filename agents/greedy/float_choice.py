"""The greedy agent's decision in one compiled call, where floats decide
(kernel in :mod:`.choice_compiled`).

Importing this module imports numba; :mod:`minesweep_env.compiled` decides when
that is worth it. It also hands on the float counts of :mod:`..float_weights`, so
the agent's fallbacks find every compiled path in one place.
"""

from __future__ import annotations

import numpy as np
from numba import types

from minesweep_env import compiled
from minesweep_env.compiled.loading import load_on_first_call
from minesweep_env.core.board import Board

from ..float_weights import (
    _residue_tables,
    exact_weights,
    group_probabilities,
    trial_weights,
    weight_classes,
)
from .choice_compiled import CHOSEN, EXACT, NO_FLOATS, SHORTLIST, greedy_choice_into

CHOICE_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.Array(types.boolean, 1, "C"),
    types.int64,
    types.boolean,
    types.Array(types.float64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 1, "C"),
)
"""The one signature :func:`greedy_choice` calls its kernel with."""

KERNELS = ((greedy_choice_into, CHOICE_SIGNATURE),)
"""What the warm-up compiles for this module."""

CHECK = "semiautomines_agents.greedy.agent:check_compiled"
"""The warm-up's check of the one-call choice against the exact weights."""

_CHOICE_STATUS = {CHOSEN: "chosen", SHORTLIST: "progress", EXACT: "exact", NO_FLOATS: "none"}


def greedy_choice(
    board: Board, valid: np.ndarray, keep: int, lookahead: bool, margins: np.ndarray
) -> tuple[str, list[int]]:
    """The greedy agent's decision on ``board`` in one compiled call, or the fallback that
    must make it (see :mod:`.choice_compiled`).

    :param valid: bool per flat cell, the probes allowed.
    :param keep: how many tied cells to rank; ``lookahead``: choose among them by the
        chance of progress.
    :param margins: float64, the agent's (clear gap, clear floor, rank gap, estimate margin).
    :returns: (status, ranked): ``"chosen"`` (the cell is ``ranked[0]``), ``"progress"``
        (the exact chances of progress choose among ``ranked``), ``"exact"`` (the exact
        weights rank) or ``"none"`` (the float path does not answer).
    """
    total = board.total_mines
    if total is None:
        return "none", []
    grid = np.require(board.grid, np.int8, ["C", "W"])
    primes, factorials, inverses = _residue_tables(grid.size)
    ranked = np.empty(keep, np.int64)
    status, count = greedy_choice_into(
        grid,
        int(total),
        np.require(valid, np.bool_, ["C", "W"]),
        keep,
        lookahead,
        margins,
        primes,
        factorials,
        inverses,
        ranked,
    )
    return _CHOICE_STATUS[status], ranked[:count].tolist()



if compiled.loaded():  # imported by the agent once the cache is ready: load on first call
    load_on_first_call(globals(), KERNELS)


__all__ = [
    "exact_weights",
    "greedy_choice",
    "group_probabilities",
    "trial_weights",
    "weight_classes",
]
