"""The vector env's probes in one compiled call, written straight into the batch's arrays.

:meth:`~minesweep_env.envs.board_batch.BoardBatch.probe_and_autosolve` probed the
boards of a step in one compiled call into scratch rows, then took the verdicts,
the settled probabilities and the boards left to Python in a dozen numpy passes
over the step's boards. :func:`probe_boards` is that whole step for every board
in one loop: the probe, its flood and every round of the auto-solver
(:func:`.complete_kept_compiled.probe_play_tracked`, unchanged), the board's counters,
verdict and "settled" flag, its probabilities written in its own row, and the
cells it opened and flagged listed in row-major order (the env's
``info["opened"]`` and ``info["flagged"]``, which it found by comparing whole
views before and after); a ``"safe"`` first click onto a mine moves the mine there
too (:func:`move_first_mine`). Before it, :func:`read_actions` sorts the actions
into probes and invalid ones and reads what the env reports of them beforehand,
in place of some twenty numpy passes over the step's boards; :func:`start_boards`
starts new random games in the batch's own rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..core.cells import COVERED, FLAGGED
from ..solver.rules.complete_kept_compiled import probe_play_tracked, sort_prefix
from ..solver.rules.complete_play_compiled import layout_from_priorities
from ..solver.rules.complete_proof_compiled import DEFER, FULL
from .layout_generator_compiled import _permutation, choose_one_compiled

PLAYING, WON, LOST = 0, 1, 2
"""``BoardBatch.state``'s codes (:mod:`minesweep_env.envs.board_batch`; a test checks)."""


@njit(cache=True)
def move_first_mine(mines, numbers, words, cell, height, width):
    """``"safe"``'s first click on a mine at ``cell``: the mine moves to the free cell
    numpy's ``choice`` picks from the generator state ``words`` the layout draw left
    (``BoardBatch._move_first_mine``, which states the rule), the numbers around the
    two cells change by one. ``mines`` int8 and ``numbers`` int8 flat (H * W).

    A compiled copy of the first-click mine move: ``BoardBatch._move_first_mine`` is
    its reference (itself held to ``protect_first_click`` by
    ``tests/minesweep_env/envs/test_vector_env.py::test_a_seeded_games_safe_first_click_moves_its_mine_as_protect_first_click``),
    and
    ``tests/minesweep_env/envs/test_vector_env.py::test_compiled_batch_plays_as_the_python_rounds``
    and
    ``tests/minesweep_env/core/test_layout_kernels.py::test_the_vector_env_plays_the_single_envs_first_clicks_on_mines``
    hold the compiled and the Python step equal."""
    size = height * width
    free = 0
    for i in range(size):
        free += mines[i] == 0
    pick = choose_one_compiled(words, free)
    target = 0
    for target in range(size):  # the pick-th free cell, row-major
        if mines[target] == 0:
            if pick == 0:
                break
            pick -= 1
    mines[cell] = 0
    mines[target] = 1
    for moved, change in ((cell, -1), (target, 1)):
        y, x = moved // width, moved % width
        for ny in range(max(y - 1, 0), min(y + 2, height)):
            for nx in range(max(x - 1, 0), min(x + 2, width)):
                if ny != y or nx != x:
                    numbers[ny * width + nx] += change


SORT_BY_SCAN = 32
"""Cells above which :func:`sort_cells` sorts by a pass over the board instead of by
insertion."""


@njit(cache=True)
def sort_cells(cells, count, marks):
    """``cells[:count]``, distinct cells of one board, in increasing order, in place.

    A cascade opens a hundred cells or more and numpy's sort of them costs microseconds
    (as much as a one-cell probe's whole auto-solver): a long list is marked on the
    board and read back in one pass, a short one sorted by insertion.

    :param marks: bool (H * W), all False; left all False.
    """
    if count <= SORT_BY_SCAN:
        sort_prefix(cells, count)
        return
    for k in range(count):
        marks[cells[k]] = True
    k = 0
    for i in range(len(marks)):
        if marks[i]:
            marks[i] = False
            cells[k] = i
            k += 1


