"""The chance of progress: how likely a probe is to let the auto-solver move.

Probing a cell that turns out safe shows a number; the probe *makes progress*
when, with that number seen, some other covered cell is safe in every layout
(a zero with covered neighbours always is). The chance is exact: each number
``v`` the cell could show is weighted by the layouts that fit the position
with ``v`` there, as the exact engine counts them, over the layouts that have
the cell safe.

That is one exact count per number, and the greedy agent asks it for up to
:data:`~.greedy.LOOKAHEAD` cells per guess: most of its time. Four things
make it cheap without changing one chance or one choice:

- the numbers a cell's neighbourhood rules out are skipped (:func:`number_range`);
- :func:`best_progress` first estimates every chance from the compiled float
  counts, all of a cell's numbers in one call (:func:`estimate_chance`, within
  :data:`ESTIMATE_MARGIN` of the exact chance, and exact when no number or
  every number makes progress); only cells whose estimates come that close to
  the best one are counted exactly, so the choice is the exact chances' choice;
- the exact count itself asks the compiled float path which numbers make
  progress (its probability is 0.0 exactly where the exact mine weight is 0,
  and only there: a contract
  tests/minesweep_env/solver/probability/test_probability_compiled.py checks), and the
  layouts behind the numbers add up to the cell's safe layouts, so only the
  numbers on the shorter side (progress or not) are counted exactly
  (:func:`progress_chance`);
- :func:`best_progress` skips a cell whose chance provably equals an earlier
  one's (an *isolated* cell of the same shape, see :func:`isolated_shape`) and
  stops once a chance of exactly 1 is found, since ties go to the earlier cell.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from minesweep_env.compiled import ready
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import Weights, count_position

from .grouped_count import GroupedCount

FastPath = Callable[[Board, "int | None"], "np.ndarray | None"]
""":func:`~minesweep_env.solver.probability.engine_compiled.fast_mine_probabilities`' shape."""

TrialPath = Callable[[Board, int, np.ndarray, bool], "tuple[np.ndarray, np.ndarray]"]
""":func:`~.float_weights.trial_weights`' shape."""


def number_range(board: Board, cell: int) -> range:
    """The numbers ``cell`` could show if safe, as its neighbourhood allows.

    From its flags up to its flags plus its covered neighbours, narrowed by every
    number whose covered neighbours meet the cell's: such a number puts between
    ``need - outside`` and ``need`` of its mines among the shared cells (``outside``
    being its covered cells away from ``cell``), and the cell's other neighbours
    hold anything from none to all. Only ever drops numbers no layout allows, so
    the exact engine (which also rules out the rest) sees the same positions.
    """
    flat = board.grid.reshape(-1).tolist()  # a list: far quicker to index one by one
    table = neighbour_table(board.width, board.height)
    around = set(table[cell])
    flags = sum(1 for n in around if flat[n] == FLAGGED)
    covered = {n for n in around if flat[n] == COVERED}
    low, high = 0, len(covered)
    for number in neighbour_table(board.width, board.height, radius=2)[cell]:
        value = flat[number]
        if value < 0:
            continue
        its = table[number]
        its_covered = {n for n in its if flat[n] == COVERED} - {cell}
        shared = its_covered & covered
        if not shared:
            continue
        need = value - sum(1 for n in its if flat[n] == FLAGGED)
        outside = len(its_covered) - len(shared)
        low = max(low, need - outside)
        high = min(high, need + len(covered) - len(shared))
    return range(flags + max(low, 0), flags + high + 1)


def trials(board: Board, cell: int) -> list[Board]:
    """The position with ``cell`` showing each number of :func:`number_range`."""
    found = []
    for number in number_range(board, cell):
        trial = board.copy()
        trial.grid.reshape(-1)[cell] = number
        found.append(trial)
    return found


def exact_trial_count(trial: Board, cache: dict | None) -> Weights | GroupedCount | None:
    """The exact count of a trial position, or ``None`` when no layout fits: the compiled
    count's groups when it has them (the same integers), else the engine's weights."""
    if trial.grid.size <= FLOAT_CELLS and ready():
        from .float_weights import exact_groups

        grouped = exact_groups(trial)
        if grouped is not None:
            return grouped
    try:
        return count_position(trial, cache=cache, any_count=True)
    except InconsistentBoardError:
        return None


def exact_trial_weights(trial: Board, cache: dict | None) -> Weights | None:
    """The exact engine's weights of a trial position, or ``None`` when no layout fits."""
    count = exact_trial_count(trial, cache)
    return count.weights() if isinstance(count, GroupedCount) else count


