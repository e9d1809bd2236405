"""Rule set ``complete`` proves exactly what brute-force enumeration proves.

A cell is provable iff its exact mine probability is 0 or 1 (under the total
when known). Each single ``prove`` must be sound; the fixed point (``deduce``)
must be complete.
"""

from __future__ import annotations

import numpy as np
from brute_force import exact_probabilities
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_position

from minesweep_env import Board, Game, MineLayout, deduce, get_rule_set
from minesweep_env.core.cells import COVERED, KNOWN_SAFE


def _provable(board: Board, total: int | None) -> tuple[set, set]:
    _, probabilities = exact_probabilities(board, total)
    w = board.width
    flat = board.grid.reshape(-1)
    safe = {(i % w, i // w) for i, p in probabilities.items() if p == 0 and flat[i] == COVERED}
    mines = {(i % w, i // w) for i, p in probabilities.items() if p == 1}
    return safe, mines


@settings(max_examples=2500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_complete_proves_exactly_what_brute_force_proves(
    seed: int, use_total: bool, known_safe: bool
) -> None:
    board, layout = random_position(seed)
    if not use_total:
        board.total_mines = None
    if known_safe:
        rng = np.random.default_rng(seed)
        flat = board.grid.reshape(-1)
        candidates = np.flatnonzero((flat == COVERED) & ~layout.mines.reshape(-1))
        flat[candidates[rng.random(len(candidates)) < 0.3]] = KNOWN_SAFE
    want_safe, want_mines = _provable(board, board.total_mines)
    w = board.width
    proof = get_rule_set("complete").prove(board)
    once_safe = {(i % w, i // w) for i in proof.safe}
    once_mines = {(i % w, i // w) for i in proof.mines}
    assert once_safe <= want_safe and once_mines <= want_mines  # sound in one step
    assert bool(want_safe or want_mines) == bool(once_safe or once_mines)  # never stuck early
    safe, mines = deduce(board, "complete")
    assert safe == want_safe
    assert mines == want_mines


def test_global_mine_count_proves_cells_no_number_touches() -> None:
    # MySweeper's rule 6: the 1 holds the only mine, so the far cells are safe.
    board = Board.from_rows(["1??", "???"], total_mines=1)
    safe, mines = deduce(board, "complete")
    assert {(2, 0), (2, 1)} <= safe
    safe_free, _ = deduce(board, "complete", total_mines=None)
    unknown = Board.from_rows(["1??", "???"])
    assert deduce(unknown, "complete") == (frozenset(), frozenset())
    assert safe_free == safe  # the override None keeps the board's total


def test_simultaneous_equations_beyond_pairs() -> None:
    # 1-2-1 against a wall: the classic pattern pair rules alone also solve,
    # and a 1-2-2-1 where the middle needs both ends considered at once.
    board = Board.from_rows(["????", "1221"])
    safe, mines = deduce(board, "complete")
    assert mines == {(1, 0), (2, 0)}
    assert safe == {(0, 0), (3, 0)}


def test_endgame_count_decides_between_configurations() -> None:
    # "?1?1?": the middle cell serves both 1s (1 mine) or the ends do (2 mines).
    # Only the total tells which.
    assert deduce(Board.from_rows(["?1?1?"]), "complete") == (frozenset(), frozenset())
    safe, mines = deduce(Board.from_rows(["?1?1?"], total_mines=1), "complete")
    assert (safe, mines) == ({(0, 0), (4, 0)}, {(2, 0)})
    safe, mines = deduce(Board.from_rows(["?1?1?"], total_mines=2), "complete")
    assert (safe, mines) == ({(2, 0)}, {(0, 0), (4, 0)})


def test_auto_solver_with_complete_never_opens_a_mine() -> None:
    # Game.probe plays out every proof; opening a mine would raise in the core.
    for seed in range(30):
        rng = np.random.default_rng(seed)
        layout = MineLayout.random(9, 9, 10, rng)
        game = Game(layout, rule_set="complete", first_click="safe", seed=seed)
        while game.state == "playing":
            covered = np.argwhere(game.view == COVERED)
            y, x = covered[rng.integers(len(covered))]
            game.probe(int(x), int(y))
        assert game.state in ("won", "lost")


def test_weights_of_the_position_the_auto_solver_left_are_reused_exactly() -> None:
    from minesweep_env.solver.probability import count_position

    checked = 0
    for seed in range(10):
        layout = MineLayout.random(16, 16, 40, np.random.default_rng(seed))
        game = Game(layout, rule_set="complete", first_click="safe", seed=seed)
        game.probe(8, 8)
        if game.state != "playing":
            continue
        board = game.minefield.board()
        reused = game.rule_set.weights_for(board)
        assert reused is not None
        fresh = count_position(board)
        assert (reused.layouts, reused.mine_weight) == (fresh.layouts, fresh.mine_weight)
        other = board.copy()
        other.total_mines = None
        assert game.rule_set.weights_for(other) is None
        checked += 1
    assert checked >= 5
