"""What one step of the batch changed: the cells each probed board opened and flagged.

The step's one result that every consumer reads: the rewards (cells opened),
the vector env's ``info["opened"]`` / ``info["flagged"]`` and the observation
planes rewritten cell by cell.
"""

from __future__ import annotations

import numpy as np

from ..core.cells import FLAGGED


class Changes:
    """The cells a step opened and flagged on each of its K boards, in row-major order.

    Board k's (the k-th board probed) opened cells are
    ``opened[opened_ends[k - 1]:opened_ends[k]]`` (from 0 for k = 0), flat indices;
    ``flagged`` and ``flagged_ends`` the same for its new flags.
    """

    def __init__(
        self,
        opened: np.ndarray,
        opened_ends: np.ndarray,
        flagged: np.ndarray,
        flagged_ends: np.ndarray,
    ) -> None:
        self.opened, self.opened_ends = opened, opened_ends
        self.flagged, self.flagged_ends = flagged, flagged_ends

    @classmethod
    def between(cls, before: np.ndarray, after: np.ndarray) -> Changes:
        """The changes from views ``before`` to ``after`` (K, W*H), found by comparing."""
        size = before.shape[1]
        row_ends = np.arange(1, len(before) + 1, dtype=np.int64) * size
        lists = []
        for changed in ((after >= 0) & (before < 0), (after == FLAGGED) & (before != FLAGGED)):
            flat = np.flatnonzero(changed)
            lists += [flat % size, np.searchsorted(flat, row_ends)]
        return cls(*lists)

    @staticmethod
    def rows(ends: np.ndarray) -> np.ndarray:
        """The row k of every listed cell, from its list's ``ends``."""
        return np.repeat(np.arange(len(ends)), np.diff(ends, prepend=0))

    def opened_counts(self) -> np.ndarray:
        """``int64`` (K): the cells each board opened."""
        return np.diff(self.opened_ends, prepend=0)
