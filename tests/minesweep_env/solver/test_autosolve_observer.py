"""The auto-solver's observer: every round seen before it is played, and a way to stop."""

from __future__ import annotations

import numpy as np

from minesweep_env import Game, MineLayout
from minesweep_env.core.board import Board
from minesweep_env.solver.base import Proof


def _game(seed: int) -> Game:
    layout = MineLayout.random(16, 16, 40, np.random.default_rng(seed))
    return Game(layout, rule_set="mysweeper", first_click="zero", seed=seed)


def test_the_observer_sees_every_round_and_changes_nothing() -> None:
    plain, watched = _game(3), _game(3)
    rounds: list[tuple[Board, Proof]] = []
    plain.probe(8, 8)
    watched.probe(8, 8, observer=lambda board, proof: rounds.append((board, proof)))
    assert np.array_equal(plain.view, watched.view)
    assert len(rounds) >= 2  # at least one round that proved something, and the last
    assert rounds[-1][1] == Proof(set(), set()) or watched.state != "playing"
    for (board, proof), (after, _) in zip(rounds, rounds[1:], strict=False):
        changed = set(np.flatnonzero(board.grid != after.grid).tolist())
        assert proof.safe | proof.mines <= changed  # the next round saw this proof played


def test_a_true_return_stops_the_solver_before_the_proof_is_played() -> None:
    game = _game(3)
    seen: list[Board] = []
    game.probe(8, 8, observer=lambda board, proof: seen.append(board) or True)
    assert len(seen) == 1
    assert np.array_equal(game.view, seen[0].grid)
