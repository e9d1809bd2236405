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
from numba.experimental import structref

from ..core.cells import COVERED, FLAGGED
from .board_batch_compiled import (
    BATCH_BUFFERS,
    LOST,
    PLAYING,
    WON,
    fields_in_order,
    probe_boards,
    read_actions,
    start_boards,
)
from .layout_generator_compiled import _step


@structref.register
class StepBuffersType(types.StructRef):
    """numba's type of :class:`StepBuffers` (one instance: :data:`STEP_BUFFERS`)."""


class StepBuffers(structref.StructRefProxy):
    """The vector env's arrays and settings a compiled step reads and writes beside the
    batch's :class:`~.board_batch_compiled.BatchBuffers`, as one object built once per
    env (:func:`step_buffers`; a ``structref`` for the reasons ``BatchBuffers`` gives).

    Its fields, the env's arrays themselves: ``observations`` uint8 (N, row) (the
    one-hot planes flat when ``planes``, else the grid's bytes), ``masks`` bool
    (N, H * W), ``steps`` int64 (N), ``stale`` bool (N); the step under way, written
    before each step or by it: ``actions`` int64 (N), ``restarting`` bool (N) (the
    boards a ``NEXT_STEP`` autoreset restarts), ``rewards`` and ``probability`` float64
    (N), ``terminated``, ``truncated`` and ``invalid`` bool (N); the step's lists, int64
    (N): ``probed``, ``probed_cells``, ``stepping``, ``restarted``, ``seeds``,
    ``opened_ends``, ``flagged_ends``, and bool (N): ``rest``, ``deferred``, ``moved``;
    ``words`` uint64 (N, 4), each board's generator (:func:`draw_seed`). Settings:
    ``mine_count``, ``invalid_reward``, ``max_steps``, ``first_none`` (the ``"none"``
    policy), ``first_python`` (a policy Python may play), ``info_probability``,
    ``progress`` (the reward) and ``planes`` (the observation).
    """


structref.define_boxing(StepBuffersType, StepBuffers)