def exact_trial_layouts(trial: Board, cache: dict | None) -> int:
    """The exact layouts of a trial position (0 when no layout fits): the same integer
    as :func:`exact_trial_weights`' ``layouts``, without each cell's weight when the
    compiled count has it."""
    if trial.grid.size <= FLOAT_CELLS and ready():
        from .float_weights import exact_layouts

        layouts = exact_layouts(trial)
        if layouts is not None:
            return layouts
    try:  # the engine's count (the compiled one deferred, or found no layout)
        return count_position(trial, cache=cache, any_count=True).layouts
    except InconsistentBoardError:
        return 0


def count_trial(trial: Board, cache: dict | None) -> tuple[int, bool] | None:
    """The exact layouts of a trial position and whether a covered cell is safe in
    all of them (progress), or ``None`` when no layout fits."""
    weights = exact_trial_weights(trial, cache)
    if weights is None:
        return None
    flat = trial.grid.reshape(-1)
    # Before the probe no covered cell is certain (the caller checks), so a cell
    # that no layout mines now is progress.
    progress = any(
        weight == 0 and flat[index] == COVERED for index, weight in weights.mine_weight.items()
    )
    return weights.layouts, progress


def fast_progress(fast: FastPath, trial: Board) -> bool | None:
    """Whether some covered cell of ``trial`` is safe in every layout, by the compiled
    float path, or ``None`` when it defers to the exact engine (no layout fits, or
    the position is beyond it)."""
    probabilities = fast(trial, None)
    if probabilities is None:
        return None
    covered = trial.grid.reshape(-1) == COVERED
    return bool((probabilities.reshape(-1)[covered] == 0.0).any())


def progress_chance(
    board: Board, cell: int, cache: dict | None = None, safe_layouts: int | None = None
) -> float:
    """The chance that probing ``cell``, if safe, makes progress (see the module).

    Only meaningful when no covered cell is provably safe yet.

    :param cache: the exact engine's component cache.
    :param safe_layouts: the layouts of ``board`` with ``cell`` safe (its layout
        count less the cell's mine weight), when the caller has them: with them
        the float path, once loaded, spares most exact counts. The result is the
        same float either way.
    """
    found = trials(board, cell)
    fast: FastPath | None = None
    if safe_layouts is not None and ready():
        from minesweep_env.solver.probability.engine_compiled import (
            fast_mine_probabilities as fast,
        )
    if fast is None or safe_layouts is None:
        fitting = progress = 0
        for trial in found:
            counted = count_trial(trial, cache)
            if counted is not None:
                fitting += counted[0]
                progress += counted[0] if counted[1] else 0
        return progress / fitting if fitting else 0.0
    if not safe_layouts:
        return 0.0
    flags = [fast_progress(fast, trial) for trial in found]
    progress = non_progress = 0
    # Numbers the float path left to the exact engine: counted whatever their side.
    for trial, flag in zip(found, flags, strict=True):
        if flag is None and (counted := count_trial(trial, cache)) is not None:
            if counted[1]:
                progress += counted[0]
            else:
                non_progress += counted[0]
    known = [(trial, flag) for trial, flag in zip(found, flags, strict=True) if flag is not None]
    progressing = sum(1 for _, flag in known if flag)
    # The layouts behind all the numbers add up to safe_layouts: count one side only.
    side = progressing <= len(known) - progressing
    for trial, flag in known:
        if flag is side:
            counted = count_trial(trial, cache)
            layouts = counted[0] if counted is not None else 0
            if flag:
                progress += layouts
            else:
                non_progress += layouts
    if not side:
        progress = safe_layouts - non_progress
    return progress / safe_layouts


def isolated_shape(board: Board, cell: int) -> int | None:
    """The number of covered neighbours of ``cell`` when it is *isolated*: every
    neighbour covered and touching no probed number; else ``None``.

    Probing an isolated cell adds one number over cells no other number touches,
    so two isolated cells with as many neighbours give positions alike up to a
    relabelling of cells, whatever they show: the same layout counts, the same
    progress, the same chance.
    """
    flat = board.grid.reshape(-1).tolist()  # a list: far quicker to index one by one
    table = neighbour_table(board.width, board.height)
    for n in table[cell]:
        if flat[n] != COVERED or any(flat[m] >= 0 for m in table[n]):
            return None
    return len(table[cell])


