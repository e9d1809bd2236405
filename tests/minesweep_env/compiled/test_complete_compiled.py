"""Rule set ``complete``'s compiled proof against the stateless statement of its rules.

``minesweep_env.solver.rules.complete_compiled.complete_proof`` must return exactly what
``tests/complete_reference.py`` returns, on every position it answers, and hand
back (``None``) every position the reference rejects with an error, so that the
Python path raises it. Positions: random consistent ones, the same tampered
(inconsistent numbers, wrong flags, cells marked known safe, another or no
mine total), the auto-solver's own positions in real games, and positions whose
counts a float only holds scaled. The Python path itself (``_prove_exactly``,
what answers when the kernels are not loaded) is held to the same reference.
"""

from __future__ import annotations

import numpy as np
import pytest
from complete_reference import reference_prove
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_position

from minesweep_env import Board, Game, MineLayout, compiled
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability.engine_compiled import fast_mine_probabilities
from minesweep_env.solver.rules.complete import Complete
from minesweep_env.solver.rules.complete_compiled import complete_proof
from minesweep_env.solver.rules.complete_proof_compiled import MAX_COVERED


def _reference(board: Board) -> tuple | None:
    """The reference's proof as sets, or ``None`` where it raises."""
    try:
        proof = reference_prove(board)
    except InconsistentBoardError:
        return None
    return (frozenset(proof.safe), frozenset(proof.mines))


def _assert_agrees(board: Board) -> None:
    want = _reference(board)
    got = complete_proof(board.copy())
    if want is None:
        assert got is None, board.rows()
        return
    if got is None:
        # Handed back although consistent: only a count the kernel cannot hold may be.
        assert fast_mine_probabilities(board) is None, board.rows()
        return
    assert (frozenset(got[0]), frozenset(got[1])) == want, (board.rows(), board.total_mines)


def _tamper(board: Board, rng: np.random.Generator) -> Board:
    out = board.copy()
    flat = out.grid.reshape(-1)
    for _ in range(int(rng.integers(1, 4))):
        flat[int(rng.integers(len(flat)))] = rng.choice([COVERED, FLAGGED, KNOWN_SAFE, 0, 1, 2, 3])
    if rng.random() < 0.3:
        out.total_mines = None if rng.random() < 0.5 else int(rng.integers(0, len(flat) + 1))
    return out


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 12), st.booleans(), st.booleans())
def test_random_positions_agree_with_the_reference(seed, side, tampered, no_total) -> None:
    rng = np.random.default_rng(seed)
    board, _ = random_position(seed, max_side=side, flag_share=float(rng.random()))
    if tampered:
        board = _tamper(board, rng)
    if no_total:
        board.total_mines = None
    _assert_agrees(board)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99)]))
