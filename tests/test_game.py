"""The semi-automatic game: moves by coordinates, and the one verdict everyone reads."""

from __future__ import annotations

import numpy as np
import pytest

from minesweep_env import Game, MineLayout
from minesweep_env.core.cells import COVERED

LAYOUT = MineLayout.from_rows(["xoooo", "ooooo", "ooooo"])  # 5x3


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (5, 0), (0, 3), (-1, -1)])
def test_toggle_flag_off_the_board_raises_and_flags_nothing(cell):
    """(-1, 0) used to flag (4, 2): the flat index -1 wrapped to the last cell."""
    game = Game(LAYOUT, rule_set="complete", first_click="none")
    with pytest.raises(ValueError, match=rf"cell \({cell[0]}, {cell[1]}\) is outside the 5x3"):
        game.toggle_flag(*cell)
    assert np.all(game.view == COVERED)
    assert game.mines_left == 1


def test_toggle_flag_on_the_board_flags_and_unflags():
    game = Game(LAYOUT, rule_set="complete", first_click="none")
    assert game.toggle_flag(4, 2) and game.rows()[2] == "????!"
    assert game.toggle_flag(4, 2) and game.rows()[2] == "?????"
