"""The compiled probe that keeps a game's constraints plays exactly as the one that rereads them.

``complete_kept_compiled.probe_play_tracked`` keeps each number's need and covered cells
between rounds and probes and looks only at the numbers that changed;
``complete_play_compiled.probe_play_out_into`` reads the whole board every round. Both must
open and flag the same cells in the same order, end in the same view with the same
status, and write the same probabilities, along whole games (the constraints kept
from probe to probe) and on positions changed behind the kept constraints' back (a
hand flag, a wrong flag, a new game), which must be read afresh.
"""

from __future__ import annotations

import numpy as np
import pytest

from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.layout import MineLayout

play_kernels = pytest.importorskip("minesweep_env.solver.rules.complete_play_compiled")
from minesweep_env.solver.rules import complete_kept_compiled as tracked_kernels  # noqa: E402
from minesweep_env.solver.rules import complete_proof_compiled as proof_kernels  # noqa: E402

SIZES = [(9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20), (5, 5, 3)]


class Pair:
    """One game played by both kernels side by side, with the tracked one's kept state."""

    def __init__(self, layout: MineLayout, nothing_covered: bool = False) -> None:
        self.mines = layout.mines.reshape(-1)
        self.numbers = layout.numbers.reshape(-1)
        self.total = layout.mine_count
        self.view = np.full(layout.mines.shape, COVERED, np.int8)
        self.safe_left = self.mines.size - self.total
        self.nothing_covered = nothing_covered
        size = self.mines.size
        self.seen = np.full(size, tracked_kernels.UNSEEN, np.int8)
        self.track = np.zeros((tracked_kernels.TRACK_ROWS, size), np.int64)

    def probe(self, cell: int) -> tuple:
        """Probe ``cell`` with both kernels; assert they agree; play on with the result."""
        size = self.mines.size
        results = []
        for tracked in (False, True):
            view = self.view.copy()
            opened, flagged = np.empty(size, np.int64), np.empty(size, np.int64)
            probabilities = np.full(size, -1.0)
            args = (view, self.mines, self.numbers, cell, self.total, self.nothing_covered,
                    self.safe_left, opened, flagged, probabilities)
            if tracked:
                out = tracked_kernels.probe_play_tracked(*args, self.seen, self.track)
            else:
                out = play_kernels.probe_play_out_into(*args)
            status, opened_count, flagged_count = out[0], out[1], out[2]
            settled = status == proof_kernels.FULL and not out[4] and not out[5]
            results.append((
                tuple(out), view, opened[:opened_count].tolist(), flagged[:flagged_count].tolist(),
                probabilities if settled else None,
            ))
        (want, want_view, want_opened, want_flagged, want_p), (got, view, opened, flagged, p) = (
            results
        )
        assert got == want
        assert np.array_equal(view, want_view)
        assert opened == want_opened
        assert flagged == want_flagged
        if want_p is not None:
            covered = want_view.reshape(-1) == COVERED
            assert np.array_equal(p[covered], want_p[covered])
        self.view = view
        self.safe_left = got[3]
        return got


def _play(pair: Pair, rng: np.random.Generator, tamper: float = 0.0) -> int:
    """A random masked game on ``pair``; returns the probes made."""
    probes = 0
    while True:
        covered = np.flatnonzero(pair.view.reshape(-1) == COVERED)
        if len(covered) == 0:
            return probes
        if tamper and rng.random() < tamper:
            # A hand flag (maybe wrong) or a flag taken back: the kept constraints are stale.
            cell = int(rng.choice(covered))
            pair.view.reshape(-1)[cell] = FLAGGED
            continue
        status, _, _, _, won, lost = pair.probe(int(rng.choice(covered)))
        probes += 1
        if won or lost or status == proof_kernels.DEFER:
            return probes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("nothing_covered", [False, True])
def test_whole_games_play_the_same(size, nothing_covered) -> None:
    width, height, mines = size
    rng = np.random.default_rng(width * 1000 + height + nothing_covered)
    probes = 0
    for _ in range(60):
        layout = MineLayout.random(width, height, mines, rng)
        probes += _play(Pair(layout, nothing_covered), rng)
    assert probes > 60


@pytest.mark.parametrize("size", SIZES[:3])
def test_kept_constraints_survive_a_new_game_and_hand_flags(size) -> None:
    """One kept state across games and hand-placed (sometimes wrong) flags."""
    width, height, mines = size
    rng = np.random.default_rng(7 + width)
    shared = Pair(MineLayout.random(width, height, mines, rng))
    for game in range(40):
        pair = Pair(MineLayout.random(width, height, mines, rng))
        pair.seen, pair.track = shared.seen, shared.track  # the same arrays, game after game
        _play(pair, rng, tamper=0.15 if game % 2 else 0.0)


