"""``semiautomines replay`` in a pseudo-terminal: a saved game, guess by guess, ends as recorded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pty_terminal import SMILEYS, guesses_on_screen, screen_rows, terminal  # noqa: F401

from minesweep_env import Game
from minesweep_env.core.minefield import GameState
from semiautomines_agents.evaluation import Settings, board_target, evaluate
from semiautomines_agents.evaluation.saved_games import Played, load_saved_games, write_saved_games

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pty")
RIGHT, LEFT = "\x1bOC", "\x1bOD"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[Path, list[Played]]:
    """A run folder with search's first three intermediate games of seed 2 saved."""
    folder = tmp_path_factory.mktemp("run")
    settings = Settings("complete", "safe", 2, save_games=True)
    run = evaluate(["search"], [board_target("intermediate")], settings, 3, progress=False)
    write_saved_games(run, folder)
    return folder, load_saved_games(folder)


def after(played: Played, moves: int) -> Game:
    game = played.new_game()
    for action in played.saved.moves[:moves]:
        game.probe(action % game.width, action // game.width)
    return game


def test_a_replayed_game_steps_with_the_arrows_and_ends_as_recorded(terminal, saved):  # noqa: F811
    folder, played = saved
    entry = next(p for p in played if p.record.index == 2)
    moves = len(entry.saved.moves)
    assert moves >= 4
    t = terminal("replay", str(folder), "--game", "2")
    t.wait_text(f"search on intermediate, game 2: guess 0 of {moves}")
    t.wait_text("paused: space plays on")
    t.wait_field(16, 16, ["?" * 16] * 16, "an untouched field: replay starts paused")
    for _ in range(3):
        t.send(RIGHT)
    t.wait_for(lambda t: guesses_on_screen(t) == 3, "three guesses")
    t.wait_field(16, 16, screen_rows(after(entry, 3)))
    t.send(LEFT)
    t.wait_text(f"guess 2 of {moves}")
    t.wait_field(16, 16, screen_rows(after(entry, 2)))
    t.send(" ")  # plays on by itself to the end of the record
    final = after(entry, moves)
    assert (final.state is GameState.WON) == entry.record.won
    assert final.guesses == entry.record.guesses
    t.wait_for(lambda t: t.smiley(16) == SMILEYS[final.state], "the recorded outcome")
    t.wait_field(16, 16, screen_rows(final))
    assert guesses_on_screen(t) == entry.record.guesses
    t.send("r")  # starts over
    t.wait_text(f"guess 0 of {moves}")
    t.send("q")
    assert t.wait_exit() == 0
    assert t.echo_on()


def test_a_bad_game_number_in_a_terminal_is_one_line_and_exit_2(terminal, saved):  # noqa: F811
    folder, _ = saved
    t = terminal("replay", str(folder), "--game", "99", cols=200)  # one line, unwrapped
    assert t.wait_exit() == 2
    lines = [line.strip() for line in t.screen.display if line.strip()]
    assert lines == [
        f"semiautomines replay: error: {folder}: no game 99 of search on intermediate; games: 0..2"
    ]