ESTIMATE_MARGIN = 1e-9
"""How far :func:`estimate_chance` may be from the exact chance, by a wide margin: the
float counts' logs are within about 1e-12 of the exact ones."""

FLOAT_CELLS = 4096
"""The largest board, in cells, on which the float shortcuts are trusted (here and in
:mod:`.ranking`). Their error grows with the board (``lgamma`` of the cell count, fill
ratios taken as products along it); up to this size it stays far inside the margins,
beyond it the exact engine decides everything, as before."""


@dataclass(frozen=True)
class Estimate:
    """A chance of progress from the float counts (:func:`estimate_chance`)."""

    value: float
    """Within :data:`ESTIMATE_MARGIN` of the exact chance."""
    exact: bool
    """The value is the exact chance: 0.0 (no number makes progress) or 1.0 (every
    number that fits does), found without any float sum."""


def estimate_chance(
    trial: TrialPath, board: Board, cell: int, cache: dict | None, isolated: bool = False
) -> Estimate:
    """The chance of progress of ``cell`` from the compiled float counts of its trials
    (:func:`~.float_weights.trial_weights`); a number the float
    count leaves to the exact engine is counted exactly.

    :param isolated: ``cell`` is isolated (:func:`isolated_shape`): the count is cheaper.
    """
    numbers = np.fromiter(number_range(board, cell), np.int64)
    logs, flags = trial(board, cell, numbers, isolated)
    for k in np.flatnonzero(np.isnan(logs)).tolist():
        trial_board = board.copy()
        trial_board.grid.reshape(-1)[cell] = numbers[k]
        counted = count_trial(trial_board, cache)
        logs[k] = math.log(counted[0]) if counted is not None else -np.inf
        flags[k] = counted is not None and counted[1]
    fits = logs > -np.inf
    if not flags[fits].any():
        return Estimate(0.0, True)
    if flags[fits].all():
        return Estimate(1.0, True)
    weights = np.exp(logs[fits] - logs[fits].max())
    return Estimate(float(weights[flags[fits]].sum() / weights.sum()), False)


def best_progress(
    board: Board,
    ranked: Sequence[int],
    weights: Weights | Callable[[], Weights],
    cache: dict | None = None,
) -> int:
    """The position in ``ranked`` of the cell with the highest chance of progress,
    the earliest of equals: ``max(range(len(ranked)), key=lambda k: (chance_k, -k))``,
    the chances being :func:`progress_chance`'s floats.

    Once the kernels are loaded the chances are first estimated in floats
    (:func:`estimate_chance`); only the cells whose estimates come within twice
    :data:`ESTIMATE_MARGIN` of the best one are counted exactly, so the answer is
    the exact chances' answer.

    :param weights: the exact engine's weights of ``board`` (every cell of
        ``ranked`` must have a mine weight), or a function that counts them: then
        they are counted only if a chance must be counted exactly.
    """
    counted: list[Weights] = []

    def exact(cell: int) -> float:
        if not counted:
            counted.append(weights if isinstance(weights, Weights) else weights())
        weight = counted[0].mine_weight[cell]
        assert weight is not None
        return progress_chance(board, cell, cache, counted[0].layouts - weight)

    trial_weights: TrialPath | None = None
    if board.grid.size <= FLOAT_CELLS and ready():
        from .float_weights import trial_weights
    estimates: list[tuple[int, int, Estimate]] = []
    shapes: set[int] = set()
    best = -1.0
    for k, cell in enumerate(ranked):
        if best >= 1.0:
            break  # nothing beats a certain chance, and ties go to the earlier cell
        shape = isolated_shape(board, cell)
        if shape is not None:
            if shape in shapes:
                continue  # the same chance as an earlier cell: it cannot win
            shapes.add(shape)
        if trial_weights is None:
            estimate = Estimate(exact(cell), True)
        else:
            estimate = estimate_chance(
                trial_weights, board, cell, cache, isolated=shape is not None
            )
        estimates.append((k, cell, estimate))
        if estimate.exact:
            best = max(best, estimate.value)
    top = max(estimate.value for _, _, estimate in estimates)
    # Below the best estimate by more than both errors, a cell cannot win.
    contenders = [e for e in estimates if e[2].value >= top - 2 * ESTIMATE_MARGIN]
    if len(contenders) == 1:
        return contenders[0][0]
    best_k, best = 0, -1.0
    for k, cell, estimate in contenders:
        chance = estimate.value if estimate.exact else exact(cell)
        if chance > best:
            best_k, best = k, chance
    return best_k
