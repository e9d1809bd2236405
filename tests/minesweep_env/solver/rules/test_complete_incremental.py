"""One ``complete`` instance fed position after position proves what a fresh one proves.

``Complete`` keeps its constraints between calls and re-reads only what
changed; these tests feed one instance sequences of positions (a game's own
positions, then positions that do not extend the last one: another game,
flags taken back or put on safe cells, cells marked known safe, numbers
changed) and compare every answer, errors included, with the stateless
statement of the rules in ``tests/complete_reference.py``.
"""

from __future__ import annotations

import numpy as np
from complete_reference import reference_prove
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_position

from minesweep_env import Board, Game, MineLayout
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability.frontier import read_constraints
from minesweep_env.solver.rules.complete import Complete
from minesweep_env.solver.rules.kept_constraints import TrackedConstraints


def _answer(rule, board: Board) -> tuple:
    """The proof as sets, or the error's message: what must agree."""
    try:
        proof = rule(board)
    except InconsistentBoardError as error:
        return ("error", str(error))
    return (frozenset(proof.safe), frozenset(proof.mines))


def _agrees(live: Complete, board: Board) -> None:
    want = _answer(reference_prove, board)
    assert _answer(lambda b: Complete.prove(live, b), board.copy()) == want, board.rows()
    assert _answer(Complete().prove, board.copy()) == want, board.rows()


def _tamper(board: Board, rng: np.random.Generator) -> Board:
    """A board that need not extend ``board``: a few cells changed, maybe inconsistently."""
    out = board.copy()
    flat = out.grid.reshape(-1)
    for _ in range(int(rng.integers(1, 4))):
        cell = int(rng.integers(len(flat)))
        flat[cell] = rng.choice([COVERED, FLAGGED, KNOWN_SAFE, 0, 1, 2, 3])
    if rng.random() < 0.2:
        out.total_mines = None if rng.random() < 0.5 else int(rng.integers(0, len(flat) + 1))
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_one_instance_agrees_with_a_fresh_one_on_any_sequence(seed: int) -> None:
    rng = np.random.default_rng(seed)
    live = Complete()
    previous = None
    tracked: TrackedConstraints | None = None
    for _ in range(6):
        board, _ = random_position(int(rng.integers(2**32)), max_side=7)
        for _step in range(4):
            _agrees(live, board)
            # The tracked constraints themselves: exactly a fresh read's, same order.
            try:
                fresh = read_constraints(board)
            except InconsistentBoardError:
                tracked = None
            else:
                if tracked is None or not tracked.update(board):
                    tracked = TrackedConstraints(board)
                assert tracked.constraints() == fresh
            choice = rng.random()
            if choice < 0.4 or previous is None:
                next_board = _tamper(board, rng)
            elif choice < 0.6:
                next_board = previous  # back to an earlier position
            else:
                # Play the proof out as deduce does: known-safe cells and flags.
                try:
                    proof = reference_prove(board)
                except InconsistentBoardError:
                    break
                next_board = board.copy()
                flat = next_board.grid.reshape(-1)
                flat[list(proof.safe)] = KNOWN_SAFE
                flat[list(proof.mines)] = FLAGGED
            previous, board = board, next_board


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99)]))
def test_every_call_of_a_game_agrees_with_a_fresh_instance(seed: int, size) -> None:
    """The auto-solver's own calls: each position extends the last by what was proven."""
    width, height, mines = size
    rng = np.random.default_rng(seed)
    calls = []

    class Checked(Complete):
        def prove(self, board: Board):
            calls.append(board.copy())
            _agrees(self, board)  # and the game then gets the same position's proof again
            return super().prove(board)

        def play_out(self, minefield):
            return None  # round by round: every position comes to prove

    for _ in range(3):
        game = Game(MineLayout.random(width, height, mines, rng), Checked(), "safe", seed=seed)
        while game.state == "playing":
            covered = np.flatnonzero(game.view.reshape(-1) == COVERED)
            cell = int(covered[rng.integers(len(covered))])
            game.probe(cell % width, cell // width)
    assert calls
