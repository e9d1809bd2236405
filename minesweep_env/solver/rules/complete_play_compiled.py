"""Compiled (numba) auto-solver of rule set ``complete``: whole games' worth of rounds per call.

:func:`~minesweep_env.solver.autosolve.autosolve` plays a rule set round by
round: prove, flag the proven mines, open the proven-safe cells (zeros flood),
again until a round changes nothing or the game is won. Here the same rounds
run in one compiled call, each proof the one
:func:`~.complete_proof_compiled.complete_proof_into` gives (so exactly ``Complete.prove``'s),
for one game (:func:`play_out_into`) or for many boards of a batch at once
(:func:`play_out_many`, with :func:`open_many` for the players' own probes).

A round the compiled proof cannot answer, or one whose proof would open a mine
(only behind a person's wrong flag), is left unplayed and the Python path plays
on from there, so every game ends where round-by-round play ends it. Within a
round cells are opened in increasing index order.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...core.cells import COVERED, FLAGGED
from .complete_proof_compiled import CHEAP, DEFER, MINE, SAFE, WORK_ROWS, prove_flat


@njit(cache=True)
def proof_could_lose(codes, mines, n):
    """Whether a proof could lose: a cell proved safe holds a mine, or a cell is proved
    both (only behind a wrong flag). Such a proof is left to the Python path, which
    plays it in its own order; the stateless and the tracked play-outs both ask this."""
    for i in range(n):  # noqa: SIM110 - numba compiles no generator inside any()
        if (codes[i] & SAFE and mines[i]) or codes[i] == SAFE | MINE:
            return True
    return False


@njit(cache=True)
def _flood(start, view, numbers, opened, count, stack):
    """Open ``start`` and, from every zero, its neighbours (as ``Minefield`` floods).

    A compiled copy of the flood; the rule is ``Minefield._flood``
    (:mod:`minesweep_env.core.minefield`), and
    ``tests/minesweep_env/compiled/test_complete_compiled.py::test_the_compiled_auto_solver_plays_as_round_by_round``
    and
    ``tests/minesweep_env/envs/test_env_compiled_paths.py::test_the_fused_probe_plays_as_probe_then_rounds``
    hold the two equal.

    :param stack: int64 scratch of H * W entries.
    """
    height, width = view.shape
    return flood_flat(start, view.reshape(height * width), height, width, numbers, opened,
                      count, stack)


@njit(cache=True, error_model="numpy")
def flood_flat(start, flat, height, width, numbers, opened, count, stack):
    """:func:`_flood` on the flat view (the tracked kernel's hot path: it opens every
    decided cell through here). A compiled copy; ``Minefield._flood`` is the rule (see
    :func:`_flood` for the tests holding them equal).

    numpy's error model: the only division is by the board's width, never 0, and
    without a ZeroDivisionError path numba drops the reference counting of the four
    arrays, eight atomic operations a call."""
    flat[start] = numbers[start]
    opened[count] = start
    count += 1
    top = 0
    if numbers[start] == 0:
        stack[0] = start
        top = 1
    while top > 0:
        top -= 1
        cell = stack[top]
        y, x = cell // width, cell % width
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                n = ny * width + nx
                if flat[n] < 0 and flat[n] != FLAGGED:
                    flat[n] = numbers[n]
                    opened[count] = n
                    count += 1
                    if numbers[n] == 0:
                        stack[top] = n
                        top += 1
    return count


@njit(cache=True)
def _play_rounds(view, mines, numbers, has_total, total, nothing_covered, safe_left,
                 opened, opened_count, flagged, probabilities):
    """The rounds of :func:`play_out_into` (which documents the arguments), the cells
    opened written from ``opened[opened_count]`` on; returns that function's tuple, the
    count of opened cells included those before ``opened_count``."""
    height, width = view.shape
    n = height * width
    flat = view.reshape(n)
    codes = np.empty(n, np.int8)
    work = np.empty((WORK_ROWS, n), np.int64)
    stack = np.empty(n, np.int64)
    flagged_count = 0
    while True:
        status = prove_flat(flat, height, width, has_total, total, codes, probabilities, work)
        if status == DEFER:
            return DEFER, opened_count, flagged_count, safe_left, False
        if proof_could_lose(codes, mines, n):
            return DEFER, opened_count, flagged_count, safe_left, False
        changed = False
        for i in range(n):
            if codes[i] & MINE and flat[i] == COVERED:
                flat[i] = FLAGGED
                flagged[flagged_count] = i
                flagged_count += 1
                changed = True
        before = opened_count
        for i in range(n):
            if codes[i] & SAFE and flat[i] < 0 and flat[i] != FLAGGED:
                opened_count = _flood(i, view, numbers, opened, opened_count, stack)
        safe_left -= opened_count - before
        changed |= opened_count > before
        won = safe_left == 0
        if won and nothing_covered:
            for i in range(n):
                if flat[i] == COVERED:
                    won = False
                    break
        if won:
            return status, opened_count, flagged_count, safe_left, True
        if not changed:  # only a full count proves nothing new
            return status, opened_count, flagged_count, safe_left, False


@njit(cache=True)
def play_out_into(view, mines, numbers, has_total, total, nothing_covered, safe_left,
                  opened, flagged, probabilities):
    """The auto-solver with ``complete`` on a game, round after round, in one call.

    Each round proves what :func:`complete_proof_into` proves on the view, flags
    the proven mines and opens the proven-safe cells (flooding from zeros), as
    :func:`~minesweep_env.solver.autosolve.autosolve` plays a proof; it stops when
    a round changes nothing, the game is won, or a round must be answered by the
    Python path (then that round is left unplayed).

    :param view: the game's int8 (H, W) view, changed in place.
    :param mines: int8 flat (H * W), 1 on a mine; ``numbers`` int8 flat, the mine counts.
    :param nothing_covered: the win rule: every safe cell open and nothing covered,
        instead of every safe cell open.
    :param safe_left: safe cells not yet open.
    :param opened: int64 (H * W): the cells opened, in order; ``flagged`` the same.
    :param probabilities: float64 (H * W): the settled position's, with :data:`FULL`.
    :returns: (status, cells opened, cells flagged, safe cells left, won): the last
        round's status, :data:`FULL` when a full count proved nothing more
        (``probabilities`` are then the final view's) and :data:`DEFER` when the
        Python path must play on; ``won`` when the game was won.
    """
    return _play_rounds(view, mines, numbers, has_total, total, nothing_covered, safe_left,
                        opened, 0, flagged, probabilities)


@njit(cache=True)
def probe_play_out_into(view, mines, numbers, cell, total, nothing_covered, safe_left,
                        opened, flagged, probabilities):
    """A player's probe of covered ``cell`` and then :func:`play_out_into`, in one call.

    What ``Minefield.probe`` and then the auto-solver do: a mine loses (nothing
    changes); else the cell opens and floods from zeros, and unless that wins,
    the rounds of ``complete`` play on, their cells written after the flood's.
    The first-click policy has been applied already (in Python).

    :param mines: bool flat (H * W); ``numbers`` int8 flat (H * W); the rest as
        :func:`play_out_into`, with the board's mine ``total`` always known.
    :returns: (status, cells opened, cells flagged, safe cells left, won, lost);
        ``status`` as :func:`play_out_into`'s, :data:`CHEAP` when no round ran.
    """
    if mines[cell]:
        return CHEAP, 0, 0, safe_left, False, True
    height, width = view.shape
    count = _flood(cell, view, numbers, opened, 0, np.empty(height * width, np.int64))
    safe_left -= count
    won = safe_left == 0
    if won and nothing_covered:
        flat = view.reshape(height * width)
        for i in range(height * width):
            if flat[i] == COVERED:
                won = False
                break
    if won:
        return CHEAP, count, 0, safe_left, True, False
    status, count, flags, safe_left, won = _play_rounds(
        view, mines, numbers, True, total, nothing_covered, safe_left, opened, count, flagged,
        probabilities,
    )
    return status, count, flags, safe_left, won, False


@njit(cache=True)
def play_out_many(views, mines, numbers, boards, totals, nothing_covered, safe_left, height,
                  width, probabilities, status, won):
    """:func:`play_out_into` on each board ``boards[k]`` of a batch.

    :param views: int8 (N, H * W) views, changed in place; ``mines`` (1 on a mine) and
        ``numbers`` int8 (N, H * W).
    :param totals: int64 (N): each board's mine total; ``safe_left`` int64 (N), updated.
    :param probabilities: float64 (len(boards), H * W): row k the settled position's
        of board ``boards[k]`` when ``status[k]`` is :data:`FULL` and it is not won.
    :param status: int8 (len(boards)): the last round's status per board; ``won`` bool.
    """
    n = height * width
    opened = np.empty(n, np.int64)
    flagged = np.empty(n, np.int64)
    for k in range(len(boards)):
        b = boards[k]
        result = play_out_into(
            views[b].reshape((height, width)), mines[b], numbers[b], True, totals[b],
            nothing_covered, safe_left[b], opened, flagged, probabilities[k],
        )
        status[k] = result[0]
        safe_left[b] = result[3]
        won[k] = result[4]


@njit(cache=True)
def open_many(views, numbers, boards, cells, height, width, opened):
    """Open cell ``cells[k]`` of board ``boards[k]`` for every k, flooding zeros, as
    :func:`~minesweep_env.envs.board_batch.open_cells` does; adds to ``opened[board]``.

    A compiled copy; ``open_cells`` is its reference and
    ``tests/minesweep_env/envs/test_vector_env.py::test_open_many_opens_what_open_cells_opens``
    holds them
    equal (``test_open_cells_opens_what_the_minefield_flood_opens`` holds ``open_cells``
    to ``Minefield``'s flood)."""
    n = height * width
    buffer = np.empty(n, np.int64)
    stack = np.empty(n, np.int64)
    for k in range(len(boards)):
        b = boards[k]
        view = views[b].reshape((height, width))
        if views[b, cells[k]] != COVERED:
            continue
        opened[b] += _flood(cells[k], view, numbers[b], buffer, 0, stack)


@njit(cache=True)
def layout_from_priorities(priorities, mine_count, height, width, mines, numbers):
    """``MineLayout.from_priorities``'s mines and numbers of flat ``priorities``: a cell
    is a mine when its priority is below ``mine_count``; ``mines`` (bool or int8, 1 on a
    mine) and ``numbers`` (int8, the mines around each cell) flat (H * W), written here.

    Summed as a box filter, not mine by mine: each cell's mines across (itself and its
    left and right neighbours) in a row of ``across`` framed by zero rows, then three
    rows of those down, less the cell's own mine. Two passes with no branch per cell,
    about a sixth of the time of adding one around every mine of an expert layout (a
    new game's largest cost after the shuffle).
    """
    across = np.zeros((height + 2) * width, np.int8)
    for y in range(height):
        row = y * width
        left = False
        here = priorities[row] < mine_count
        for x in range(width):
            right = x + 1 < width and priorities[row + x + 1] < mine_count
            mines[row + x] = here
            across[row + width + x] = left + here + right
            left, here = here, right
    for i in range(height * width):
        numbers[i] = across[i] + across[i + width] + across[i + 2 * width] - mines[i]


def _probe_signature(mines_readonly: bool) -> tuple:
    flat_int64 = types.Array(types.int64, 1, "C")
    return (
        types.Array(types.int8, 2, "C"),
        types.Array(types.boolean, 1, "C", readonly=mines_readonly),
        types.Array(types.int8, 1, "C", readonly=True),
        types.int64,
        types.int64,
        types.boolean,
        types.int64,
        flat_int64,
        flat_int64,
        types.Array(types.float64, 1, "C"),
    )


PROBE_SIGNATURES = (_probe_signature(True), _probe_signature(False))
"""The signatures ``Complete.probe_and_play_out`` calls :func:`probe_play_out_into` with: a
layout's read-only arrays (its mines are writable only when given non-contiguous)."""


def compile_kernels() -> None:
    """Compile :func:`probe_play_out_into` for :data:`PROBE_SIGNATURES` (the warm-up does,
    so numba's cache holds them and no game compiles them); :func:`layout_from_priorities`
    is compiled inside :mod:`minesweep_env.envs.layout_generator_compiled`' entry point."""
    for signature in PROBE_SIGNATURES:
        if signature not in probe_play_out_into.overloads:
            probe_play_out_into.compile(signature)
