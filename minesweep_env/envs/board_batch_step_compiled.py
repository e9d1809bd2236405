"""The vector env's whole step in one compiled call: actions, probes, rewards, planes, new games.

:func:`.board_batch_compiled.probe_boards` plays a step's probes with their
auto-solver rounds; around it the vector env read the actions
(:func:`.board_batch_compiled.read_actions`), turned the results into its outputs with
some fifty numpy calls a step (rewards, terminations, truncations, which views
went stale), wrote the changed cells into its observation planes and masks
(:func:`.observations_compiled.show_changes`), and started the new games of the boards
that autoreset (:func:`.board_batch_compiled.start_boards`), each one's seed drawn from
its generator in Python: a few microseconds a board-step, most of what the env
did outside the probe kernel. :func:`step_boards` does all of that in one call,
the same values written into the same preallocated arrays, each board's
generator held as words (:func:`draw_seed`, ``random_raw`` bit for bit).

The pieces are separate kernels too, for the step's rare paths: a board whose
rounds Python plays on (:data:`.complete_proof_compiled.DEFER`) is finished by
:func:`finish_boards` once Python is done, and :func:`restart_boards` starts the
games of the boards a ``SAME_STEP`` autoreset restarts after their last
observation was taken.

:func:`step_boards` releases the GIL (``nogil=True``): it only reads and writes the
arrays it is handed, so shards of a batch, each with its own arrays, are stepped
by threads at once (:mod:`minesweep_env.envs.threaded`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..core.cells import COVERED, FLAGGED
from .board_batch_compiled import LOST, PLAYING, WON, probe_boards, read_actions, start_boards
from .layout_generator_compiled import _step

PLANES = 11
"""One-hot planes of the ``"planes"`` observation: covered, flagged, then the numbers 0..8
(:data:`.observations_compiled.PLANES`; the env checks its observation's shape)."""


@njit(cache=True, inline="always")
def _plane(code):
    """The plane of view code ``code`` (as ``observations.PLANE_CODES`` orders them), or
    -1 for a code no plane shows (:data:`.observations_compiled.PLANE_OF` without its table)."""
    if code == COVERED:
        return 0
    if code == FLAGGED:
        return 1
    if 0 <= code <= 8:
        return 2 + code
    return -1


@njit(cache=True)
def _show_cells(view, observation, mask, cells, start, end, size, planes):
    """Write cells ``cells[start:end]`` of one board's ``view`` into its observation row
    (``planes``: one-hot planes, flat (PLANES * size); else the grid, flat (size), the
    view's code as a byte) and clear their mask."""
    for j in range(start, end):
        cell = cells[j]
        code = view[cell]
        if planes:
            observation[cell] = 0
            observation[size + cell] = 0
            plane = _plane(code)
            if plane >= 0:
                observation[plane * size + cell] = 1
        else:
            observation[cell] = code & 255
        mask[cell] = False


@njit(cache=True)
def finish_boards(boards, views, state, totals, opened_cells, opened_ends, flagged_cells,
                  flagged_ends, progress, rewards, terminated, stale, observations, masks,
                  planes, stepping, steps, max_steps, truncated):
    """The env's outputs of the probed ``boards`` (int64 (K)) after their probes and rounds.

    Board ``boards[k]`` changed the cells the ``opened`` and ``flagged`` lists name (as
    :func:`.board_batch_compiled.probe_boards` lists them). Its reward is 1 on a win, -1 on a
    loss, else 0, plus (``progress``) its cells opened over its safe cells; it terminates
    on a win or a loss; its view goes stale unless it lost (a loss leaves the view as it
    was). Its changed cells are written into ``observations`` (uint8 (N, row), the
    one-hot planes flat when ``planes``, else the grid's bytes) and cleared in ``masks``
    (bool (N, H * W)), all of its mask set once its game ended. Every board of
    ``stepping`` (int64, the boards stepped, probed or not) is truncated when it did not
    terminate and has taken ``max_steps`` steps.
    """
    size = views.shape[1]
    start_opened = start_flagged = 0
    for k in range(len(boards)):
        b = boards[k]
        won = state[b] == WON
        lost = state[b] == LOST
        terminated[b] = won or lost
        reward = 1.0 if won else (-1.0 if lost else 0.0)
        if progress:
            safe_total = size - totals[b]
            if safe_total > 0:
                reward += (opened_ends[k] - start_opened) / safe_total
        rewards[b] = reward
        if not lost:
            stale[b] = True
        view, observation, mask = views[b], observations[b], masks[b]
        _show_cells(view, observation, mask, opened_cells, start_opened, opened_ends[k], size,
                    planes)
        _show_cells(view, observation, mask, flagged_cells, start_flagged, flagged_ends[k],
                    size, planes)
        if state[b] != PLAYING:
            mask[:] = True
        start_opened, start_flagged = opened_ends[k], flagged_ends[k]
    for k in range(len(stepping)):
        b = stepping[k]
        truncated[b] = not terminated[b] and steps[b] >= max_steps


@njit(cache=True)
def draw_seed(words):
    """``draw_layout_seed`` of a board's ``PCG64`` generator held as ``words`` (uint64: the
    128-bit state high and low, the increment high and low), stepped in place: one raw
    64-bit output (the LCG step, then XSL-RR, as ``random_raw``) shifted right once.
    numpy is the reference:
    ``tests/minesweep_env/envs/test_vector_env.py::test_draw_seed_is_numpys_raw_draw_shifted``."""
    high, low = _step(words[0], words[1], words[2], words[3])
    words[0], words[1] = high, low
    folded = high ^ low
    turn = high >> np.uint64(58)
    output = (folded >> turn) | (folded << ((np.uint64(64) - turn) & np.uint64(63)))
    return np.int64(output >> np.uint64(1))


@njit(cache=True)
def restart_boards(boards, words, seeds, mine_count, height, width, priorities, mines, numbers,
                   states, views, totals, safe_left, probes, guesses, state, settled,
                   first_here, first_safe, steps, stale, observations, masks, planes):
    """New random games on ``boards`` (int64 (K)): board ``boards[k]``'s layout seed drawn
    from its generator ``words[boards[k]]`` (:func:`draw_seed`, written to ``seeds[k]``),
    its game started from it (:func:`.board_batch_compiled.start_boards`' arguments from
    ``mine_count`` to ``first_safe``), its step count 0, its view stale, its observation
    all covered and its mask all True (:func:`finish_boards`' ``observations``,
    ``masks`` and ``planes``)."""
    for k in range(len(boards)):
        seeds[k] = draw_seed(words[boards[k]])
    start_boards(seeds[:len(boards)], boards, mine_count, height, width, priorities, mines,
                 numbers, states, views, totals, safe_left, probes, guesses, state, settled,
                 first_here, first_safe)
    size = height * width
    covered = COVERED & 255
    for k in range(len(boards)):
        b = boards[k]
        steps[b] = 0
        stale[b] = True
        observation = observations[b]
        if planes:
            observation[:size] = 1
            observation[size:] = 0
        else:
            observation[:] = covered
        masks[b, :] = True


BAD_ACTION, PAUSED, DEFERRED, DONE = 0, 1, 2, 3
"""What :func:`step_boards` returns as its status: an action outside the board (nothing
done), paused after reading the actions (Python's part before the probes), some board's
rounds left to Python (not finished), or the whole step done."""


@njit(cache=True, nogil=True)
def step_boards(actions, restarting, phase, count, first_none, first_python, info_probability,
                invalid_reward, probability, invalid, rest, probed, probed_cells, stepping,
                restarted, seeds, words,
                views, mines, numbers, totals, nothing_covered, safe_left, height, width,
                probabilities, settled, state, probes, guesses, deferred, opened, flagged,
                opened_cells, opened_ends, flagged_cells, flagged_ends, seen, track, states,
                first_here, moved, mine_count, priorities, first_safe,
                progress, rewards, terminated, truncated, stale, observations, masks, planes,
                steps, max_steps):
    """One step of the vector env on every board, in phases a caller may resume.

    Phase 0 checks every action is a cell (else returns :data:`BAD_ACTION`, nothing
    changed), lists the boards ``stepping`` (not ``restarting``, bool (N): the boards a
    ``NEXT_STEP`` autoreset restarts) and reads their actions
    (:func:`.board_batch_compiled.read_actions`: ``probed``, ``probed_cells``, ``probability``,
    ``rest``, ``invalid``, the steps, the invalid actions' rewards; ``probability`` NaN
    for every probe unless ``info_probability``). It returns :data:`PAUSED` (with the
    probes' count) when Python has a part before the probes: a chance not at hand
    (``rest``) or a first click on a board whose policy Python plays (``first_python``
    and the board not ``first_here``); the caller then calls again with phase 1 and
    that ``count``. Then :func:`restart_boards` on the boards ``restarted`` (listed from
    ``restarting``), the probes (:func:`.board_batch_compiled.probe_boards`) and
    :func:`finish_boards`; :data:`DEFERRED` when some board's rounds are left to Python
    (``deferred``, :func:`finish_boards` not run), else :data:`DONE`.

    Returns ``(status, count, stepped, restarts, any_moved)``: the probes, the boards in
    ``stepping[:stepped]`` and ``restarted[:restarts]``, whether some ``moved`` is set.
    """
    n = len(actions)
    size = views.shape[1]
    stepped = restarts = 0
    for b in range(n):
        if restarting[b]:
            restarted[restarts] = b
            restarts += 1
        else:
            stepping[stepped] = b
            stepped += 1
    if phase == 0:
        for b in range(n):
            if actions[b] < 0 or actions[b] >= size:
                return BAD_ACTION, 0, stepped, restarts, False
        count = read_actions(views, probes, settled, probabilities, totals, first_none,
                             stepping[:stepped], actions, steps, rewards, invalid_reward,
                             probed, probed_cells, probability, rest, invalid)
        pause = False
        for k in range(count):
            b = probed[k]
            if not info_probability:
                probability[b] = np.nan
                rest[k] = False
            pause |= rest[k] or (first_python and probes[b] == 0 and not first_here[b])
        if pause:
            return PAUSED, count, stepped, restarts, False
    restart_boards(restarted[:restarts], words, seeds, mine_count, height, width, priorities,
                   mines, numbers, states, views, totals, safe_left, probes, guesses, state,
                   settled, first_here, first_safe, steps, stale, observations, masks, planes)
    boards, cells = probed[:count], probed_cells[:count]
    probe_boards(views, mines, numbers, boards, cells, totals, nothing_covered, safe_left,
                 height, width, probabilities, settled, state, probes, guesses,
                 deferred[:count], opened, flagged, opened_cells, opened_ends[:count],
                 flagged_cells, flagged_ends[:count], seen, track, states, first_here,
                 moved[:count])
    any_moved = any_deferred = False
    for k in range(count):
        any_moved |= moved[k]
        any_deferred |= deferred[k]
    if any_deferred:
        return DEFERRED, count, stepped, restarts, any_moved
    finish_boards(boards, views, state, totals, opened_cells, opened_ends[:count],
                  flagged_cells, flagged_ends[:count], progress, rewards, terminated, stale,
                  observations, masks, planes, stepping[:stepped], steps, max_steps, truncated)
    return DONE, count, stepped, restarts, any_moved


def _signatures() -> tuple[tuple, tuple, tuple]:
    """The signatures the vector env calls :func:`finish_boards`, :func:`restart_boards` and
    :func:`step_boards` with."""
    int8_2d = types.Array(types.int8, 2, "C")
    uint8_2d = types.Array(types.uint8, 2, "C")
    uint64_2d = types.Array(types.uint64, 2, "C")
    int64_1d = types.Array(types.int64, 1, "C")
    int64_2d = types.Array(types.int64, 2, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    bool_2d = types.Array(types.boolean, 2, "C")
    float64_1d = types.Array(types.float64, 1, "C")
    state_1d = types.Array(types.int8, 1, "C")
    finish = (
        int64_1d, int8_2d, state_1d, int64_1d, int64_1d, int64_1d, int64_1d, int64_1d,
        types.boolean, float64_1d, bool_1d, bool_1d, uint8_2d, bool_2d, types.boolean,
        int64_1d, int64_1d, types.int64, bool_1d,
    )
    restart = (
        int64_1d, uint64_2d, int64_1d, types.int64, types.int64, types.int64, int64_2d,
        int8_2d, int8_2d, uint64_2d, int8_2d, int64_1d, int64_1d, int64_1d, int64_1d,
        state_1d, bool_1d, bool_1d, types.boolean, int64_1d, bool_1d, uint8_2d, bool_2d,
        types.boolean,
    )
    step = (
        int64_1d, bool_1d, types.int64, types.int64, types.boolean, types.boolean,
        types.boolean, types.float64, float64_1d, bool_1d, bool_1d, int64_1d, int64_1d,
        int64_1d, int64_1d, int64_1d, uint64_2d,
        int8_2d, int8_2d, int8_2d, int64_1d, types.boolean, int64_1d, types.int64,
        types.int64, types.Array(types.float64, 2, "C"), bool_1d, state_1d, int64_1d,
        int64_1d, bool_1d, int64_1d, int64_1d, int64_1d, int64_1d, int64_1d, int64_1d,
        int8_2d, types.Array(types.int64, 3, "C"), uint64_2d, bool_1d, bool_1d, types.int64,
        int64_2d, types.boolean,
        types.boolean, float64_1d, bool_1d, bool_1d, bool_1d, uint8_2d, bool_2d,
        types.boolean, int64_1d, types.int64,
    )
    return finish, restart, step


FINISH_SIGNATURE, RESTART_SIGNATURE, STEP_SIGNATURE = _signatures()
"""The one signature each kernel here is called with (:func:`_signatures`)."""


def compile_kernels() -> None:
    """Compile :func:`finish_boards`, :func:`restart_boards` and :func:`step_boards` for
    their signatures (the warm-up does)."""
    for kernel, signature in (
        (finish_boards, FINISH_SIGNATURE),
        (restart_boards, RESTART_SIGNATURE),
        (step_boards, STEP_SIGNATURE),
    ):
        if signature not in kernel.overloads:
            kernel.compile(signature)
