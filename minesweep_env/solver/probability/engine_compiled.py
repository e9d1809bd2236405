"""The compiled paths: :func:`~.engine.mine_probabilities` and ``complete``'s proof, one call each.

The exact engine stays the reference and the path for everything that needs
exact counts (:func:`~.engine.analyse_position`, :func:`~.engine.count_position`,
the ``complete`` rule set). This path answers only the float question, with
probabilities equal to the exact engine's within 1e-12, and hands back ``None``
whenever the exact engine must answer instead (see :mod:`.kernels`).
:func:`complete_proof` answers ``complete``'s question (which cells are safe or
mines in every layout) exactly, from the same float count (see :mod:`.proof_kernels`).

Importing this module imports numba; :mod:`.jit` decides when that is worth it.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Any

import numpy as np
from numba import types

from ...core.board import Board
from ...core.cells import FLAGGED
from .choice_kernels import CHOSEN, EXACT, NO_FLOATS, SHORTLIST, greedy_choice_into
from .engine import Weights
from .greedy_kernels import (
    KNOWN_SAFE_GROUP,
    PRIME_BITS,
    group_probabilities_into,
    trial_weights_into,
    weight_classes_into,
    weight_residues_into,
)
from .jit import CompiledPaths
from .kernels import OK, mine_probabilities_into
from .play_kernels import open_many, play_out_into, play_out_many
from .proof_kernels import DEFER, FULL, MINE, SAFE, complete_proof_into

SIGNATURE = (types.Array(types.int8, 2, "C"), types.int64, types.Array(types.float64, 2, "C"))
"""The one signature the kernel is called with: :func:`fast_mine_probabilities` brings
every board to it, so the cache holds all a process needs."""

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

KERNELS = (
    (mine_probabilities_into, SIGNATURE),
    (complete_proof_into, PROOF_SIGNATURE),
    (play_out_into, PLAY_OUT_SIGNATURE),
    (play_out_many, PLAY_OUT_MANY_SIGNATURE),
    (open_many, OPEN_MANY_SIGNATURE),
    (trial_weights_into, TRIAL_SIGNATURE),
    (group_probabilities_into, GROUP_SIGNATURE),
    (weight_classes_into, CLASSES_SIGNATURE),
    (weight_residues_into, RESIDUES_SIGNATURE),
    (greedy_choice_into, CHOICE_SIGNATURE),
)


def load_kernels() -> bool:
    """Load the kernels for their signatures (from numba's cache, else by compiling them),
    then forbid further compiles: an unforeseen argument type raises instead of
    compiling in a caller's path.

    :returns: whether the kernels came from the cache.
    """
    for kernel, signature in KERNELS:
        _load(kernel, signature)
    return not any(kernel.stats.cache_misses for kernel, _ in KERNELS)


_LOADING = threading.Lock()


def _load(kernel: Any, signature: tuple) -> None:
    """:func:`load_kernels` for one kernel (once; a second call finds it loaded)."""
    with _LOADING:
        # Once compiles are off numba refuses even a signature it holds: ask only once.
        if signature not in kernel.overloads:
            kernel.compile(signature)
        kernel.disable_compile()


class _LoadedOnFirstCall:
    """A kernel of :data:`KERNELS` that loads itself from numba's cache on its first call
    (:func:`_load`), then stands aside: this module's name for it is the kernel again.

    Loading all of them when the fast path opens costs about 0.3 s of CPU, most of a
    fresh process's first game, which calls one or two; :func:`load_kernels_on_use`
    opens the path with these instead, once the cache is known to hold every kernel.
    """

    def __init__(self, name: str, kernel: Any, signature: tuple) -> None:
        self.name, self.kernel, self.signature = name, kernel, signature
        self.loaded = False

    def __call__(self, *args: Any) -> Any:
        if not self.loaded:  # (a caller holding this object, as paths() does, keeps it)
            _load(self.kernel, self.signature)
            self.loaded = True
            globals()[self.name] = self.kernel
        return self.kernel(*args)


def load_kernels_on_use() -> None:
    """:func:`load_kernels`, each kernel on its first call (:class:`_LoadedOnFirstCall`).

    For a process that found numba's cache ready (:mod:`.jit`'s marker): a kernel's
    first call loads it from there, so no caller compiles; a kernel never called costs
    nothing.
    """
    module = globals()
    for kernel, signature in KERNELS:
        name = kernel.py_func.__name__
        if module.get(name) is kernel and kernel.overloads.get(signature) is None:
            module[name] = _LoadedOnFirstCall(name, kernel, signature)


def cache_index() -> str | None:
    """numba's index file for the kernel's cache, if numba says where it is."""
    cache_file = getattr(getattr(mine_probabilities_into, "_cache", None), "_cache_file", None)
    return getattr(cache_file, "_index_path", None)


def fast_mine_probabilities(board: Board, total_mines: int | None = None) -> np.ndarray | None:
    """Mine probabilities of ``board`` as float64 (H, W), or ``None`` to ask the exact engine.

    :param total_mines: overrides ``board.total_mines`` when given.
    """
    total = board.total_mines if total_mines is None else total_mines
    # Writable too: numba types a read-only array apart, which would be a new compile.
    grid = np.require(board.grid, np.int8, ["C", "W"])
    out = np.empty(grid.shape)
    status = mine_probabilities_into(grid, -1 if total is None else int(total), out)
    return out if status == OK else None


def complete_proof(board: Board) -> tuple[set[int], set[int], np.ndarray | None] | None:
    """What rule set ``complete`` proves on ``board``, or ``None`` to ask the exact path.

    :returns: (safe, mines, probabilities): flat indices, and when the proof is
        the full count's, the mine probability of every cell as float64 (H, W),
        as :func:`fast_mine_probabilities` gives it (else ``None``).
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


