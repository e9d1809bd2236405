"""Compiled kernels of the greedy agent's choice: its float shortcuts, each with an exact fallback.

The greedy agent decides on exact counts (ties between equal probabilities,
ties between equal chances of progress). Most decisions are clear long before
the last digit, so these kernels answer in floats and say enough for the
caller to tell when a decision is clear and when the exact engine must settle it:

- :func:`group_probabilities_into`: every cell's probability, as
  :func:`~.kernels.mine_probabilities_into` gives it, and the *group* of every
  covered cell (cells touching the same numbers, or no number at all), since
  cells of one group have the same exact weight by symmetry;
- :func:`trial_weights_into`: for a guess and each number it could show, the
  layouts that fit (as a natural log, so positions that differ by one number
  compare) and whether some covered cell is then safe in all of them. The
  exact engine answers with one count per number, in Python. For a guess far
  from every number (*isolated*: its neighbours touch no number) the number
  only changes a component of its own, so the rest is counted once and each
  number costs only the combining step.

A progress flag is exact, as :mod:`.kernels`' weights are exactly 0.0 where
the exact weight is 0 and only there; a log is within about 1e-12 of the exact
one; it is ``-inf`` where no layout fits (as exact a verdict as the exact
engine's: a constraint or the structure of the count rules it out), and NaN
where the float count cannot answer (the position is beyond it): the exact
engine counts that one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cells import COVERED, KNOWN_SAFE
from .kernels import (
    _CHOOSE,
    COUNTED,
    DEFER,
    NO_LAYOUT,
    OK,
    combine_groups,
    count_groups,
    weigh_groups_scaled,
    write_probabilities,
)

KNOWN_SAFE_GROUP = -2
"""The group written on known-safe cells (weight 0 in every layout); -1 on the rest
of the cells that are not covered."""


@njit(cache=True)
def group_probabilities_into(grid, total, out, group_of):
    """Write every cell's mine probability into ``out`` and its group into ``group_of``.

    :param grid: C-contiguous int8 (H, W) view codes.
    :param total: the board's mine total (flags included), or -1 when unknown.
    :param out: float64 (H, W), as :func:`~.kernels.mine_probabilities_into` writes it.
    :param group_of: int64 (H * W): a frontier group's number, the number of groups
        for the cells off the frontier, :data:`KNOWN_SAFE_GROUP` on known-safe
        cells, -1 elsewhere.
    :returns: :data:`~.kernels.OK`, or :data:`~.kernels.DEFER` for the exact engine.
    """
    height, width = grid.shape
    flat = grid.reshape(height * width)
    result = out.reshape(height * width)
    status, cells, start, off, w_mine, w_free, _ = weigh_groups_scaled(
        flat, height, width, total, result
    )
    if status != COUNTED:
        return DEFER
    write_probabilities(result, total, cells, start, off, w_mine, w_free)
    groups = len(start) - 1
    for i in range(height * width):
        group_of[i] = KNOWN_SAFE_GROUP if flat[i] == KNOWN_SAFE else -1
    for g in range(groups):
        for f in range(start[g], start[g + 1]):
            group_of[cells[f]] = g
    for i in off:
        group_of[i] = groups
    return OK


@njit(cache=True)
def _flag_progress(total, off_count, w_mine):
    """Whether some covered cell weighs 0 with a mine (off the frontier only with a total)."""
    groups = len(w_mine) - 1
    for g in range(groups):
        if w_mine[g] == 0.0:
            return 1
    if total >= 0 and off_count > 0 and w_mine[groups] == 0.0:
        return 1
    return 0


@njit(cache=True)
def trial_weights_into(grid, total, cell, numbers, log_layouts, progress, isolated):
    """For each ``numbers[k]`` shown on ``cell``: the log of the layouts that fit, and
    whether another covered cell is then safe in all of them.

    :param grid: C-contiguous int8 (H, W) view codes; ``cell`` is changed during the
        call and put back before it returns.
    :param total: the board's mine total (flags included), or -1 when unknown.
    :param log_layouts: float64 per number: ``-inf`` where no layout fits, NaN where
        the exact engine must count.
    :param progress: int8 per number, 1 for progress (0 where the log is not finite).
    :param isolated: no neighbour of ``cell`` touches a number, and none is open:
        the other components are counted once (checked here; the general way otherwise).
    """
    if isolated and len(numbers) > 0 and _isolated_trials(
        grid, total, cell, numbers, log_layouts, progress
    ):
        return
    _trials(grid, total, cell, numbers, log_layouts, progress)


@njit(cache=True)
def _isolated_trials(grid, total, cell, numbers, log_layouts, progress):
    """:func:`trial_weights_into` for an isolated ``cell``: count once with the first
    number, then swap in each number's own component. ``False`` (nothing written) when
    ``cell`` is not isolated after all or the count cannot go this way."""
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    saved = flat[cell]
    flat[cell] = numbers[0]
    status, cells, start, off, order, group_start, layouts, low, high, mine, free, left, scale = (
        count_groups(flat, height, width, total, scratch)
    )
    flat[cell] = saved
    if status != COUNTED:
        return False
    # The cell's own group: every covered neighbour, alone in its component.
    y, x = cell // width, cell % width
    size = 0
    first = -1
    for ny in range(max(y - 1, 0), min(y + 2, height)):
        for nx in range(max(x - 1, 0), min(x + 2, width)):
            i = ny * width + nx
            if i != cell:
                if flat[i] != COVERED:
                    return False
                size += 1
                if first < 0:
                    first = i
    own = -1
    for g in range(len(start) - 1):
        for f in range(start[g], start[g + 1]):
            if cells[f] == first:
                own = g
    if own < 0 or start[own + 1] - start[own] != size:
        return False
    component = -1
    for c in range(len(group_start) - 1):
        for f in range(group_start[c], group_start[c + 1]):
            if order[f] == own:
                component = c
    if group_start[component + 1] - group_start[component] != 1:
        return False
    rest = scale - np.log(_CHOOSE[size, numbers[0]])
    span = layouts.shape[1]
    w_mine = np.zeros(len(start))
    w_free = np.zeros(len(start))
    for k in range(len(numbers)):
        v = numbers[k]
        for m in range(span):
            layouts[component, m] = 0.0
            mine[own, m] = 0.0
            free[own, m] = 0.0
        # C(size, v) layouts, scaled to 1; with a mine on a given cell C(size - 1, v - 1).
        layouts[component, v] = 1.0
        mine[own, v] = v / size
        free[own, v] = (size - v) / size
        low[component] = v
        high[component] = v
        status, log_w = combine_groups(
            total, len(off), left, order, group_start, layouts, low, high, mine, free, w_mine,
            w_free, rest + np.log(_CHOOSE[size, v]),
        )
        progress[k] = 0
        if status != COUNTED:
            log_layouts[k] = -np.inf if status == NO_LAYOUT else np.nan
            continue
        log_layouts[k] = log_w
        progress[k] = _flag_progress(total, len(off), w_mine)
    return True


@njit(cache=True)
def _trials(grid, total, cell, numbers, log_layouts, progress):
    """:func:`trial_weights_into`, each number counted afresh."""
    height, width = grid.shape
    flat = grid.reshape(height * width)
    scratch = np.empty(height * width)
    saved = flat[cell]
    for k in range(len(numbers)):
        flat[cell] = numbers[k]
        status, _, start, off, w_mine, _, log_w = weigh_groups_scaled(
            flat, height, width, total, scratch
        )
        progress[k] = 0
        if status != COUNTED:
            log_layouts[k] = -np.inf if status == NO_LAYOUT else np.nan
            continue
        log_layouts[k] = log_w
        progress[k] = _flag_progress(total, len(off), w_mine)
    flat[cell] = saved
