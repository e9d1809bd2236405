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

Every kernel here takes the batch's arrays as one :class:`BatchBuffers`, built once
per batch (:func:`batch_buffers`), not as dozens of positional arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.experimental import structref

from ..core.cells import COVERED, FLAGGED
from ..solver.rules.complete_kept_compiled import probe_play_tracked, sort_prefix
from ..solver.rules.complete_play_compiled import layout_from_priorities
from ..solver.rules.complete_proof_compiled import DEFER, FULL
from .layout_generator_compiled import _permutation, choose_one_compiled

PLAYING, WON, LOST = 0, 1, 2
"""``BoardBatch.state``'s codes (:mod:`minesweep_env.envs.board_batch`; a test checks)."""


@structref.register
class BatchBuffersType(types.StructRef):
    """numba's type of :class:`BatchBuffers` (one instance: :data:`BATCH_BUFFERS`)."""


class BatchBuffers(structref.StructRefProxy):
    """A batch's arrays and settings as one object the kernels take, built once per
    :class:`~minesweep_env.envs.board_batch.BoardBatch` (:func:`batch_buffers`).

    Why a ``structref`` and not a namedtuple of the arrays or a ``jitclass``: numba
    types a namedtuple argument in Python, array by array, on every call (about twice
    the cost of passing the arrays one by one), and a function taking a ``jitclass``
    cannot be cached; a ``structref`` is typed from its proxy at once, handed over as
    one pointer, and its kernels cache (``cache=True``) like any other.

    Its fields, the batch's arrays themselves (no copies; every row is a board):
    ``views``, ``mines`` (1 on a mine) and ``numbers`` int8 (N, H * W); ``priorities``
    int64 (N, H * W); ``states`` uint64 (N, STATE_WORDS), each game's generator after
    its layout draw; ``totals`` (mines), ``safe_left``, ``probes`` and ``guesses`` int64
    (N); ``state`` int8 (N); ``settled`` bool (N) and ``probabilities`` float64
    (N, H * W); ``first_here`` bool (N), the boards whose ``"safe"`` first click the
    kernels play; ``seen`` int8 (N, H * W) and ``track`` int64 (N, TRACK_ROWS, H * W),
    each board's kept constraints; scratch: ``opened`` and ``flagged`` int64 (H * W),
    ``opened_cells`` and ``flagged_cells`` int64 (N * H * W). Settings: ``height``,
    ``width``, ``nothing_covered`` (the win rule) and ``first_safe`` (the ``"safe"``
    first-click policy).
    """


structref.define_boxing(BatchBuffersType, BatchBuffers)


