"""A position's exact count by groups of cells of equal mine weight.

The compiled count (:mod:`.float_weights`) finds the groups; this module holds
what it hands on without importing numba, so callers may test for it freely.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minesweep_env.solver.weights import Weights

KNOWN_SAFE_GROUP = -2
"""The group written on known-safe cells (weight 0 in every layout); -1 on the rest
of the cells that are not covered."""


@dataclass(frozen=True)
class GroupedCount:
    """A position's exact count as the compiled count finds it: cells in groups of
    equal mine weight. It reads as :class:`Weights` on demand (:meth:`weights`); a
    caller that only ranks or tests the weights can work on the few groups instead."""

    layouts: int
    values: list[int]
    """Per group (the frontier groups, then the cells off the frontier), the exact mine
    weight of each of its cells."""
    groups: np.ndarray
    """Per flat cell: its group, :data:`KNOWN_SAFE_GROUP` (weight 0), or -1 (not counted)."""
    component_sizes: tuple[int, ...]
    mines_left: int

    def weights(self) -> Weights:
        """The same count as the engine's :class:`Weights` (every counted cell's weight)."""
        groups = self.groups
        cells = np.flatnonzero(groups >= 0)
        mine_weight: dict[int, int | None] = dict.fromkeys(
            np.flatnonzero(groups == KNOWN_SAFE_GROUP).tolist(), 0
        )
        weights = map(self.values.__getitem__, groups[cells].tolist())
        mine_weight.update(zip(cells.tolist(), weights, strict=True))
        return Weights(self.layouts, mine_weight, self.component_sizes, self.mines_left)


__all__ = ["KNOWN_SAFE_GROUP", "GroupedCount"]
