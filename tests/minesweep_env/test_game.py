"""The semi-automatic game: moves by coordinates, and the one verdict everyone reads."""

from __future__ import annotations

import numpy as np
import pytest
from paths import REPO

from minesweep_env import RULE_SETS, Game, MineLayout
from minesweep_env.cli.main import build_parser
from minesweep_env.cli.play import build_spec
from minesweep_env.core.cells import COVERED
from minesweep_env.game import program_win_rule
from minesweep_env.tui import Session

UNWINNABLE = REPO / "maps" / "ioccc" / "unwinnable.txt"

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


# -- the win rule: the game's parameter, never read off the rule set -------------------------
@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_the_win_rule_is_the_games_whatever_the_rule_set(rule_set):
    """unwinnable.txt: probing (4, 4) opens every safe cell; its corner mine touches no number."""
    usual = Game.from_file(UNWINNABLE, rule_set, first_click="endoh")
    assert usual.win_rule == "safe-cells-opened" and usual.probe(4, 4) == "won"
    ioccc = Game.from_file(UNWINNABLE, rule_set, "endoh", win_rule="nothing-covered")
    state = ioccc.probe(4, 4)
    # Only a rule set that counts the mines left flags the corner and wins this way.
    assert state == ("playing" if "?" in "".join(ioccc.rows()) else "won")
    if rule_set == "endoh-alt":
        assert state == "playing"
        ioccc.toggle_flag(0, 0)  # the hand flag the IOCCC program waits for
        assert ioccc.state == "won"


def _spec(*args: str):
    return build_spec(build_parser().parse_args(["play", str(UNWINNABLE), *args]))


def test_play_defaults_to_the_ioccc_win_rule_only_for_the_ioccc_rule_sets():
    assert _spec().win_rule == "nothing-covered"  # endoh, the default rule set
    assert _spec("--rule-set", "endoh-alt").win_rule == "nothing-covered"
    assert _spec("--rule-set", "complete").win_rule == "safe-cells-opened"
    assert [program_win_rule(name) for name in ("endoh", "groups")] == [
        "nothing-covered",
        "safe-cells-opened",
    ]


def test_play_win_rule_option_reaches_the_game():
    stuck = Session(_spec("--rule-set", "endoh-alt"), 24, 80, animate=False)
    stuck.probe(4, 4)
    assert stuck.state == "playing"  # as the IOCCC program: waiting for a hand flag
    chosen = _spec("--rule-set", "endoh-alt", "--win-rule", "safe-cells-opened")
    ends = Session(chosen, 24, 80, animate=False)
    ends.probe(4, 4)
    assert ends.state == "won"
