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
  exact engine answers with one count per number, in Python.

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

from ...core.cells import KNOWN_SAFE
from .kernels import COUNTED, DEFER, NO_LAYOUT, OK, weigh_groups_scaled, write_probabilities

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
def trial_weights_into(grid, total, cell, numbers, log_layouts, progress):
    """For each ``numbers[k]`` shown on ``cell``: the log of the layouts that fit, and
    whether another covered cell is then safe in all of them.

    :param grid: C-contiguous int8 (H, W) view codes; ``cell`` is changed during the
        call and put back before it returns.
    :param total: the board's mine total (flags included), or -1 when unknown.
    :param log_layouts: float64 per number: ``-inf`` where no layout fits, NaN where
        the exact engine must count.
    :param progress: int8 per number, 1 for progress (0 where the log is not finite).
    """
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
        groups = len(start) - 1
        for g in range(groups):
            if w_mine[g] == 0.0:
                progress[k] = 1
                break
        # Off the frontier a cell has a weight only when the total is known.
        if total >= 0 and len(off) > 0 and w_mine[groups] == 0.0:
            progress[k] = 1
    flat[cell] = saved
