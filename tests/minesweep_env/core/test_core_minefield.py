"""Probing, flood fill, flags, win and loss on hand positions."""

from __future__ import annotations

import numpy as np
import pytest

from minesweep_env import GameState, Minefield, MineLayout
from minesweep_env.core import WinRule

LAYOUT = MineLayout.from_rows(
    [
        "ooooo",
        "ooooo",
        "oooxo",
        "ooooo",
        "xoooo",
    ]
)


def field(layout: MineLayout = LAYOUT, **kwargs) -> Minefield:
    kwargs.setdefault("first_click", "none")
    return Minefield(layout, rng=np.random.default_rng(0), **kwargs)


def test_numbers_count_adjacent_mines():
    assert LAYOUT.numbers.tolist() == [
        [0, 0, 0, 0, 0],
        [0, 0, 1, 1, 1],
        [0, 0, 1, 0, 1],
        [1, 1, 1, 1, 1],
        [0, 1, 0, 0, 0],
    ]


def test_probing_a_zero_floods_to_the_numbered_border():
    game = field()
    opened = game.probe(0, 0)
    assert game.rows() == [
        "00000",
        "00111",
        "001??",
        "111??",
        "?????",
    ]
    assert len(opened) == 16
    assert game.state is GameState.PLAYING


def test_probing_a_number_opens_only_that_cell():
    game = field()
    assert game.probe(2, 2) == [12]
    assert game.rows()[2] == "??1??"


def test_probing_a_mine_loses_and_shows_every_unflagged_mine():
    game = field()
    game.set_flag(0, 4)
    game.probe(3, 2)
    assert game.state is GameState.LOST
    assert game.exploded == (3, 2)
    rows = game.rows()
    assert rows[2][3] == "*"
    assert rows[4][0] == "!"


def test_opening_every_safe_cell_wins_without_flags():
    game = field()
    game.probe(0, 0)
    for x, y in [(3, 2), (4, 2), (4, 3), (0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]:
        if not LAYOUT.mines[y, x]:
            game.probe(x, y)
    assert game.state is GameState.WON
    assert game.all_safe_opened


def test_ioccc_win_rule_needs_every_mine_flagged():
    game = field(win_rule=WinRule.NOTHING_COVERED)
    game.probe(0, 0)
    for x, y in [(4, 2), (4, 3), (1, 4), (2, 4), (3, 4), (4, 4)]:
        game.probe(x, y)
    assert game.all_safe_opened and game.state is GameState.PLAYING
    game.set_flag(3, 2)
    assert game.state is GameState.PLAYING
    game.set_flag(0, 4)
    assert game.state is GameState.WON


def test_a_wrong_manual_flag_does_not_win_under_the_ioccc_rule():
    layout = MineLayout.from_rows(["xo"])
    game = field(layout, win_rule=WinRule.NOTHING_COVERED)
    game.set_flag(1, 0)
    game.set_flag(0, 0)
    assert game.state is GameState.PLAYING


def test_probing_a_probed_or_flagged_cell_changes_nothing():
    game = field()
    game.probe(2, 2)
    before = game.view.copy()
    assert game.probe(2, 2) == []
    game.set_flag(3, 2)
    assert game.probe(3, 2) == []
    assert game.state is GameState.PLAYING
    assert np.count_nonzero(game.view != before) == 1


def test_flood_does_not_open_flagged_cells():
    game = field()
    game.set_flag(1, 1)
    game.probe(0, 0)
    assert game.rows()[1][1] == "!"


def test_mines_left_is_mines_minus_flags():
    game = field()
    assert game.mines_left == 2
    game.set_flag(3, 2)
    game.set_flag(4, 4)  # a wrong flag still counts, as in the IOCCC counter
    assert game.mines_left == 0
    game.set_flag(4, 4, flagged=False)
    assert game.mines_left == 1


def test_nothing_changes_after_the_game_ends():
    game = field()
    game.probe(3, 2)
    assert game.probe(0, 0) == []
    assert not game.set_flag(1, 1)


@pytest.mark.parametrize("policy", ["safe", "zero", "endoh"])
def test_first_click_policies_protect_the_first_probe(policy):
    layout = MineLayout.from_rows(["xxoo", "xxoo", "oooo", "oooo"])
    game = Minefield(layout, first_click=policy, rng=np.random.default_rng(1))
    game.probe(0, 0)
    assert game.state is GameState.PLAYING
    if policy == "zero":
        assert game.view[0, 0] == 0
    expected = 3 if policy == "endoh" else 4
    assert game.mine_count == expected == game.layout.mine_count


def test_opening_a_mine_proven_safe_from_a_wrong_hand_flag_loses_there():
    layout = MineLayout.from_rows(["xo", "oo"])
    game = field(layout)
    game.probe(1, 1)
    game.set_flag(1, 0)  # wrong: the mine is at (0, 0)
    game.open_safe([0])
    assert game.state is GameState.LOST
    assert game.exploded == (0, 0)


def test_every_built_in_rule_set_is_registered_on_import():
    """In a fresh interpreter, so no earlier lookup has registered them already."""
    import subprocess
    import sys

    names = subprocess.run(
        [sys.executable, "-c", "import minesweep_env; print(*sorted(minesweep_env.RULE_SETS))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert {"endoh", "endoh-alt", "mysweeper", "groups", "substitution", "complete"} <= set(names)


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (5, 0), (0, 5), (-5, -5)])
def test_moves_off_the_board_are_refused_not_wrapped(cell):
    """A negative index would reach the far edge through numpy: it must raise instead."""
    game = field()
    with pytest.raises(ValueError, match=rf"cell \({cell[0]}, {cell[1]}\) is outside the 5x5"):
        game.probe(*cell)
    with pytest.raises(ValueError, match="outside the 5x5 board"):
        game.set_flag(*cell)
    assert game.probes == 0 and game.mines_left == LAYOUT.mine_count
    assert np.all(game.view == -1)


def test_a_board_is_a_snapshot_of_the_view():
    """``Board.view`` is ``Board.grid``: a copy of ``Minefield.view`` later moves leave alone."""
    game = field()
    game.probe(0, 0)
    board = game.board()
    assert board.view is board.grid
    assert np.array_equal(board.view, game.view) and board.view is not game.view
    game.set_flag(3, 2)
    assert board.flag_count == 0 and board.total_mines == game.mine_count