def test_the_auto_solvers_positions_agree_with_the_reference(seed: int, size) -> None:
    """Every position the auto-solver hands ``complete`` in random games."""
    width, height, mines = size
    rng = np.random.default_rng(seed)
    seen = []

    class Checked(Complete):
        def prove(self, board: Board):
            seen.append(board.copy())
            _assert_agrees(board)
            return super().prove(board)

        def play_out(self, minefield):
            return None  # round by round: every position comes to prove

    for _ in range(3):
        game = Game(MineLayout.random(width, height, mines, rng), Checked(), "safe", seed=seed)
        while game.state == "playing":
            covered = np.flatnonzero(game.view.reshape(-1) == COVERED)
            cell = int(covered[rng.integers(len(covered))])
            game.probe(cell % width, cell // width)
    assert seen


class _RoundByRound(Complete):
    def play_out(self, minefield):
        return None


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20)]),
    st.sampled_from(["safe-cells-opened", "nothing-covered"]),
)
def test_the_compiled_auto_solver_plays_as_round_by_round(seed: int, size, win_rule) -> None:
    """One compiled call per probe leaves every game where the rounds of ``prove`` do."""
    width, height, mines = size
    rng = np.random.default_rng(seed)
    for _ in range(3):
        layout = MineLayout.random(width, height, mines, rng)
        fast_game = Game(layout, "complete", "safe", seed=seed, win_rule=win_rule)
        slow_game = Game(layout, _RoundByRound(), "safe", seed=seed, win_rule=win_rule)
        while fast_game.state == "playing":
            covered = np.flatnonzero(fast_game.view.reshape(-1) == COVERED)
            cell = int(covered[rng.integers(len(covered))])
            fast_game.probe(cell % width, cell // width)
            slow_game.probe(cell % width, cell // width)
            assert np.array_equal(fast_game.view, slow_game.view)
            assert fast_game.state == slow_game.state
            assert fast_game.minefield.safe_cells_left == slow_game.minefield.safe_cells_left
            assert sorted(fast_game.last_opened) == sorted(slow_game.last_opened)
            assert sorted(fast_game.last_flagged) == sorted(slow_game.last_flagged)
            assert len(fast_game.last_opened) == len(set(fast_game.last_opened))
        assert slow_game.state == fast_game.state


def test_a_wrong_flag_is_played_by_the_python_path() -> None:
    """A person's flag on a safe cell: the proof that trusts it loses, as round by round."""
    rng = np.random.default_rng(4)
    layout = MineLayout.random(9, 9, 10, rng)
    safe = np.flatnonzero(~layout.mines.reshape(-1))
    games = [Game(layout, rule, "safe", seed=0) for rule in ("complete", _RoundByRound())]
    for game in games:
        cell = int(safe[-1])
        game.toggle_flag(cell % 9, cell // 9)
        game.probe(int(safe[0]) % 9, int(safe[0]) // 9)
    assert np.array_equal(games[0].view, games[1].view)
    assert games[0].state == games[1].state


def test_counts_a_float_holds_only_scaled_still_decide_exactly() -> None:
    # An expert board with two numbers the cheap rules prove nothing from: the full
    # count runs, on about C(478, 99) layouts, far beyond 2**64.
    grid = np.full((16, 30), COVERED, dtype=np.int8)
    grid[0, 0] = grid[0, 2] = 1
    board = Board(grid, 99)
    got = complete_proof(board)
    assert got is not None and got[2] is not None  # the full count's answer
    assert (frozenset(got[0]), frozenset(got[1])) == _reference(board)


def test_boards_too_large_for_the_zero_test_are_handed_back() -> None:
    side = int(MAX_COVERED**0.5) + 2
    grid = np.full((side, side), COVERED, dtype=np.int8)
    grid[0, 0] = 1
    board = Board(grid, side)
    assert complete_proof(board) is None  # the cheap rules find nothing; no full count
    assert Complete().prove(board) == reference_prove(board)


@pytest.mark.parametrize(
    ("rows", "total"),
    [
        (["3?", "?1"], None),
        (["1!", "!?"], None),
        (["!?", "??"], 0),
        (["1?", "??"], 2),
    ],
)
def test_inconsistent_positions_raise_the_python_paths_error(rows, total) -> None:
    board = Board.from_rows(rows, total)
    assert complete_proof(board) is None
    with pytest.raises(InconsistentBoardError) as want:
        reference_prove(board)
    with pytest.raises(InconsistentBoardError) as got:
        Complete().prove(board)
    assert (str(got.value), got.value.cell) == (str(want.value), want.value.cell)


def test_the_python_path_agrees_with_the_reference_on_a_game(python_paths) -> None:
    """With the kernels off (``SEMIAUTOMINES_NO_JIT``, or not compiled yet)."""
    rng = np.random.default_rng(5)
    calls = 0

    class Checked(Complete):
        def prove(self, board: Board):
            nonlocal calls
            calls += 1
            got = super().prove(board)
            assert (frozenset(got.safe), frozenset(got.mines)) == _reference(board)
            return got

    for _ in range(4):
        game = Game(MineLayout.random(30, 16, 99, rng), Checked(), "safe", seed=1)
        while game.state == "playing":
            covered = np.flatnonzero(game.view.reshape(-1) == COVERED)
            cell = int(covered[rng.integers(len(covered))])
            game.probe(cell % 30, cell // 30)
    assert calls


def test_settled_positions_hand_out_exact_weights_and_close_floats() -> None:
    rng = np.random.default_rng(2)
    game = Game(MineLayout.random(30, 16, 99, rng), "complete", "safe", seed=2)
    game.probe(15, 8)
    while game.state != "playing":  # the last call then was a full count
        game = Game(MineLayout.random(30, 16, 99, rng), "complete", "safe", seed=2)
        game.probe(15, 8)
    rule_set = game.rule_set
    board = game.minefield.board()
    weights = rule_set.known_weights(board)
    probabilities = rule_set.known_probabilities(board)
    if not compiled.ready():
        assert probabilities is None
    else:
        assert probabilities is not None
        for index, weight in weights.mine_weight.items():
            assert probabilities.flat[index] == pytest.approx(
                weight / weights.layouts, rel=0, abs=1e-12
            )
    assert weights is not None and weights.layouts > 0
    other = board.copy()
    other.grid.flat[int(np.flatnonzero(other.grid.reshape(-1) == COVERED)[0])] = FLAGGED
    assert rule_set.known_weights(other) is None
    assert rule_set.known_probabilities(other) is None


def test_the_auto_solver_leaves_an_ended_game_alone() -> None:
    from minesweep_env.core.minefield import GameState
    from minesweep_env.solver.autosolve import autosolve

    layout = MineLayout.from_rows(["xoo", "ooo", "ooo"])
    game = Game(layout, "complete", "none", seed=0)
    game.probe(0, 0)
    assert game.state == "lost"
    before = game.view.copy()
    assert autosolve(game.minefield, game.rule_set) == ([], [])
    assert np.array_equal(game.view, before) and game.minefield.state is GameState.LOST
