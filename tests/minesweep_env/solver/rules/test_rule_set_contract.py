"""What every rule set offers its callers, from the base class: known weights and reset."""

from __future__ import annotations

import numpy as np
import pytest

from minesweep_env import RULE_SETS, Game, MineLayout, get_rule_set
from minesweep_env.solver.probability import count_position


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_rule_set_answers_the_contract(name: str) -> None:
    layout = MineLayout.random(9, 9, 10, np.random.default_rng(4))
    game = Game(layout, rule_set=name, first_click="zero", seed=4)
    game.probe(4, 4)
    board = game.minefield.board()
    weights = game.rule_set.known_weights(board)
    if weights is not None:  # when given, exactly the engine's count
        assert weights == count_position(board)
    game.rule_set.reset()
    assert game.rule_set.known_weights(board) is None


def test_complete_hands_out_its_last_count_until_reset() -> None:
    rule_set = get_rule_set("complete")
    for seed in range(100):  # a game the first probe does not finish
        layout = MineLayout.random(16, 16, 40, np.random.default_rng(seed))
        game = Game(layout, rule_set=rule_set, first_click="zero", seed=seed)
        game.probe(4, 4)
        if game.state == "playing":
            break
    assert game.state == "playing"
    board = game.minefield.board()
    assert rule_set.known_weights(board) == count_position(board)
    assert rule_set.weights_for(board) == rule_set.known_weights(board)
    Game(layout, rule_set=rule_set, first_click="zero", seed=seed)  # a new game resets it
    assert rule_set.known_weights(board) is None
