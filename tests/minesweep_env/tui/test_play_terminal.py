"""``semiautomines play`` tested as a person uses it: in a pseudo-terminal, by mouse and keys.

The pseudo-terminal and its pyte screen are in ``tests/pty_terminal.py``.
"""

from __future__ import annotations

import os

import pytest
from paths import REPO
from pty_terminal import Terminal

from minesweep_env import Game

# -- the tests -------------------------------------------------------------------------------
MAPS = REPO / "maps" / "ioccc"
IOCCC_MAP = "maps/ioccc/ioccc.txt"
UNWINNABLE = "maps/ioccc/unwinnable.txt"
UP, DOWN, RIGHT, LEFT = "\x1bOA", "\x1bOB", "\x1bOC", "\x1bOD"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pty")


@pytest.fixture
def play():
    """Start ``semiautomines play ARGS`` in a pty; every terminal is closed afterwards."""
    started: list[Terminal] = []

    def start(*args: str, **options) -> Terminal:
        terminal = Terminal(list(args), **options)
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.close()


def expected_field(game: Game) -> list[str]:
    """Game.rows() in the screen's spelling: probed zeros are "0", as Terminal.field reads."""
    return game.rows()


def test_click_probes_and_the_solvers_result_appears(play):
    t = play(IOCCC_MAP, "--no-animate")
    t.wait_field(25, 9, ["?" * 25] * 9)
    t.click_cell(12, 4)
    game = Game.from_file(MAPS / "ioccc.txt")
    game.probe(12, 4)
    t.wait_for(lambda t: t.field(25, 9) == expected_field(game), "the solved IOCCC logo")
    assert t.row(0).startswith(f"{game.mines_left:03d}")
    assert "1 guess" in t.text()
    # The original's colours: a colour per number on black, flags red on white.
    colours = {}
    for y, row in enumerate(expected_field(game)):
        for x, char in enumerate(row):
            cell = t.screen.buffer[y + 1][2 * x + 1]
            colours.setdefault(char, set()).add((cell.fg, cell.bg))
    assert colours["1"] == {("blue", "black")}
    assert colours["2"] == {("green", "black")}
    assert colours["3"] == {("red", "black")}
    assert colours["5"] == {("brown", "black")}  # pyte's name for yellow
    assert colours["!"] == {("red", "white")}
    assert colours["?"] == {("black", "white")}


def test_animated_solver_ends_on_the_same_board(play):
    t = play(IOCCC_MAP, "--animate")
    t.wait_text(":-)")
    t.click_cell(0, 0)
    game = Game.from_file(MAPS / "ioccc.txt")
    game.probe(0, 0)
    t.wait_for(lambda t: t.field(25, 9) == expected_field(game), "the animation's last frame")


def test_win_shows_the_cool_smiley_and_stops_the_counter(play):
    t = play(UNWINNABLE, "--rule-set", "endoh", "--no-animate")
    t.wait_text(":-)")
    assert t.smiley(5) == ":-)"
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "the win smiley")
    t.wait_field(5, 5, ["!!200", "!!200", "22100", "00000", "00000"])
    assert t.row(0).startswith("000")


def test_unwinnable_is_stuck_with_endoh_alt_until_flagged_by_hand(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--no-animate")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    game = Game.from_file(MAPS / "unwinnable.txt", "endoh-alt", win_rule="nothing-covered")
    game.probe(4, 4)
    field = expected_field(game)
    assert "?" in "".join(field), "endoh-alt cannot flag the last mine"
    t.wait_field(5, 5, field)
    assert t.smiley(5) == ":-)"
    # The rule set left mines unproven: flag them by hand (right click) and win.
    for y, row in enumerate(field):
        for x, char in enumerate(row):
            if char == "?":
                t.click_cell(x, y, button=2)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "a win by hand flags")


