"""``semiautomines watch`` as a person sees it: in a pseudo-terminal (the harness of
test_play_terminal.py), read from the screen.

The game a watched agent plays is computed off-screen too (``play_out`` with the
same driver), so every test knows the field the screen must end on.
"""

from __future__ import annotations

import os
import re
import time

import pytest
from test_play_terminal import Terminal

from minesweep_env import Game
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.minefield import GameState
from minesweep_env.tui import Guess, play_out
from semiautomines_agents import make_agent
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.watching import AgentDriver

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pty")
RIGHT, LEFT = "\x1bOC", "\x1bOD"
SMILEYS = {GameState.WON: "8-)", GameState.LOST: "X-(", GameState.PLAYING: ":-)"}


@pytest.fixture
def terminal():
    """Start ``semiautomines COMMAND ARGS`` in a pty; every terminal is closed afterwards."""
    started: list[Terminal] = []

    def start(command: str, *args: str, **options) -> Terminal:
        started.append(Terminal(list(args), command=command, timeout=60.0, **options))
        return started[-1]

    yield start
    for t in started:
        t.close()


def screen_rows(game: Game) -> list[str]:
    """The field as :meth:`Terminal.field` reads it: ``?`` covered, ``!`` flag, ``*`` a mine
    shown after a loss (at a win every covered cell is shown flagged)."""
    rows = []
    for y in range(game.height):
        row = []
        for x in range(game.width):
            code = game.view[y, x]
            if code == FLAGGED:
                row.append("!")
            elif code == COVERED:
                mine = game.layout.mines[y, x]
                shown = {GameState.WON: "!", GameState.LOST: "*"}.get(game.state, "?")
                row.append(shown if mine else "?")
            else:
                row.append(str(code))
        rows.append("".join(row))
    return rows


def guesses_on_screen(t: Terminal) -> int | None:
    found = re.search(r"\b(\d+) guess(es)?\b", t.text())
    return int(found.group(1)) if found else None


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
def test_a_watched_game_ends_on_the_smiley_and_q_leaves_cleanly(terminal, board, seed, game):
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


def test_space_pauses_the_arrows_step_and_take_back(terminal):
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


def test_the_status_shows_each_guess_its_chance_and_the_search_agents_survival(terminal):
    _, guesses = watched("intermediate", 2, 2)
    assert "2-move survival" in guesses[1].note
    t = terminal("watch", "--board", "intermediate", "--seed", "2", "--game", "2", "--delay", "1")
    for guess in guesses[:3]:  # "(0, 0) first click, safe", "(15, 0) mine 15.5% 2-move ..."
        t.wait_text(guess.note)
    t.send("q")
    assert t.wait_exit() == 0
