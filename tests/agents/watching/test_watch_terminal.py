"""``semiautomines watch`` as a person sees it: in a pseudo-terminal (the harness in
``tests/pty_terminal.py``), read from the screen.

The game a watched agent plays is computed off-screen too (``play_out`` with the
same driver), so every test knows the field the screen must end on.
"""

from __future__ import annotations

import os
import time

import pytest
from pty_terminal import SMILEYS, Terminal, guesses_on_screen, screen_rows, terminal  # noqa: F401

from minesweep_env import Game
from minesweep_env.core.minefield import GameState
from minesweep_env.tui import Guess, play_out
from semiautomines_agents import make_agent
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.watching import AgentDriver

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pty")
RIGHT, LEFT = "\x1bOC", "\x1bOD"


def watch_for(t: Terminal, seconds: float) -> None:
    """Keep reading the screen for ``seconds`` (the clock ticks, so it is never quiet)."""
    end = time.monotonic() + seconds
    t.wait_for(lambda t: time.monotonic() > end, f"{seconds} s to pass")


def watched(board: str, seed: int, game: int, agent: str = "search") -> tuple[Game, list[Guess]]:
    settings = Settings("complete", "safe", seed)
    driver = AgentDriver(make_agent(agent), agent, board_target(board), settings, game)
    return play_out(driver)


def game_after(board: str, seed: int, game: int, guesses: list[Guess]) -> Game:
    settings = Settings("complete", "safe", seed)
    driver = AgentDriver(make_agent("search"), "search", board_target(board), settings, game)
    position = driver.game()
    for guess in guesses:
        position.probe(*guess.cell)
    return position


@pytest.mark.parametrize(("board", "seed", "game"), [("beginner", 0, 1), ("intermediate", 0, 0)])
def test_a_watched_game_ends_on_the_smiley_and_q_leaves_cleanly(terminal, board, seed, game):  # noqa: F811
    final, guesses = watched(board, seed, game)
    width, height = final.width, final.height
    t = terminal(
        "watch", "--board", board, "--seed", str(seed), "--game", str(game), "--delay", "0"
    )
    t.wait_for(lambda t: t.smiley(width) == SMILEYS[final.state], "the smiley of the game's end")
    t.wait_field(width, height, screen_rows(final))
    assert guesses_on_screen(t) == len(guesses)
    assert f"search on {board}, game {game} (seed {seed})" in t.text()
    t.wait_text("won!" if final.state is GameState.WON else "boom.")
    t.send("q")
    assert t.wait_exit() == 0
    assert t.echo_on(), "the terminal was not restored"


def test_space_pauses_the_arrows_step_and_take_back(terminal):  # noqa: F811
    final, guesses = watched("intermediate", 2, 2)
    assert len(guesses) >= 5
    t = terminal("watch", "--board", "intermediate", "--seed", "2", "--game", "2")
    t.wait_for(lambda t: (guesses_on_screen(t) or 0) >= 1, "the first guess")
    t.send(" ")
    t.wait_text("paused: space plays on")
    t.settle(quiet=0.5)
    paused_at = guesses_on_screen(t)
    assert paused_at is not None and paused_at < len(guesses)
    watch_for(t, 1.5)  # three delays: nothing is played while paused
    assert guesses_on_screen(t) == paused_at
    t.send(RIGHT)
    t.wait_for(lambda t: guesses_on_screen(t) == paused_at + 1, "one more guess")
    expected = game_after("intermediate", 2, 2, guesses[: paused_at + 1])
    t.wait_field(16, 16, screen_rows(expected))
    t.send(LEFT)
    t.send(LEFT)
    t.wait_for(lambda t: guesses_on_screen(t) == paused_at - 1, "two guesses taken back")
    expected = game_after("intermediate", 2, 2, guesses[: paused_at - 1])
    t.wait_field(16, 16, screen_rows(expected))
    assert t.smiley(16) == ":-)"
    t.send(" ")  # plays on, through the guesses taken back, to the same end
    t.wait_for(lambda t: t.smiley(16) == SMILEYS[final.state], "the end of the game")
    t.wait_field(16, 16, screen_rows(final))
    assert guesses_on_screen(t) == len(guesses)
    t.send("r")  # the next seeded game
    t.wait_text("game 3 (seed 2)")
    t.send("q")
    assert t.wait_exit() == 0


def test_the_status_shows_each_guess_its_chance_and_the_search_agents_survival(terminal):  # noqa: F811
    _, guesses = watched("intermediate", 2, 2)
    assert "2-move survival" in guesses[1].note
    t = terminal("watch", "--board", "intermediate", "--seed", "2", "--game", "2", "--delay", "1")
    for guess in guesses[:3]:  # "(0, 0) first click, safe", "(15, 0) mine 15.5% 2-move ..."
        t.wait_text(guess.note)
    t.send("q")
    assert t.wait_exit() == 0


LARGE = "40x40x320"
"""A board of 1,600 cells: the size the default ``play`` field reaches in a big terminal."""
MOVE_SECONDS = 30.0
"""The longest wait for the next guess on screen (start-up included) before the watch
counts as frozen; each guess takes about a second here."""


@pytest.mark.parametrize(
    ("lines", "cols", "seed", "ending"),
    [(60, 200, 0, "won!"), (42, 100, 5, "boom.")],
    ids=["200x60", "100x42"],
)
def test_a_large_board_is_watched_to_its_end_with_no_freeze(
    terminal,  # noqa: F811
    monkeypatch,
    python_paths,
    lines,
    cols,
    seed,
    ending,
):
    """The search agent on 40x40/320, driven in a pty: every guess arrives within
    :data:`MOVE_SECONDS`, the field ends as the agent's game does, the way the game ended
    is on screen (beside the field at 200 columns; first on the status line, where a long
    note is cut, at 100), and ``q`` leaves with the terminal restored."""
    monkeypatch.setenv("SEMIAUTOMINES_NO_JIT", "1")  # the exact engine: no compiling first
    final, guesses = watched(LARGE, seed, 0)
    assert len(guesses) >= 4
    t = terminal(
        "watch",
        "--board",
        LARGE,
        "--agent",
        "search",
        "--seed",
        str(seed),
        "--delay",
        "0",
        lines=lines,
        cols=cols,
    )
    t.timeout = MOVE_SECONDS
    shown = 0
    while shown < len(guesses):
        t.wait_for(
            lambda t, before=shown: (guesses_on_screen(t) or 0) > before, f"guess {shown + 1}"
        )
        shown = guesses_on_screen(t) or 0
    assert shown == len(guesses)
    t.wait_field(40, 40, screen_rows(final))
    t.wait_for(lambda t: t.smiley(40) == SMILEYS[final.state], "the smiley of the game's end")
    t.wait_text(ending)
    t.send("q")
    assert t.wait_exit() == 0
    assert t.echo_on(), "the terminal was not restored"


def test_a_large_board_in_a_100x30_terminal_is_refused_in_one_line(terminal):  # noqa: F811
    t = terminal("watch", "--board", LARGE, "--agent", "search", lines=30, cols=100)
    assert t.wait_exit() == 2
    said = " ".join(t.text().split())
    assert said == (
        "semiautomines watch: error: a 40x40 field needs a terminal of at least 80x41 "
        "(columns x lines); this one is 100x30"
    )