def group_probabilities(board: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """Mine probabilities of ``board`` as :func:`fast_mine_probabilities` gives them, and the
    group of every cell (see :mod:`.greedy_kernels`), or ``None`` to ask the exact engine.

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
    :mod:`.greedy_kernels`).

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
    group last), or ``None`` to ask the exact engine (see :mod:`.greedy_kernels`)."""
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


def exact_weights(board: Board) -> Weights | None:
    """:func:`~.engine.count_position`'s weights of ``board`` (the same layouts and the
    same mine weight of every cell), from the compiled count's residues, or ``None`` to
    ask the exact engine (see :func:`.greedy_kernels.weight_residues_into`).

    ``component_sizes`` lists the same components, perhaps in another order.
    """
    total = board.total_mines
    if total is None:
        return None
    grid = np.require(board.grid, np.int8, ["C", "W"])
    primes, factorials, inverses = _residue_tables(grid.size)
    residues = np.empty((grid.size + 2, len(primes)), np.int64)
    sizes = np.zeros(grid.size, np.int64)  # every component has a cell: the rest stays 0
    groups = np.empty(grid.size, np.int64)
    group_count, needed = weight_residues_into(
        grid, int(total), primes, factorials, inverses, residues, sizes, groups
    )
    if group_count < 0:
        return None
    product, basis = _remainder_basis(tuple(primes[:needed].tolist()))
    values = [int(v) % product for v in residues[: group_count + 2, :needed].astype(object) @ basis]
    layouts = values[-1]
    if not layouts:
        return None  # no layout: the exact engine says which number fails
    cells = np.flatnonzero(groups >= 0)
    mine_weight: dict[int, int | None] = dict.fromkeys(
        np.flatnonzero(groups == KNOWN_SAFE_GROUP).tolist(), 0
    )
    weights = [values[g] for g in groups[cells].tolist()]
    mine_weight.update(zip(cells.tolist(), weights, strict=True))
    flags = int(np.count_nonzero(grid == FLAGGED))
    sizes_found = tuple(sizes[sizes > 0].tolist())
    return Weights(layouts, mine_weight, sizes_found, int(total) - flags)


_CHOICE_STATUS = {CHOSEN: "chosen", SHORTLIST: "progress", EXACT: "exact", NO_FLOATS: "none"}


def greedy_choice(
    board: Board, valid: np.ndarray, keep: int, lookahead: bool, margins: np.ndarray
) -> tuple[str, list[int]]:
    """The greedy agent's decision on ``board`` in one compiled call, or the fallback that
    must make it (see :mod:`.choice_kernels`).

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


def paths() -> CompiledPaths:
    """Every compiled path, for :mod:`.jit` to hand out."""
    return CompiledPaths(
        fast_mine_probabilities,
        complete_proof,
        complete_play_out,
        play_out_many,
        open_many,
        trial_weights,
        group_probabilities,
        weight_classes,
        exact_weights,
        greedy_choice,
    )