def test_probing_a_mine_loses_and_shows_the_mines(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--first-click", "none", "--no-animate")
    t.wait_text(":-)")
    t.click_cell(0, 0)
    t.wait_for(lambda t: t.smiley(5) == "X-(", "the loss smiley")
    t.wait_for(lambda t: [r[:2] for r in t.field(5, 5)[:2]] == ["**", "**"], "the mines shown")
    t.settle()
    field = t.field(5, 5)
    # After the game is over, clicks on the field change nothing.
    t.click_cell(4, 4)
    t.settle()
    assert t.field(5, 5) == field


def test_r_and_the_smiley_start_a_new_game(play):
    t = play(UNWINNABLE, "--no-animate")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "the win smiley")
    t.send("r")
    t.wait_for(lambda t: t.smiley(5) == ":-)" and t.field(5, 5) == ["?????"] * 5, "a new game")
    assert t.row(0).startswith("004")
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "the win smiley")
    t.mouse(0, 5)  # the smiley's middle column
    t.wait_for(lambda t: t.field(5, 5) == ["?????"] * 5, "a new game by the smiley")


def test_q_quits_and_restores_the_terminal(play):
    t = play(UNWINNABLE)
    t.wait_text(":-)")
    assert not t.echo_on(), "curses runs without echo"
    t.send("q")
    assert t.wait_exit() == 0
    assert t.echo_on(), "echo is back on"
    tail = bytes(t.raw[-300:])
    assert b"\x1b[?1049l" in tail, "the normal screen is back"
    assert b"\x1b[?1003l" in tail and b"1000l" in tail, "mouse reporting is off"
    assert b"Traceback" not in t.raw