@njit(cache=True)
def probe_boards(views, mines, numbers, boards, cells, totals, nothing_covered, safe_left,
                 height, width, probabilities, settled, state, probes, guesses, deferred,
                 opened, flagged, opened_cells, opened_ends, flagged_cells, flagged_ends,
                 seen, track, states, first_here, moved):
    """Probe ``cells[k]`` on board ``boards[k]`` for every k and play its auto-solver.

    :param views: int8 (N, H * W), changed in place; ``mines`` (1 on a mine) and
        ``numbers`` int8 (N, H * W); ``totals`` int64 (N).
    :param safe_left: int64 (N), updated; ``state`` int8 (N) set to :data:`WON` or
        :data:`LOST` where the game ended; ``probes`` and ``guesses`` int64 (N),
        each probed board's counted up by one.
    :param probabilities: float64 (N, H * W): board b's row holds its position's
        probabilities where ``settled[b]`` (bool (N)) is set, for the boards probed
        here: a full count settled it and the game goes on. Other rows of probed
        boards hold anything.
    :param deferred: bool (len(boards)): the boards whose rounds Python plays on.
    :param opened: int64 (H * W) and ``flagged`` int64 (H * W): scratch.
    :param opened_cells: int64 (len(boards) * H * W): the cells board ``boards[k]``
        opened, in increasing order, at ``opened_cells[opened_ends[k - 1]:opened_ends[k]]``
        (from 0 for k = 0); ``opened_ends`` int64 (len(boards)). ``flagged_cells`` and
        ``flagged_ends`` the same for the cells flagged.
    :param seen: int8 (N, H * W) and ``track`` int64 (N, TRACK_ROWS, H * W): each
        board's kept constraints (:mod:`.complete_kept_compiled`).
    :param states: uint64 (N, STATE_WORDS): each game's generator state after its layout
        draw; ``first_here`` bool (N): the boards whose ``"safe"`` first click is played
        here (:func:`move_first_mine`, on a first probe onto a mine); ``moved`` bool
        (len(boards)) set where it moved a mine.
    """
    end_opened = end_flagged = 0
    marks = np.zeros(height * width, np.bool_)  # sort_cells' scratch, left all False
    for k in range(len(boards)):
        b = boards[k]
        moved[k] = probes[b] == 0 and first_here[b] and mines[b, cells[k]] != 0
        if moved[k]:
            move_first_mine(mines[b], numbers[b], states[b], cells[k], height, width)
        probes[b] += 1
        guesses[b] += 1
        status, count, flags, left, won, lost = probe_play_tracked(
            views[b].reshape((height, width)), mines[b], numbers[b], cells[k], totals[b],
            nothing_covered, safe_left[b], opened, flagged, probabilities[b], seen[b], track[b],
        )
        safe_left[b] = left
        if lost:
            state[b] = LOST
        elif won:
            state[b] = WON
        playing = not won and not lost
        settled[b] = playing and status == FULL
        deferred[k] = playing and status == DEFER
        sort_cells(opened, count, marks)
        opened_cells[end_opened:end_opened + count] = opened[:count]
        end_opened += count
        opened_ends[k] = end_opened
        sort_cells(flagged, flags, marks)
        flagged_cells[end_flagged:end_flagged + flags] = flagged[:flags]
        end_flagged += flags
        flagged_ends[k] = end_flagged


@njit(cache=True)
def read_actions(views, probes, settled, probabilities, mine_count, first_none, stepping,
                 actions, steps, rewards, invalid_reward, probed, probed_cells, probability,
                 rest, invalid):
    """The vector env's step before its probes, for the boards ``stepping`` (int64 (K)):
    which actions probe a covered cell, and what the env reports of each beforehand.

    Board b's action ``actions[b]`` (int64 (N)) probes when its cell is covered: b and
    the cell are listed in ``probed`` and ``probed_cells`` (int64 (K), the first
    returned-count entries, in ``stepping``'s order), with its mine probability on the
    position before the move in ``probability[b]`` (float64 (N)) where the answer is at
    hand: a first probe's (0, or its mines over its cells when ``first_none``, the
    ``"none"`` policy) or a settled board's (``probabilities`` float64 (N, H * W),
    ``settled`` bool (N)); ``rest[j]`` (bool (K)) marks the j-th probed board whose
    chance Python finds. Any other action is invalid (``invalid[b]`` set, bool (N)):
    reward ``invalid_reward``, probability 1 on a flag and 0 on a number. ``steps``
    (int64 (N)) counts every stepping board's step. Returns the number of probes.
    """
    size = views.shape[1]
    count = 0
    for k in range(len(stepping)):
        b = stepping[k]
        cell = actions[b]
        steps[b] += 1
        shown = views[b, cell]
        if shown != COVERED:
            invalid[b] = True
            rewards[b] = invalid_reward
            probability[b] = 1.0 if shown == FLAGGED else 0.0
            continue
        probed[count], probed_cells[count] = b, cell
        rest[count] = False
        if probes[b] == 0:
            probability[b] = mine_count[b] / size if first_none else 0.0
        elif settled[b]:
            probability[b] = probabilities[b, cell]
        else:
            rest[count] = True
        count += 1
    return count


