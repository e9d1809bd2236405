"""The solver's readers share no mutable state: two threads on same-size boards.

The terminal game counts probabilities on a worker thread while the ``complete``
rule set reads the same position's constraints on the main thread; both go
through :func:`read_constraints` on boards of one size.
"""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from minesweep_env import Board, Minefield, MineLayout
from minesweep_env.core.cells import COVERED
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability.frontier import read_constraints
from minesweep_env.solver.rules.number_constraints import number_constraints

CALLS = 3_000
"""Calls per thread; the old shared buffer failed within a few hundred."""


def played_expert_positions(seed: int, count: int) -> list[Board]:
    """Positions of random expert games, probing random safe cells."""
    rng = np.random.default_rng(seed)
    boards: list[Board] = []
    while len(boards) < count:
        field = Minefield(MineLayout.random(30, 16, 99, rng), first_click="zero", rng=rng)
        field.probe(15, 8)
        while field.state == "playing" and len(boards) < count:
            boards.append(field.board())
            safe = np.flatnonzero(
                (field.view.reshape(-1) == COVERED) & ~field.layout.mines.reshape(-1)
            )
            pick = int(rng.choice(safe))
            field.probe(pick % 30, pick // 30)
    return boards


def outcome(reader, board: Board):
    """What ``reader`` makes of ``board``: its result, or its error message."""
    try:
        return reader(board)
    except InconsistentBoardError as error:
        return f"error: {error}"


def two_threads(reader, boards: list[Board]) -> list[tuple[int, object]]:
    """(board index, outcome) of ``CALLS`` calls on each of two threads, interleaved boards."""
    results: list[list[tuple[int, object]]] = [[], []]

    def work(slot: int) -> None:
        for k in range(CALLS):
            index = (2 * k + slot) % len(boards)
            results[slot].append((index, outcome(reader, boards[index])))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(slot,)) for slot in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(results[0]) == len(results[1]) == CALLS
    return results[0] + results[1]


@pytest.mark.parametrize("reader", [read_constraints, number_constraints])
def test_readers_agree_across_threads(reader) -> None:
    boards = played_expert_positions(seed=3, count=40)
    expected = [outcome(reader, board) for board in boards]
    wrong = [index for index, got in two_threads(reader, boards) if got != expected[index]]
    assert not wrong, f"{len(wrong)} results differ from the one-thread result"
