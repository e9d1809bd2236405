"""The compiled float counts of a position, one call each: probabilities with groups of
interchangeable cells, the groups of exactly equal weight, the exact weights
rebuilt from residues, and a guess's numbers weighed (its chance of progress).

The greedy agent's float shortcuts and :mod:`.progress` build on them; each
answers ``None`` (or NaN) where the exact engine must count instead (see
:mod:`.weights_compiled`). Importing this module imports numba;
:mod:`minesweep_env.compiled` decides when that is worth it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numba import types

from minesweep_env import compiled
from minesweep_env.compiled.loading import load_on_first_call
from minesweep_env.core.board import Board
from minesweep_env.core.cells import FLAGGED
from minesweep_env.solver.probability.counting_constants import OK
from minesweep_env.solver.weights import Weights

from .grouped_count import GroupedCount
from .weights_compiled import (
    PRIME_BITS,
    group_probabilities_into,
    trial_weights_into,
    weight_classes_into,
    weight_residues_into,
)

TRIAL_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.float64, 1, "C"),
    types.Array(types.int8, 1, "C"),
    types.boolean,
)
"""The one signature :func:`trial_weights` calls its kernel with."""

GROUP_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.Array(types.float64, 2, "C"),
    types.Array(types.int64, 1, "C"),
)
"""The one signature :func:`group_probabilities` calls its kernel with."""

CLASSES_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 1, "C"),
)
"""The one signature :func:`weight_classes` calls its kernel with."""

RESIDUES_SIGNATURE = (
    types.Array(types.int8, 2, "C"),
    types.int64,
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
)
"""The one signature :func:`exact_weights` calls its kernel with."""

KERNELS = (
    (trial_weights_into, TRIAL_SIGNATURE),
    (group_probabilities_into, GROUP_SIGNATURE),
    (weight_classes_into, CLASSES_SIGNATURE),
    (weight_residues_into, RESIDUES_SIGNATURE),
)
"""What the warm-up compiles for this module."""


def group_probabilities(board: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """Mine probabilities of ``board`` as the engine's compiled path gives them
    (:func:`~minesweep_env.solver.probability.engine_compiled.fast_mine_probabilities`),
    and the group of every cell (see :mod:`.weights_compiled`), or ``None`` to ask the
    exact engine.

    :returns: (probabilities, groups): float64 (H, W) and int64 flat (H * W).
    """
    total = board.total_mines
    grid = np.require(board.grid, np.int8, ["C", "W"])
    out = np.empty(grid.shape)
    groups = np.empty(grid.size, np.int64)
    status = group_probabilities_into(grid, -1 if total is None else int(total), out, groups)
    return (out, groups) if status == OK else None


def trial_weights(
    board: Board, cell: int, numbers: np.ndarray, isolated: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Each number of ``numbers`` shown on ``cell``: the natural log of the layouts that
    fit, and whether another covered cell is then safe in all of them (see
    :mod:`.weights_compiled`).

    :param numbers: int64, the numbers to try.
    :param isolated: ``cell`` is far from every number (no neighbour open or touching
        one): the other components are counted once. Checked; the answer is the same.
    :returns: (logs, progress): float64 per number, ``-inf`` where no layout fits and
        NaN where the exact engine must count instead; bool per number.
    """
    total = board.total_mines
    grid = np.array(board.grid, np.int8, order="C")  # a copy: the kernel writes on it
    logs = np.empty(len(numbers))
    progress = np.empty(len(numbers), np.int8)
    trial_weights_into(
        grid, -1 if total is None else int(total), cell, numbers, logs, progress, isolated
    )
    return logs, progress.astype(bool)


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the bases 2, 3, 5, 7: exact for every n below 3.2e9."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for base in (2, 3, 5, 7):
        x = pow(base, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=1)
def _primes() -> list[int]:
    """Primes just below 2**29, enough for the weights of a 4096-cell board (at most
    2**4096, and each prime is above 2**28)."""
    found: list[int] = []
    n = (1 << (PRIME_BITS + 1)) - 1
    while len(found) < 4096 // PRIME_BITS + 2:
        if _is_prime(n):
            found.append(n)
        n -= 2
    return found