@njit(cache=True)
def start_boards(seeds, boards, mine_count, height, width, priorities, mines, numbers, states,
                 views, totals, safe_left, probes, guesses, state, settled, first_here,
                 first_safe):
    """New random games on ``boards`` (int64 (K)), written straight into the batch's rows:
    board ``boards[k]`` gets ``MineLayout.random``'s layout of
    ``np.random.default_rng(seeds[k])`` (:func:`.layout_generator_compiled.layouts_from_seeds`'
    draw: ``priorities`` int64, ``mines`` bool, ``numbers`` int8, all (N, H * W), and the
    generator's state after it in ``states`` uint64 (N, STATE_WORDS)), an all-covered
    view, ``mine_count`` mines and counters at zero, playing, not settled; ``first_here``
    (its first click played by :func:`probe_boards`) is ``first_safe``."""
    size = height * width
    for k in range(len(boards)):
        b = boards[k]
        _permutation(seeds[k], priorities[b], states[b])
        layout_from_priorities(priorities[b], mine_count, height, width, mines[b], numbers[b])
        views[b, :] = COVERED
        totals[b] = mine_count
        safe_left[b] = size - mine_count
        probes[b] = 0
        guesses[b] = 0
        state[b] = PLAYING
        settled[b] = False
        first_here[b] = first_safe


def _start_signature() -> tuple:
    int64_1d = types.Array(types.int64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return (
        int64_1d, int64_1d, types.int64, types.int64, types.int64,
        types.Array(types.int64, 2, "C"), types.Array(types.boolean, 2, "C"),
        types.Array(types.int8, 2, "C"), types.Array(types.uint64, 2, "C"),
        types.Array(types.int8, 2, "C"), int64_1d, int64_1d, int64_1d, int64_1d,
        types.Array(types.int8, 1, "C"), bool_1d, bool_1d, types.boolean,
    )


def _read_signature() -> tuple:
    int64_1d = types.Array(types.int64, 1, "C")
    float64_1d = types.Array(types.float64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return (
        types.Array(types.int8, 2, "C"), int64_1d, bool_1d, types.Array(types.float64, 2, "C"),
        int64_1d, types.boolean, int64_1d, int64_1d, int64_1d, float64_1d, types.float64,
        int64_1d, int64_1d, float64_1d, bool_1d, bool_1d,
    )


def _signature() -> tuple:
    int8_2d = types.Array(types.int8, 2, "C")
    int64_1d = types.Array(types.int64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return (
        int8_2d, int8_2d, int8_2d, int64_1d, int64_1d, int64_1d, types.boolean, int64_1d,
        types.int64, types.int64, types.Array(types.float64, 2, "C"), bool_1d,
        types.Array(types.int8, 1, "C"), int64_1d, int64_1d, bool_1d, int64_1d, int64_1d,
        int64_1d, int64_1d, int64_1d, int64_1d, int8_2d, types.Array(types.int64, 3, "C"),
        types.Array(types.uint64, 2, "C"), bool_1d, bool_1d,
    )


SIGNATURE = _signature()
"""The one signature the vector env's batch calls :func:`probe_boards` with."""

READ_SIGNATURE = _read_signature()
"""The one signature the vector env calls :func:`read_actions` with."""

START_SIGNATURE = _start_signature()
"""The one signature the vector env's batch calls :func:`start_boards` with."""


def compile_kernels() -> None:
    """Compile :func:`probe_boards`, :func:`read_actions` and :func:`start_boards` for
    their signatures (the warm-up does)."""
    for kernel, signature in (
        (probe_boards, SIGNATURE),
        (read_actions, READ_SIGNATURE),
        (start_boards, START_SIGNATURE),
    ):
        if signature not in kernel.overloads:
            kernel.compile(signature)