def test_keyboard_arrows_space_and_f(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--no-animate")
    t.wait_text(":-)")
    # The cursor starts in the middle (2, 2); go to the corner (4, 4) and probe. Arrow keys
    # as a terminal in keypad mode (which curses switches on) sends them: ESC O A..D.
    t.send(DOWN * 2 + RIGHT * 2 + " ")
    # (the cursor stays on (4, 4), and a dot on blue reads as covered: see field())
    t.wait_for(lambda t: t.field(5, 5)[3:] == ["00000", "0000?"], "the corner opened")
    assert t.cell_bg(4, 4) == "blue" and t.cell_bg(3, 4) == "black"
    # Back to the last covered cell, (0, 0), and flag it with f: that wins.
    t.send(UP * 4 + LEFT * 4 + "f")
    t.wait_for(lambda t: t.smiley(5) == "8-)", "a win by a keyboard flag")


def test_question_mark_shows_the_keys_and_any_key_closes_them(play):
    t = play("--seed", "5", lines=24, cols=80)
    t.wait_field(40, 23, ["?" * 40] * 23)
    assert "? help" in t.row(0)
    t.send("?")
    t.wait_text("p  odds overlay")
    t.hover(5, 5)
    t.settle(0.2)
    assert "p  odds overlay" in t.text(), "moving the pointer keeps the help open"
    t.send("x")
    t.wait_field(40, 23, ["?" * 40] * 23, "the field back")
    assert "odds overlay" not in t.text()


def test_x10_mouse_encoding(play):
    t = play(UNWINNABLE, "--no-animate", term="screen")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    t.wait_for(lambda t: t.smiley(5) == "8-)", "a win by an X10 click")


def test_default_field_fills_the_terminal(play):
    t = play("--seed", "1", "--no-animate", lines=24, cols=80)
    t.wait_text(":-)")
    # 40x23 cells, a fifth of them mines; smiley over the middle, timer at the right edge.
    t.wait_for(
        lambda t: (
            t.row(0)[:3] == f"{40 * 23 // 5:03d}"
            and t.row(0)[39:42] == ":-)"
            and t.row(0)[77:80] == "000"
        ),
        "the counter, the smiley over the middle, the timer at the right edge",
    )
    t.wait_field(40, 23, ["?" * 40] * 23)
    t.click_cell(20, 11)
    t.wait_for(lambda t: t.field(40, 23)[11][20] in "012345678", "the probed cell")
    assert "1 guess" in t.row(0)


def test_resize_before_the_first_click_refits_the_field(play):
    t = play("--seed", "1", lines=24, cols=80)
    t.wait_text(":-)")
    t.resize(30, 100)
    t.wait_for(
        lambda t: t.row(0)[49:52] == ":-)" and t.row(0)[:3] == f"{50 * 29 // 5:03d}",
        "a 50x29 field's status line",
    )
    t.wait_field(50, 29, ["?" * 50] * 29)


def test_too_small_after_the_first_click_asks_for_a_bigger_terminal(play):
    t = play("--seed", "2", "--no-animate", lines=24, cols=80)
    t.wait_text(":-)")
    t.click_cell(10, 10)
    t.wait_for(lambda t: t.field(40, 23)[10][10] != "?", "the probed cell")
    t.settle()
    before = t.field(40, 23)
    t.resize(20, 60)
    t.wait_text("Make the terminal bigger!")
    t.resize(24, 80)
    t.wait_for(lambda t: t.row(0)[39:42] == ":-)" and "bigger" not in t.text(), "the field")
    t.settle()
    assert t.field(40, 23) == before, "the same game comes back"


def test_map_too_large_for_the_terminal_is_one_line_and_exit_2(play):
    t = play("maps/ioccc/megumin.txt", lines=24, cols=80)
    assert t.wait_exit() == 2
    output = bytes(t.raw).decode().strip()
    assert output.count("\n") == 0, output
    assert "megumin.txt" in output and "64x35" in output and "80x24" in output
    assert t.echo_on()


def test_malformed_map_is_one_line_and_exit_2(play, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3 3 2\n0 1 2\n3 x 5\n6 7 8\n")
    t = play(str(bad))
    assert t.wait_exit() == 2
    output = bytes(t.raw).decode().strip()
    assert output.count("\n") == 0 and "Traceback" not in output, output
    assert f"{bad}:3:" in output
    assert t.echo_on()


def test_odds_overlay_shades_covered_cells_and_reads_under_the_pointer(play):
    t = play(UNWINNABLE, "--rule-set", "endoh-alt", "--no-animate")
    t.wait_text(":-)")
    t.click_cell(4, 4)
    t.wait_field(5, 5, ["?!200", "!!200", "22100", "00000", "00000"])
    assert t.cell_bg(0, 0) == "white"
    t.send("p")
    # One mine left among one covered cell: certain, drawn in the darkest (red) shade.
    t.wait_for(lambda t: t.cell_bg(0, 0) not in ("white", "default"), "a shaded cell")
    assert t.cell(0, 0) == "x", "a certain mine is marked x"
    t.hover(1, 1)
    t.wait_text("(0, 0) 100% mine")
    t.send("p")
    t.wait_for(lambda t: t.cell_bg(0, 0) == "white", "the overlay off")


def test_h_points_at_the_search_agents_guess(play):
    from semiautomines_agents import SearchAgent

    t = play(IOCCC_MAP, "--no-animate")
    t.wait_text(":-)")
    t.click_cell(12, 4)
    game = Game.from_file(MAPS / "ioccc.txt")
    game.probe(12, 4)
    t.wait_field(25, 9, expected_field(game))
    # No mines are left, so the cells the rule set could not reach are certainly safe;
    # the h key asks the search agent (the agents package's adviser), which takes one.
    assert game.mines_left == 0
    advice = SearchAgent().advise(game.minefield.board())
    assert advice.reason == "safe"
    x, y = advice.cell % game.width, advice.cell // game.width
    t.send("h")
    t.wait_text(f"search's guess ({x}, {y}): 0%")


def test_very_wide_terminal(play):
    t = play("--seed", "4", "--no-animate", lines=50, cols=300)
    t.wait_text(":-)")
    # 150x49 cells and 1470 mines: the counter keeps three digits, as the original's.
    t.wait_for(lambda t: t.row(0)[149:152] == ":-)" and t.row(0)[:3] == "999", "status")
    t.click_cell(149, 48)
    t.wait_text("1 guess")