@lru_cache(maxsize=8)
def _residue_tables(cells: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The primes a board of ``cells`` cells needs (its weights are below 2**cells), and
    0!..cells! modulo each with their inverses: (primes, factorials, inverses)."""
    primes = np.array(_primes()[: cells // PRIME_BITS + 2], np.int64)
    factorials = np.ones((len(primes), cells + 1), np.int64)
    for k in range(1, cells + 1):
        factorials[:, k] = factorials[:, k - 1] * k % primes
    inverses = np.empty_like(factorials)
    last = zip(factorials[:, cells].tolist(), primes.tolist(), strict=True)
    inverses[:, cells] = [pow(f, -1, p) for f, p in last]
    for k in range(cells, 0, -1):
        inverses[:, k - 1] = inverses[:, k] * k % primes
    return primes, factorials, inverses


def weight_classes(board: Board) -> np.ndarray | None:
    """Which groups of :func:`group_probabilities` have exactly the same mine weight per
    cell: entry ``g`` is the smallest group equal to group ``g`` (the off-frontier cells'
    group last), or ``None`` to ask the exact engine (see :mod:`.weights_compiled`)."""
    total = board.total_mines
    grid = np.require(board.grid, np.int8, ["C", "W"])
    classes = np.empty(grid.size + 1, np.int64)
    primes, factorials, inverses = _residue_tables(grid.size)
    count = weight_classes_into(
        grid, -1 if total is None else int(total), primes, factorials, inverses, classes
    )
    return classes[:count] if count > 0 else None


@lru_cache(maxsize=64)
def _remainder_basis(primes: tuple[int, ...]) -> tuple[int, np.ndarray]:
    """The product of ``primes`` and, per prime, the multiple of the others that is 1
    modulo it: a residue vector dotted with these, modulo the product, is its integer."""
    product = math.prod(primes)
    basis = [product // p * pow(product // p, -1, p) for p in primes]
    return product, np.array(basis, dtype=object)


@dataclass(frozen=True)
class _Residues:
    """The compiled count of a board, modulo a few primes (see :func:`_count_residues`).

    Shared by every caller that counts the same position (see :func:`_count_residues`),
    so its arrays are read-only."""

    flags: int
    total: int
    residues: np.ndarray
    """Per frontier group, then the off-frontier cells' group and the layouts, per prime."""
    group_count: int
    primes: tuple[int, ...]
    """The primes the weights need (their product exceeds every weight)."""
    sizes: np.ndarray
    groups: np.ndarray

    def values(self, rows: slice) -> list[int]:
        """The exact integers of ``rows`` of :attr:`residues` (Chinese remainders)."""
        product, basis = _remainder_basis(self.primes)
        return [int(v) % product for v in self.residues[rows].astype(object) @ basis]

    @cached_property
    def every_value(self) -> list[int]:
        """:meth:`values` of every row: each group's weight, then the layouts."""
        return self.values(slice(0, self.group_count + 2))

    @cached_property
    def layouts(self) -> int:
        """The layouts alone (the last row): what a 50/50 tally needs, without
        decoding every group's weight."""
        last = self.group_count + 1
        return self.values(slice(last, last + 1))[0]


RESIDUE_CACHE = 256
"""How many counted positions :func:`_count_residues` remembers. One move of ``search``
counts each trial position up to three times (its look-ahead, its 50/50 factor and the
board's scan) among a few hundred; older moves' positions do not come back."""


def _count_residues(board: Board) -> _Residues | None:
    """The compiled count's residues of ``board``, or ``None`` to ask the exact engine
    (no mine total, or a position the kernel leaves to it).

    The answer depends on the grid and the mine total alone, so it is remembered
    by those (:data:`RESIDUE_CACHE` positions)."""
    total = board.total_mines
    if total is None:
        return None
    grid = np.require(board.grid, np.int8, ["C"])
    return _count_grid(grid.tobytes(), grid.shape, int(total))


@lru_cache(maxsize=RESIDUE_CACHE)
def _count_grid(cells: bytes, shape: tuple[int, ...], total: int) -> _Residues | None:
    """:func:`_count_residues` of the grid whose bytes are ``cells`` (int8, ``shape``)."""
    grid = np.frombuffer(cells, np.int8).reshape(shape).copy()  # the kernel wants it writable
    primes, factorials, inverses = _residue_tables(grid.size)
    residues = np.empty((grid.size + 2, len(primes)), np.int64)
    sizes = np.zeros(grid.size, np.int64)  # every component has a cell: the rest stays 0
    groups = np.empty(grid.size, np.int64)
    group_count, needed = weight_residues_into(
        grid, total, primes, factorials, inverses, residues, sizes, groups
    )
    if group_count < 0:
        return None
    kept = residues[: group_count + 2, :needed].copy()  # the rows and primes in use
    flags = int(np.count_nonzero(grid == FLAGGED))
    for array in (kept, sizes, groups):
        array.flags.writeable = False
    used = tuple(primes[:needed].tolist())
    return _Residues(flags, total, kept, group_count, used, sizes, groups)


def exact_layouts(board: Board) -> int | None:
    """:func:`exact_weights`' layouts alone (``None`` likewise), without rebuilding
    every group's weight: the count a 50/50 tally needs."""
    found = _count_residues(board)
    if found is None:
        return None
    return found.layouts or None


def exact_groups(board: Board) -> GroupedCount | None:
    """:func:`exact_weights` by groups of cells (see :class:`GroupedCount`), ``None`` likewise."""
    found = _count_residues(board)
    if found is None:
        return None
    values = found.every_value
    layouts = values[-1]
    if not layouts:
        return None  # no layout: the exact engine says which number fails
    sizes_found = tuple(found.sizes[found.sizes > 0].tolist())
    return GroupedCount(
        layouts, values[:-1], found.groups, sizes_found, found.total - found.flags
    )


def exact_weights(board: Board) -> Weights | None:
    """:func:`~minesweep_env.solver.probability.engine.count_position`'s weights of
    ``board`` (the same layouts and the same mine weight of every cell), from the compiled
    count's residues, or ``None`` to ask the exact engine (see
    :func:`.weights_compiled.weight_residues_into`).

    ``component_sizes`` lists the same components, perhaps in another order.
    """
    found = exact_groups(board)
    return None if found is None else found.weights()


if compiled.loaded():  # imported by its owners once the cache is ready: load on first call
    load_on_first_call(globals(), KERNELS)


__all__ = [
    "GroupedCount",
    "exact_groups",
    "exact_layouts",
    "exact_weights",
    "group_probabilities",
    "trial_weights",
    "weight_classes",
]