@pytest.mark.parametrize("size", SIZES[:3])
def test_a_batch_plays_each_board_as_the_single_kernel(size) -> None:
    """``board_batch_compiled.probe_boards``: every board of a batch, step after step, as
    ``probe_play_out_into`` plays it alone: same view, verdict and counters, the cells it
    opened and flagged listed in increasing order, and the settled probabilities in the
    board's own row (boards that end start a new game, their kept constraints left as they
    are)."""
    batch_kernels = pytest.importorskip("minesweep_env.envs.board_batch_compiled")
    width, height, mines = size
    boards, cells = 12, width * height
    rng = np.random.default_rng(3 + width)
    layouts = [MineLayout.random(width, height, mines, rng) for _ in range(boards)]
    views = np.full((boards, cells), COVERED, np.int8)
    seen = np.full((boards, cells), tracked_kernels.UNSEEN, np.int8)
    track = np.zeros((boards, tracked_kernels.TRACK_ROWS, cells), np.int64)
    ended = 0
    for _ in range(40):
        all_mines = np.array([layout.mines.reshape(-1) for layout in layouts], np.int8)
        all_numbers = np.array([layout.numbers.reshape(-1) for layout in layouts], np.int8)
        totals = np.array([layout.mine_count for layout in layouts], np.int64)
        safe_left = cells - totals - (views >= 0).sum(axis=1)
        playing = np.arange(boards, dtype=np.int64)
        probes = np.array([rng.choice(np.flatnonzero(view == COVERED)) for view in views])
        want = []
        for board, cell in zip(playing, probes, strict=True):
            view = views[board].reshape(height, width).copy()
            opened, flagged, chances = (np.empty(cells, np.int64), np.empty(cells, np.int64),
                                        np.empty(cells))
            out = play_kernels.probe_play_out_into(
                view, all_mines[board].astype(bool), all_numbers[board], int(cell),
                int(totals[board]), False, int(safe_left[board]), opened, flagged, chances,
            )
            want.append((out, view.reshape(-1), np.sort(opened[:out[1]]),
                         np.sort(flagged[:out[2]]), chances))
        state, settled, deferred = (np.zeros(boards, np.int8), np.zeros(boards, bool),
                                    np.zeros(boards, bool))
        counters = np.zeros(boards, np.int64), np.zeros(boards, np.int64)
        probabilities = np.empty((boards, cells))
        opened_cells, flagged_cells = (np.empty(boards * cells, np.int64),
                                       np.empty(boards * cells, np.int64))
        opened_ends, flagged_ends = np.empty(boards, np.int64), np.empty(boards, np.int64)
        batch = batch_kernels.batch_buffers(
            views=views, mines=all_mines, numbers=all_numbers,
            priorities=np.zeros((boards, cells), np.int64),
            states=np.zeros((boards, 6), np.uint64), totals=totals, safe_left=safe_left,
            probes=counters[0], guesses=counters[1], state=state, settled=settled,
            probabilities=probabilities, first_here=np.zeros(boards, bool),  # no first click
            seen=seen, track=track, opened=np.empty(cells, np.int64),
            flagged=np.empty(cells, np.int64), opened_cells=opened_cells,
            flagged_cells=flagged_cells, height=height, width=width, nothing_covered=False,
            first_safe=False,
        )
        batch_kernels.probe_boards(batch, playing, probes.astype(np.int64), deferred,
                                   opened_ends, flagged_ends, np.empty(boards, bool))
        assert (counters[0] == 1).all() and (counters[1] == 1).all()
        for board, (out, view, opened, flagged, chances) in enumerate(want):
            status, _, _, left, won, lost = out
            code = (batch_kernels.LOST if lost else batch_kernels.WON if won
                    else batch_kernels.PLAYING)
            assert (state[board], safe_left[board]) == (code, left)
            assert np.array_equal(views[board], view)
            first = opened_ends[board - 1] if board else 0
            assert np.array_equal(opened_cells[first:opened_ends[board]], opened)
            first = flagged_ends[board - 1] if board else 0
            assert np.array_equal(flagged_cells[first:flagged_ends[board]], flagged)
            going = not won and not lost
            assert settled[board] == (going and status == proof_kernels.FULL)
            assert deferred[board] == (going and status == proof_kernels.DEFER)
            if settled[board]:  # a covered cell's chance (the others' entries are not read)
                covered = view == COVERED
                assert np.array_equal(probabilities[board][covered], chances[covered])
            if not going or status == proof_kernels.DEFER:
                ended += 1
                layouts[board] = MineLayout.random(width, height, mines, rng)
                views[board] = COVERED
    assert ended > boards


def test_one_track_serves_boards_of_one_size_and_two_widths() -> None:
    """30x16 and 16x30 boards have the same cells, so a track made for one fits the other;
    the counts stored for one width must not serve the other (a number's index and mask
    name other cells there)."""
    rng = np.random.default_rng(23)
    shared = Pair(MineLayout.random(30, 16, 99, rng))
    for game in range(30):
        width, height = (30, 16) if game % 2 else (16, 30)
        pair = Pair(MineLayout.random(width, height, 99, rng))
        pair.seen, pair.track = shared.seen, shared.track
        _play(pair, rng)


