"""The greedy agent's ranking of tied cells from the compiled floats, when they decide it.

The greedy agent ranks on exact counts: the tied cells are those of exactly the
lowest mine weight, ordered by their chance of a zero rounded to 12 decimals,
then by fewest neighbours, then by index (see :mod:`.greedy`). An exact count of
an expert position is a good part of a millisecond; the compiled float path
gives every probability within 1e-12 of the exact one, and the *group* of every
cell (cells touching the same numbers, or none: one exact weight by symmetry).
That settles most positions exactly:

- the tied cells are one group's when the lowest float probability is clear of
  every other group's (by the margin :func:`~.greedy.clear_lowest` uses);
- the chance of a zero is a product of neighbours' ``1 - p`` in a fixed order,
  so two cells whose covered and flagged neighbours come from the same groups
  in the same order have the same chance to the last bit, whatever the floats
  (and two cells next to a flag both have 0.0, a flag's factor being 0);
  cells whose chances differ by more than :data:`RANK_GAP` keep their order
  once rounded. When neither holds for a cell the ranking needs, the exact
  engine ranks (:func:`float_ranking` answers ``None``).

Where groups' probabilities come within their error of each other the floats
cannot tell a tie; the compiled path can say which groups have exactly equal
weights (:func:`~.float_weights.weight_classes`), and
:func:`merge_equal_groups` makes each such class one group, so the same rules
decide (they nearly always do: such near-ties are exact ties of symmetric positions).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minesweep_env.core.cells import COVERED, FLAGGED

RANK_GAP = 1e-10
"""Chances of a zero closer than this are ranked by the exact engine (unless they are
the same product): rounded to 12 decimals they may tie or not. Each is a product of
up to eight factors within about 1e-12 of the exact ones, so a hundred times that
bound stands between two chances this far apart and a different order."""

CLEAR_GAP = 1e-9
"""Relative gap (plus :data:`CLEAR_FLOOR` absolute) by which the lowest float
probability must beat every other (every other group's, for :func:`tied_cells`) to
be trusted: a thousand times the float path's error bound."""
CLEAR_FLOOR = 1e-11

_SKIP = -1
_FLAG = -3
_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""Neighbours in :func:`~minesweep_env.core.cells.neighbour_sum`'s order (row-major)."""
_DY = np.array([dy for dy, _ in _OFFSETS])
_DX = np.array([dx for _, dx in _OFFSETS])


@dataclass(frozen=True)
class Ranking:
    """The tied cells of lowest mine probability, best first."""

    ranked: list[int]
    """The first ``keep`` cells (or all, when fewer) in the exact engine's order."""
    certain_safe: bool
    """The lowest probability is 0: the cells are safe in every layout."""


def tied_cells(
    probabilities: np.ndarray, groups: np.ndarray, valid: np.ndarray
) -> np.ndarray | None:
    """The valid cells of exactly the lowest mine weight, ascending, when one group holds
    them (see the module); else ``None``."""
    open_cells = np.flatnonzero(valid & ~np.isnan(probabilities))
    if not open_cells.size:
        return None
    values = probabilities[open_cells]
    lowest = values.min()
    near = open_cells[values <= lowest + CLEAR_GAP * lowest + CLEAR_FLOOR]
    group = groups[near]
    if group[0] == -1 or (group != group[0]).any():
        return None
    return near


def _factor_groups(view: np.ndarray, groups: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Per cell, its neighbours' groups in product order with the factors of 1 (opened,
    known safe, off the board) moved to the end: equal rows, equal products."""
    height, width = view.shape
    codes = np.where(view == COVERED, groups.reshape(height, width), _SKIP)
    codes[view == FLAGGED] = _FLAG
    padded = np.full((height + 2, width + 2), _SKIP, np.int64)
    padded[1:-1, 1:-1] = codes
    ys, xs = np.divmod(cells, width)
    rows = padded[(ys + 1)[:, None] + _DY, (xs + 1)[:, None] + _DX]
    order = np.argsort(rows == _SKIP, axis=1, kind="stable")
    return np.take_along_axis(rows, order, axis=1)


def float_ranking(
    view: np.ndarray,
    valid: np.ndarray,
    probabilities: np.ndarray,
    groups: np.ndarray,
    zero: np.ndarray,
    neighbours: np.ndarray,
    keep: int,
) -> Ranking | None:
    """The greedy ranking's first ``keep`` tied cells, as the exact engine would rank them,
    or ``None`` when the floats do not decide it.

    :param valid: bool per flat cell, the probes allowed.
    :param probabilities: float flat, the compiled path's (NaN where none).
    :param groups: int flat, the compiled path's groups.
    :param zero: float flat, :func:`~.greedy.zero_chance` of those probabilities.
    :param neighbours: int flat, :func:`~.greedy.neighbour_counts`.
    """
    tied = tied_cells(probabilities, groups, valid)
    if tied is None:
        return None
    certain_safe = bool(probabilities[tied[0]] == 0.0)
    if tied.size == 1:
        return Ranking([int(tied[0])], certain_safe)
    chance = zero[tied]
    ranked = tied[np.lexsort((tied, neighbours[tied], -np.round(chance, 12)))]
    if not _decided(view, groups, tied, chance, ranked[:keep]):
        return None
    return Ranking(ranked[:keep].tolist(), certain_safe)


def _decided(
    view: np.ndarray, groups: np.ndarray, tied: np.ndarray, chance: np.ndarray, head: np.ndarray
) -> bool:
    """Whether every tied cell whose chance of a zero is within :data:`RANK_GAP` of a cell
    of ``head`` (the first ranked) has the very same product as that cell (the same
    factors in the same order, or a flag's 0 in both)."""
    where = np.searchsorted(tied, head)
    # close[i, j]: tied cell j is within RANK_GAP of head cell i (each head of itself).
    close = np.abs(chance[where][:, None] - chance[None, :]) <= RANK_GAP
    if np.count_nonzero(close) == where.size:
        return True  # each head cell is close to itself alone
    needed = np.flatnonzero(close.any(axis=0))
    # Rows only for the cells that must match one.
    rows = _factor_groups(view, groups, tied[needed])
    own = rows[np.searchsorted(needed, where)]
    differ = (rows[None, :, :] != own[:, None, :]).any(axis=2)
    # A flag's factor is 0.0 in every route: two cells next to flags both have chance 0.0.
    flagged = (rows == _FLAG).any(axis=1)
    differ &= ~(flagged[None, :] & (own == _FLAG).any(axis=1)[:, None])
    return not (close[:, needed] & differ).any()


def merge_equal_groups(
    probabilities: np.ndarray, groups: np.ndarray, classes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Groups of exactly equal mine weight made one: each cell takes its class as its group
    and one float for the whole class (any member's: each is within the float path's
    error of the class's exact probability), so equal weights compare equal as the exact
    engine's correctly rounded probabilities do.

    :param probabilities: float flat, the compiled path's.
    :param groups: int flat, the compiled path's groups (negative: no group).
    :param classes: per group, the smallest group of the same exact weight.
    :returns: new (probabilities, groups), flat.
    """
    member = groups >= 0
    merged = groups.copy()
    merged[member] = classes[groups[member]]
    value = np.empty(len(classes))
    value[merged[member]] = probabilities[member]
    unified = probabilities.copy()
    unified[member] = value[merged[member]]
    return unified, merged