def _batch_fields() -> list[tuple[str, types.Type]]:
    int8_2d = types.Array(types.int8, 2, "C")
    int64_1d = types.Array(types.int64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return [
        ("views", int8_2d),
        ("mines", int8_2d),
        ("numbers", int8_2d),
        ("priorities", types.Array(types.int64, 2, "C")),
        ("states", types.Array(types.uint64, 2, "C")),
        ("totals", int64_1d),
        ("safe_left", int64_1d),
        ("probes", int64_1d),
        ("guesses", int64_1d),
        ("state", types.Array(types.int8, 1, "C")),
        ("settled", bool_1d),
        ("probabilities", types.Array(types.float64, 2, "C")),
        ("first_here", bool_1d),
        ("seen", int8_2d),
        ("track", types.Array(types.int64, 3, "C")),
        ("opened", int64_1d),
        ("flagged", int64_1d),
        ("opened_cells", int64_1d),
        ("flagged_cells", int64_1d),
        ("height", types.int64),
        ("width", types.int64),
        ("nothing_covered", types.boolean),
        ("first_safe", types.boolean),
    ]


BATCH_FIELDS = _batch_fields()
""":class:`BatchBuffers`' fields and their types, in :func:`_new_batch_buffers`' order."""

BATCH_BUFFERS = BatchBuffersType(BATCH_FIELDS)
"""The one type of every :class:`BatchBuffers`: the kernels compile for it once."""


@njit(cache=True)
def _new_batch_buffers(views, mines, numbers, priorities, states, totals, safe_left, probes,
                       guesses, state, settled, probabilities, first_here, seen, track, opened,
                       flagged, opened_cells, flagged_cells, height, width, nothing_covered,
                       first_safe):
    """:class:`BatchBuffers` of these fields (:func:`batch_buffers` names them)."""
    batch = structref.new(BATCH_BUFFERS)
    batch.views = views
    batch.mines = mines
    batch.numbers = numbers
    batch.priorities = priorities
    batch.states = states
    batch.totals = totals
    batch.safe_left = safe_left
    batch.probes = probes
    batch.guesses = guesses
    batch.state = state
    batch.settled = settled
    batch.probabilities = probabilities
    batch.first_here = first_here
    batch.seen = seen
    batch.track = track
    batch.opened = opened
    batch.flagged = flagged
    batch.opened_cells = opened_cells
    batch.flagged_cells = flagged_cells
    batch.height = height
    batch.width = width
    batch.nothing_covered = nothing_covered
    batch.first_safe = first_safe
    return batch


def fields_in_order(maker: str, declared: list, fields: dict[str, object]) -> list[object]:
    """The values of ``fields`` in the order of ``declared`` ((name, type) pairs), for a
    structref's constructor, which takes them by position.

    :raises TypeError: naming ``maker``, when a field is missing or unknown.
    """
    names = [name for name, _ in declared]
    if sorted(fields) != sorted(names):
        missing, unknown = set(names) - set(fields), set(fields) - set(names)
        raise TypeError(f"{maker}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    return [fields[name] for name in names]


def batch_buffers(**fields: object) -> BatchBuffers:
    """The :class:`BatchBuffers` of ``fields``, every one of :data:`BATCH_FIELDS` named.

    :raises TypeError: when a field is missing or unknown.
    """
    return _new_batch_buffers(*fields_in_order("batch_buffers", BATCH_FIELDS, fields))


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
def probe_boards(batch, boards, cells, deferred, opened_ends, flagged_ends, moved):
    """Probe ``cells[k]`` on board ``boards[k]`` for every k and play its auto-solver.

    :param batch: the batch's :class:`BatchBuffers`. Each probed board's ``views`` row
        changes in place; ``safe_left`` is updated; ``state`` set to :data:`WON` or
        :data:`LOST` where the game ended; ``probes`` and ``guesses`` counted up by one;
        ``probabilities`` holds the board's position's probabilities where ``settled``
        is set (a full count settled it and the game goes on; other rows of probed
        boards hold anything); the ``seen`` and ``track`` rows keep its constraints
        (:mod:`.complete_kept_compiled`); a ``"safe"`` first click onto a mine on a
        board ``first_here`` marks moves that mine (:func:`move_first_mine`, from the
        generator state in ``states``).
    :param deferred: bool (len(boards)): the boards whose rounds Python plays on.
    :param opened_ends: int64 (len(boards)): the cells board ``boards[k]`` opened are
        ``batch.opened_cells[opened_ends[k - 1]:opened_ends[k]]`` (from 0 for k = 0), in
        increasing order; ``flagged_ends`` the same for ``batch.flagged_cells``.
    :param moved: bool (len(boards)) set where a first click moved a mine.
    """
    height, width = batch.height, batch.width
    views, mines, numbers, states = batch.views, batch.mines, batch.numbers, batch.states
    probes, opened, flagged = batch.probes, batch.opened, batch.flagged
    end_opened = end_flagged = 0
    marks = np.zeros(height * width, np.bool_)  # sort_cells' scratch, left all False
    for k in range(len(boards)):
        b = boards[k]
        moved[k] = probes[b] == 0 and batch.first_here[b] and mines[b, cells[k]] != 0
        if moved[k]:
            move_first_mine(mines[b], numbers[b], states[b], cells[k], height, width)
        probes[b] += 1
        batch.guesses[b] += 1
        status, count, flags, left, won, lost = probe_play_tracked(
            views[b].reshape((height, width)), mines[b], numbers[b], cells[k],
            batch.totals[b], batch.nothing_covered, batch.safe_left[b], opened, flagged,
            batch.probabilities[b], batch.seen[b], batch.track[b],
        )
        batch.safe_left[b] = left
        if lost:
            batch.state[b] = LOST
        elif won:
            batch.state[b] = WON
        playing = not won and not lost
        batch.settled[b] = playing and status == FULL
        deferred[k] = playing and status == DEFER
        sort_cells(opened, count, marks)
        batch.opened_cells[end_opened:end_opened + count] = opened[:count]
        end_opened += count
        opened_ends[k] = end_opened
        sort_cells(flagged, flags, marks)
        batch.flagged_cells[end_flagged:end_flagged + flags] = flagged[:flags]
        end_flagged += flags
        flagged_ends[k] = end_flagged


@njit(cache=True)
def read_actions(batch, first_none, stepping, actions, steps, rewards, invalid_reward, probed,
                 probed_cells, probability, rest, invalid):
    """The vector env's step before its probes, for the boards ``stepping`` (int64 (K)):
    which actions probe a covered cell, and what the env reports of each beforehand.

    Board b's action ``actions[b]`` (int64 (N)) probes when its cell is covered: b and
    the cell are listed in ``probed`` and ``probed_cells`` (int64 (K), the first
    returned-count entries, in ``stepping``'s order), with its mine probability on the
    position before the move in ``probability[b]`` (float64 (N)) where the answer is at
    hand: a first probe's (0, or its mines over its cells when ``first_none``, the
    ``"none"`` policy) or a settled board's (the :class:`BatchBuffers` ``batch``'s
    ``probabilities`` where ``settled``); ``rest[j]`` (bool (K)) marks the j-th probed board whose
    chance Python finds. Any other action is invalid (``invalid[b]`` set, bool (N)):
    reward ``invalid_reward``, probability 1 on a flag and 0 on a number. ``steps``
    (int64 (N)) counts every stepping board's step. Returns the number of probes.
    """
    views, probes, settled = batch.views, batch.probes, batch.settled
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
            probability[b] = batch.totals[b] / size if first_none else 0.0
        elif settled[b]:
            probability[b] = batch.probabilities[b, cell]
        else:
            rest[count] = True
        count += 1
    return count


@njit(cache=True)
def start_boards(batch, seeds, boards, mine_count):
    """New random games on ``boards`` (int64 (K)), written straight into the rows of the
    :class:`BatchBuffers` ``batch``: board ``boards[k]`` gets ``MineLayout.random``'s
    layout of ``np.random.default_rng(seeds[k])``
    (:func:`.layout_generator_compiled.layouts_from_seeds`' draw: its ``priorities``,
    ``mines`` and ``numbers``, and the generator's state after it in ``states``), an
    all-covered view, ``mine_count`` mines and counters at zero, playing, not settled;
    ``first_here`` (its first click played by :func:`probe_boards`) is ``first_safe``."""
    height, width = batch.height, batch.width
    size = height * width
    for k in range(len(boards)):
        b = boards[k]
        _permutation(seeds[k], batch.priorities[b], batch.states[b])
        layout_from_priorities(batch.priorities[b], mine_count, height, width, batch.mines[b],
                               batch.numbers[b])
        batch.views[b, :] = COVERED
        batch.totals[b] = mine_count
        batch.safe_left[b] = size - mine_count
        batch.probes[b] = 0
        batch.guesses[b] = 0
        batch.state[b] = PLAYING
        batch.settled[b] = False
        batch.first_here[b] = batch.first_safe


def _read_signature() -> tuple:
    int64_1d = types.Array(types.int64, 1, "C")
    float64_1d = types.Array(types.float64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return (
        BATCH_BUFFERS, types.boolean, int64_1d, int64_1d, int64_1d, float64_1d, types.float64,
        int64_1d, int64_1d, float64_1d, bool_1d, bool_1d,
    )


def _signature() -> tuple:
    int64_1d = types.Array(types.int64, 1, "C")
    bool_1d = types.Array(types.boolean, 1, "C")
    return (BATCH_BUFFERS, int64_1d, int64_1d, bool_1d, int64_1d, int64_1d, bool_1d)


NEW_SIGNATURE = tuple(field_type for _, field_type in BATCH_FIELDS)
"""The one signature :func:`_new_batch_buffers` is called with."""

SIGNATURE = _signature()
"""The one signature the vector env's batch calls :func:`probe_boards` with."""

READ_SIGNATURE = _read_signature()
"""The one signature the vector env calls :func:`read_actions` with."""

START_SIGNATURE = (
    BATCH_BUFFERS, types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C"), types.int64
)
"""The one signature the vector env's batch calls :func:`start_boards` with."""


def compile_kernels() -> None:
    """Compile :func:`probe_boards`, :func:`read_actions`, :func:`start_boards` and the
    buffers' constructor for their signatures (the warm-up does)."""
    for kernel, signature in (
        (_new_batch_buffers, NEW_SIGNATURE),
        (probe_boards, SIGNATURE),
        (read_actions, READ_SIGNATURE),
        (start_boards, START_SIGNATURE),
    ):
        if signature not in kernel.overloads:
            kernel.compile(signature)
