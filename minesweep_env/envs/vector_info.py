"""The vector env's ``info``: the single env's keys batched as a sync vector env batches them.

Each key holds one value per board beside its ``"_key"`` mask of the boards
that report it. Kept apart from the env so the packing (what a caller reads)
is one small module, and the step (how the boards are played) another.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.cells import cell_coordinates
from ..core.minefield import GameState
from .batch_changes import Changes
from .board_batch import LOST, PLAYING, WON

STATE_NAMES = np.empty(3, dtype=object)
"""``info["state"]`` by the codes of :mod:`minesweep_env.envs.board_batch`."""
STATE_NAMES[[PLAYING, WON, LOST]] = [state.value for state in GameState]


def coordinate_table(width: int, height: int) -> np.ndarray:
    """Every cell's (x, y) tuple as an object, by flat index: ``info["opened"]`` and
    ``info["flagged"]`` gather their pairs from it instead of making tuples per step."""
    table = np.empty(width * height, dtype=object)
    for cell, pair in enumerate(cell_coordinates(width, height)):
        table[cell] = pair  # one by one: a slice would unpack the pairs
    return table


def changed_cells(
    coordinates: np.ndarray,
    num_envs: int,
    invalid: np.ndarray,
    probed: np.ndarray,
    changes: Changes,
) -> tuple[np.ndarray, np.ndarray]:
    """``info["opened"]`` and ``info["flagged"]``: (x, y) lists per board, for board
    ``probed[k]`` the cells ``changes`` lists for it, [] for the boards whose action
    was ``invalid`` (``bool`` (N)), None for the boards not stepped.

    The (x, y) tuples are gathered from ``coordinates`` (:func:`coordinate_table`),
    then cut into one list slice per board, both keys in one loop.
    """
    opened: list[list[tuple[int, int]] | None] = [None] * num_envs
    flagged: list[list[tuple[int, int]] | None] = [None] * num_envs
    for board in np.flatnonzero(invalid).tolist():
        opened[board] = []
        flagged[board] = []
    opened_pairs = coordinates[changes.opened].tolist()
    flagged_pairs = coordinates[changes.flagged].tolist()
    start_opened = start_flagged = 0
    for board, end_opened, end_flagged in zip(
        probed.tolist(),
        changes.opened_ends.tolist(),
        changes.flagged_ends.tolist(),
        strict=True,
    ):
        opened[board] = opened_pairs[start_opened:end_opened]
        flagged[board] = flagged_pairs[start_flagged:end_flagged]
        start_opened, start_flagged = end_opened, end_flagged
    return np.fromiter(opened, dtype=object, count=num_envs), np.fromiter(
        flagged, dtype=object, count=num_envs
    )


def pack_infos(columns: dict[str, np.ndarray], present: np.ndarray) -> dict[str, Any]:
    """Gymnasium's vector info: every key beside its ``"_key"`` mask of reporting boards."""
    infos: dict[str, Any] = {}
    for key, values in columns.items():
        infos[key] = values
        infos[f"_{key}"] = present.copy()
    return infos
