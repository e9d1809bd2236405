"""The vector env's whole step in one compiled call: probes, rewards, ends, planes, new games.

:func:`.batch_kernels.probe_boards` plays a step's probes with their
auto-solver rounds; around it the vector env turned the results into its
outputs with some fifty numpy calls a step on the step's boards (rewards,
terminations, truncations, which views went stale), wrote the changed cells
into its observation planes and masks (:func:`.view_kernels.show_changes`), and
started the new games of the boards that autoreset
(:func:`.batch_kernels.start_boards`) with their planes all covered: a few
microseconds a board-step, a third of what the env did outside the probe
kernel. :func:`step_boards` does all of that in one loop over the boards, the
same values written into the same preallocated arrays.

The pieces are separate kernels too, for the step's rare paths: a board whose
rounds Python plays on (:func:`.proof_kernels.DEFER`) is finished by
:func:`finish_boards` once Python is done, and :func:`restart_boards` starts the
games of the boards a ``SAME_STEP`` autoreset restarts after their last
observation was taken.
"""

from __future__ import annotations

from numba import njit, types

from ...core.cells import COVERED, FLAGGED
from .batch_kernels import LOST, PLAYING, WON, probe_boards, start_boards

PLANES = 11
"""One-hot planes of the ``"planes"`` observation: covered, flagged, then the numbers 0..8
(:data:`.view_kernels.PLANES`; the env checks its observation's shape)."""


@njit(cache=True, inline="always")
def _plane(code):
    """The plane of view code ``code`` (as ``observations.PLANE_CODES`` orders them), or
    -1 for a code no plane shows (:data:`.view_kernels.PLANE_OF` without its table)."""
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
    :func:`.batch_kernels.probe_boards` lists them). Its reward is 1 on a win, -1 on a
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
def restart_boards(boards, seeds, mine_count, height, width, priorities, mines, numbers, states,
                   views, totals, safe_left, probes, guesses, state, settled, first_here,
                   first_safe, steps, stale, observations, masks, planes):
    """New random games on ``boards`` (:func:`.batch_kernels.start_boards`' arguments up to
    ``first_safe``), their step counts at 0, their views stale, their observations all
    covered and their masks all True (:func:`finish_boards`' ``observations``, ``masks``
    and ``planes``)."""
    start_boards(seeds, boards, mine_count, height, width, priorities, mines, numbers, states,
                 views, totals, safe_left, probes, guesses, state, settled, first_here,
                 first_safe)
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


@njit(cache=True)
def step_boards(views, mines, numbers, boards, cells, totals, nothing_covered, safe_left,
                height, width, probabilities, settled, state, probes, guesses, deferred,
                opened, flagged, opened_cells, opened_ends, flagged_cells, flagged_ends,
                seen, track, states, first_here, moved,
                progress, rewards, terminated, stale, observations, masks, planes, stepping,
                steps, max_steps, truncated,
                restarted, seeds, mine_count, priorities, first_safe):
    """One step of the vector env on every board: :func:`restart_boards` on the boards
    ``restarted`` (an autoreset: new games from ``seeds``), then
    :func:`.batch_kernels.probe_boards` on the boards ``boards`` (its arguments, up to
    ``moved``), then :func:`finish_boards` (its arguments, from ``progress``).

    Returns ``(finished, any_moved)``: ``finished`` is False when some board's rounds
    are left to Python (``deferred``); then :func:`finish_boards` was not run, and the
    caller runs it once Python has played them. ``any_moved``: some ``moved`` is set.
    """
    restart_boards(restarted, seeds, mine_count, height, width, priorities, mines, numbers,
                   states, views, totals, safe_left, probes, guesses, state, settled,
                   first_here, first_safe, steps, stale, observations, masks, planes)
    probe_boards(views, mines, numbers, boards, cells, totals, nothing_covered, safe_left,
                 height, width, probabilities, settled, state, probes, guesses, deferred,
                 opened, flagged, opened_cells, opened_ends, flagged_cells, flagged_ends,
                 seen, track, states, first_here, moved)
    any_moved = finished = False
    for k in range(len(boards)):
        any_moved |= moved[k]
        finished |= deferred[k]
    finished = not finished
    if finished:
        finish_boards(boards, views, state, totals, opened_cells, opened_ends, flagged_cells,
                      flagged_ends, progress, rewards, terminated, stale, observations, masks,
                      planes, stepping, steps, max_steps, truncated)
    return finished, any_moved


def _signatures() -> tuple[tuple, tuple, tuple]:
    """The signatures the vector env calls :func:`finish_boards`, :func:`restart_boards` and
    :func:`step_boards` with."""
    int8_2d = types.Array(types.int8, 2, "C")
    uint8_2d = types.Array(types.uint8, 2, "C")
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
        int64_1d, int64_1d, types.int64, types.int64, types.int64, int64_2d, int8_2d, int8_2d,
        types.Array(types.uint64, 2, "C"), int8_2d, int64_1d, int64_1d, int64_1d, int64_1d,
        state_1d, bool_1d, bool_1d, types.boolean, int64_1d, bool_1d, uint8_2d, bool_2d,
        types.boolean,
    )
    step = (
        int8_2d, int8_2d, int8_2d, int64_1d, int64_1d, int64_1d, types.boolean, int64_1d,
        types.int64, types.int64, types.Array(types.float64, 2, "C"), bool_1d, state_1d,
        int64_1d, int64_1d, bool_1d, int64_1d, int64_1d, int64_1d, int64_1d, int64_1d,
        int64_1d, int8_2d, types.Array(types.int64, 3, "C"), types.Array(types.uint64, 2, "C"),
        bool_1d, bool_1d,
        types.boolean, float64_1d, bool_1d, bool_1d, uint8_2d, bool_2d, types.boolean,
        int64_1d, int64_1d, types.int64, bool_1d,
        int64_1d, int64_1d, types.int64, int64_2d, types.boolean,
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