def _positions(width, height, mines, rng, games):
    """Views a random masked game settles on (a full count that proved nothing), in order."""
    for _ in range(games):
        pair = Pair(MineLayout.random(width, height, mines, rng))
        while True:
            covered = np.flatnonzero(pair.view.reshape(-1) == COVERED)
            status, _, _, _, won, lost = pair.probe(int(rng.choice(covered)))
            if won or lost or status != proof_kernels.FULL:
                break
            yield pair.view.reshape(-1).copy()


def _set_up(flat, height, width):
    """The groups and components :func:`complete_kept_compiled._full_count_kept` counts
    on ``flat``."""
    from minesweep_env.solver.probability.counting_groups_compiled import set_up_groups

    track = np.zeros((tracked_kernels.TRACK_ROWS, flat.size), np.int64)
    assert tracked_kernels._read_all(flat, height, width, track) >= 0
    covered = int((flat == COVERED).sum())
    cells, keys, _, constraint_at, needs, numbers, count = tracked_kernels._kept_frontier(
        height, width, covered, track
    )
    _, _, order, group_start, setup = set_up_groups(cells, keys, height, width, constraint_at,
                                                    needs, count)
    return track, order, group_start, setup, numbers, count


@pytest.mark.parametrize("size", [(30, 16, 99), (16, 16, 40)])
def test_counts_kept_from_count_to_count_are_the_counts(size) -> None:
    """``_count_kept`` along a game's positions, its store kept from one to the next, gives
    ``count_components``' floats bit for bit; the components the last count had are taken
    from the store (checked by spoiling a stored count: the spoiled value then shows)."""
    from minesweep_env.solver.probability.counting_compiled import count_components

    width, height, mines = size
    rng = np.random.default_rng(5 + width)
    first = tracked_kernels.COUNTED_AT
    store = np.zeros((tracked_kernels.TRACK_ROWS - first, width * height), np.int64)
    reused = 0
    for flat in _positions(width, height, mines, rng, 30):
        track, order, group_start, setup, numbers, count = _set_up(flat, height, width)
        want = count_components(order, group_start, setup)
        track[first:] = store
        got = tracked_kernels._count_kept(order, group_start, setup, numbers, count, width, track)
        for a, b in zip(got, want, strict=True):
            assert np.array_equal(a, b)
        after = track[first:].copy()
        # Spoil the first layout count of every component the store holds, and count again.
        track[first:] = store
        index, kept = track[first], track[first + 1:].reshape(-1)
        half = (kept.size - 2) // 2
        keys, key_start = tracked_kernels._constraint_keys(
            order, group_start, setup[1], setup[2], numbers, setup[3], count, track
        )
        spoiled = []  # (a component of one group is never stored)
        for c in range(len(group_start) - 1):
            groups = group_start[c + 1] - group_start[c]
            at = tracked_kernels._stored_at(index, kept, half, kept[0], keys, key_start[c],
                                            key_start[c + 1], groups)
            if at >= 0:  # its layouts follow its head and its key
                data = at + tracked_kernels._HEAD + key_start[c + 1] - key_start[c]
                kept.view(np.float64)[data] = 7.0
                spoiled.append(c)
        if spoiled:
            low, layouts = want[2], tracked_kernels._count_kept(
                order, group_start, setup, numbers, count, width, track
            )[1]
            for c in spoiled:
                assert layouts[c, low[c]] == 7.0 != want[1][c, low[c]]
            reused += len(spoiled)
        store = after
    assert reused > 10


@pytest.mark.parametrize("width, height", [(30, 16), (5, 5), (3, 7), (1, 4)])
def test_window_reads_at_fixed_offsets_as_read_window(width, height) -> None:
    """The fixed-offset read of a window inside the board (and the bounded one at the
    edges) gives what ``kernels.read_window`` gives, for every cell of random views."""
    from minesweep_env.solver.probability.counting_groups_compiled import read_window

    rng = np.random.default_rng(width * 100 + height)
    for _ in range(20):
        flat = rng.choice(np.array([COVERED, FLAGGED, 0, 1, 2, 3], np.int8), width * height)
        for cell in range(width * height):
            assert tracked_kernels._window(cell, flat, height, width) == read_window(
                cell, flat, height, width
            )


def test_a_batch_sorts_its_cells_as_numpy() -> None:
    """``board_batch_compiled.sort_cells`` (insertion for short lists, a pass over the board for
    long ones) orders any list of distinct cells as ``np.sort``, and leaves its marks clear."""
    from minesweep_env.envs import board_batch_compiled as batch_kernels

    rng = np.random.default_rng(7)
    marks = np.zeros(480, np.bool_)
    for count in [0, 1, 2, 5, batch_kernels.SORT_BY_SCAN, batch_kernels.SORT_BY_SCAN + 1, 200,
                  480]:
        for _ in range(5):
            cells = np.zeros(480, np.int64)
            cells[:count] = rng.choice(480, count, replace=False)
            want = np.sort(cells[:count])
            batch_kernels.sort_cells(cells, count, marks)
            assert cells[:count].tolist() == want.tolist()
            assert not marks.any()