def _step_fields() -> list[tuple[str, types.Type]]:
    int64_1d = types.Array(types.int64, 1, "C")
    float64_1d = types.Array(types.float64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return [
        ("observations", types.Array(types.uint8, 2, "C")),
        ("masks", types.Array(types.boolean, 2, "C")),
        ("steps", int64_1d),
        ("stale", bool_1d),
        ("actions", int64_1d),
        ("restarting", bool_1d),
        ("rewards", float64_1d),
        ("terminated", bool_1d),
        ("truncated", bool_1d),
        ("probability", float64_1d),
        ("invalid", bool_1d),
        ("probed", int64_1d),
        ("probed_cells", int64_1d),
        ("stepping", int64_1d),
        ("restarted", int64_1d),
        ("seeds", int64_1d),
        ("opened_ends", int64_1d),
        ("flagged_ends", int64_1d),
        ("rest", bool_1d),
        ("deferred", bool_1d),
        ("moved", bool_1d),
        ("words", types.Array(types.uint64, 2, "C")),
        ("mine_count", types.int64),
        ("invalid_reward", types.float64),
        ("max_steps", types.int64),
        ("first_none", types.boolean),
        ("first_python", types.boolean),
        ("info_probability", types.boolean),
        ("progress", types.boolean),
        ("planes", types.boolean),
    ]


STEP_FIELDS = _step_fields()
""":class:`StepBuffers`' fields and their types, in :func:`_new_step_buffers`' order."""

STEP_BUFFERS = StepBuffersType(STEP_FIELDS)
"""The one type of every :class:`StepBuffers`: the kernels compile for it once."""


@njit(cache=True)
def _new_step_buffers(observations, masks, steps, stale, actions, restarting, rewards,
                      terminated, truncated, probability, invalid, probed, probed_cells,
                      stepping, restarted, seeds, opened_ends, flagged_ends, rest, deferred,
                      moved, words, mine_count, invalid_reward, max_steps, first_none,
                      first_python, info_probability, progress, planes):
    """:class:`StepBuffers` of these fields (:func:`step_buffers` names them)."""
    step = structref.new(STEP_BUFFERS)
    step.observations = observations
    step.masks = masks
    step.steps = steps
    step.stale = stale
    step.actions = actions
    step.restarting = restarting
    step.rewards = rewards
    step.terminated = terminated
    step.truncated = truncated
    step.probability = probability
    step.invalid = invalid
    step.probed = probed
    step.probed_cells = probed_cells
    step.stepping = stepping
    step.restarted = restarted
    step.seeds = seeds
    step.opened_ends = opened_ends
    step.flagged_ends = flagged_ends
    step.rest = rest
    step.deferred = deferred
    step.moved = moved
    step.words = words
    step.mine_count = mine_count
    step.invalid_reward = invalid_reward
    step.max_steps = max_steps
    step.first_none = first_none
    step.first_python = first_python
    step.info_probability = info_probability
    step.progress = progress
    step.planes = planes
    return step


def step_buffers(**fields: object) -> StepBuffers:
    """The :class:`StepBuffers` of ``fields``, every one of :data:`STEP_FIELDS` named.

    :raises TypeError: when a field is missing or unknown.
    """
    return _new_step_buffers(*fields_in_order("step_buffers", STEP_FIELDS, fields))


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
def finish_boards(batch, step, boards, opened_cells, opened_ends, flagged_cells, flagged_ends,
                  stepping):
    """The env's outputs of the probed ``boards`` (int64 (K)) after their probes and rounds.

    Board ``boards[k]`` changed the cells the ``opened`` and ``flagged`` lists name (as
    :func:`.board_batch_compiled.probe_boards` lists them). Its reward is 1 on a win, -1 on a
    loss, else 0, plus (``step.progress``) its cells opened over its safe cells; it
    terminates on a win or a loss; its view goes stale unless it lost (a loss leaves the
    view as it was). Its changed cells are written into ``step.observations`` and cleared
    in ``step.masks``, all of its mask set once its game ended. Every board of
    ``stepping`` (int64, the boards stepped, probed or not) is truncated when it did not
    terminate and has taken ``step.max_steps`` steps. ``batch``: the
    :class:`~.board_batch_compiled.BatchBuffers`, ``step``: the :class:`StepBuffers`.
    """
    views, state, terminated = batch.views, batch.state, step.terminated
    size = views.shape[1]
    planes = step.planes
    start_opened = start_flagged = 0
    for k in range(len(boards)):
        b = boards[k]
        won = state[b] == WON
        lost = state[b] == LOST
        terminated[b] = won or lost
        reward = 1.0 if won else (-1.0 if lost else 0.0)
        if step.progress:
            safe_total = size - batch.totals[b]
            if safe_total > 0:
                reward += (opened_ends[k] - start_opened) / safe_total
        step.rewards[b] = reward
        if not lost:
            step.stale[b] = True
        view, observation, mask = views[b], step.observations[b], step.masks[b]
        _show_cells(view, observation, mask, opened_cells, start_opened, opened_ends[k], size,
                    planes)
        _show_cells(view, observation, mask, flagged_cells, start_flagged, flagged_ends[k],
                    size, planes)
        if state[b] != PLAYING:
            mask[:] = True
        start_opened, start_flagged = opened_ends[k], flagged_ends[k]
    for k in range(len(stepping)):
        b = stepping[k]
        step.truncated[b] = not terminated[b] and step.steps[b] >= step.max_steps


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
def restart_boards(batch, step, boards):
    """New random games on ``boards`` (int64 (K)): board ``boards[k]``'s layout seed drawn
    from its generator ``step.words[boards[k]]`` (:func:`draw_seed`, written to
    ``step.seeds[k]``), its game started from it with ``step.mine_count`` mines
    (:func:`.board_batch_compiled.start_boards`), its step count 0, its view stale, its
    observation all covered and its mask all True."""
    seeds = step.seeds
    for k in range(len(boards)):
        seeds[k] = draw_seed(step.words[boards[k]])
    start_boards(batch, seeds[:len(boards)], boards, step.mine_count)
    size = batch.height * batch.width
    covered = COVERED & 255
    for k in range(len(boards)):
        b = boards[k]
        step.steps[b] = 0
        step.stale[b] = True
        observation = step.observations[b]
        if step.planes:
            observation[:size] = 1
            observation[size:] = 0
        else:
            observation[:] = covered
        step.masks[b, :] = True


BAD_ACTION, PAUSED, DEFERRED, DONE = 0, 1, 2, 3
"""What :func:`step_boards` returns as its status: an action outside the board (nothing
done), paused after reading the actions (Python's part before the probes), some board's
rounds left to Python (not finished), or the whole step done."""


@njit(cache=True, nogil=True)
def step_boards(batch, step, phase, count):
    """One step of the vector env on every board, in phases a caller may resume.

    ``batch``: the :class:`~.board_batch_compiled.BatchBuffers`; ``step``: the
    :class:`StepBuffers`, ``actions`` and ``restarting`` set for this step and
    ``rewards``, ``terminated``, ``truncated``, ``probability`` and ``invalid`` cleared.

    Phase 0 checks every action is a cell (else returns :data:`BAD_ACTION`, nothing
    changed), lists the boards ``stepping`` (not ``restarting``) and reads their
    actions (:func:`.board_batch_compiled.read_actions`: ``probed``, ``probed_cells``,
    ``probability``, ``rest``, ``invalid``, the steps, the invalid actions' rewards;
    ``probability`` NaN for every probe unless ``info_probability``). It returns
    :data:`PAUSED` (with the probes' count) when Python has a part before the probes: a
    chance not at hand (``rest``) or a first click on a board whose policy Python plays
    (``first_python`` and the board not ``first_here``); the caller then calls again
    with phase 1 and that ``count``. Then :func:`restart_boards` on the boards
    ``restarted`` (listed from ``restarting``), the probes
    (:func:`.board_batch_compiled.probe_boards`) and :func:`finish_boards`;
    :data:`DEFERRED` when some board's rounds are left to Python (``deferred``,
    :func:`finish_boards` not run), else :data:`DONE`.

    Returns ``(status, count, stepped, restarts, any_moved)``: the probes, the boards in
    ``stepping[:stepped]`` and ``restarted[:restarts]``, whether some ``moved`` is set.
    """
    actions, restarting = step.actions, step.restarting
    stepping, restarted, probed = step.stepping, step.restarted, step.probed
    n = len(actions)
    size = batch.views.shape[1]
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
        count = read_actions(batch, step.first_none, stepping[:stepped], actions, step.steps,
                             step.rewards, step.invalid_reward, probed, step.probed_cells,
                             step.probability, step.rest, step.invalid)
        pause = False
        for k in range(count):
            b = probed[k]
            if not step.info_probability:
                step.probability[b] = np.nan
                step.rest[k] = False
            pause |= step.rest[k] or (step.first_python and batch.probes[b] == 0
                                      and not batch.first_here[b])
        if pause:
            return PAUSED, count, stepped, restarts, False
    restart_boards(batch, step, restarted[:restarts])
    boards = probed[:count]
    opened_ends, flagged_ends = step.opened_ends[:count], step.flagged_ends[:count]
    probe_boards(batch, boards, step.probed_cells[:count], step.deferred[:count], opened_ends,
                 flagged_ends, step.moved[:count])
    any_moved = any_deferred = False
    for k in range(count):
        any_moved |= step.moved[k]
        any_deferred |= step.deferred[k]
    if any_deferred:
        return DEFERRED, count, stepped, restarts, any_moved
    finish_boards(batch, step, boards, batch.opened_cells, opened_ends, batch.flagged_cells,
                  flagged_ends, stepping[:stepped])
    return DONE, count, stepped, restarts, any_moved


def _signatures() -> tuple[tuple, tuple, tuple]:
    """The signatures the vector env calls :func:`finish_boards`, :func:`restart_boards` and
    :func:`step_boards` with."""
    int64_1d = types.Array(types.int64, 1, "C")
    finish = (
        BATCH_BUFFERS, STEP_BUFFERS, int64_1d, int64_1d, int64_1d, int64_1d, int64_1d,
        int64_1d,
    )
    restart = (BATCH_BUFFERS, STEP_BUFFERS, int64_1d)
    step = (BATCH_BUFFERS, STEP_BUFFERS, types.int64, types.int64)
    return finish, restart, step


FINISH_SIGNATURE, RESTART_SIGNATURE, STEP_SIGNATURE = _signatures()
"""The one signature each kernel here is called with (:func:`_signatures`)."""

NEW_SIGNATURE = tuple(field_type for _, field_type in STEP_FIELDS)
"""The one signature :func:`_new_step_buffers` is called with."""


def compile_kernels() -> None:
    """Compile :func:`finish_boards`, :func:`restart_boards`, :func:`step_boards` and the
    buffers' constructor for their signatures (the warm-up does)."""
    for kernel, signature in (
        (_new_step_buffers, NEW_SIGNATURE),
        (finish_boards, FINISH_SIGNATURE),
        (restart_boards, RESTART_SIGNATURE),
        (step_boards, STEP_SIGNATURE),
    ):
        if signature not in kernel.overloads:
            kernel.compile(signature)
