"""``semiautomines watch`` without a terminal: the driver, its pace, its notes and its GIF.

The screen itself is tested in a pty (test_watch_terminal.py); here the parts a
person cannot see go wrong: that a watched game is the evaluation's game, move
for move, that the agent sees what the env would show it, and that pausing,
stepping and taking back play the same game.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from paths import REPO
from PIL import Image, ImageSequence

from minesweep_env import Game, MineLayout, mine_probabilities
from minesweep_env.core.minefield import GameState
from minesweep_env.render import BoardPainter
from minesweep_env.tui import Driver, GameSpec, Guess, InvalidGuess, Session, play_out
from minesweep_env.tui.autoplay import Autoplay
from minesweep_env.tui.recording import record_gif
from semiautomines_agents import SearchAgent, make_agent
from semiautomines_agents.evaluation import Settings, board_target, map_targets
from semiautomines_agents.evaluation.play import Chunk, make_env, play_chunk
from semiautomines_agents.watching import AgentDriver
from semiautomines_agents.watching.notes import Notes
from semiautomines_agents.watching.observe import Observer, action_mask

NO_GUESS_SUITE = REPO / "maps" / "no-guess" / "intermediate"


def driver_for(agent: str, target, settings: Settings, game: int = 0) -> AgentDriver:
    return AgentDriver(make_agent(agent), agent, target, settings, first_game=game)


@pytest.mark.parametrize(
    ("agent", "first_click"),
    [("search", "safe"), ("greedy", "zero"), ("random", "endoh"), ("greedy", "none")],
)
def test_a_watched_game_is_the_evaluations_game_move_for_move(agent, first_click):
    target = board_target("beginner")
    settings = Settings("complete", first_click, seed=11)
    games = range(6)
    records = play_chunk(Chunk(agent, target, tuple(games), settings))
    for index, record in zip(games, records, strict=True):
        game, guesses = play_out(driver_for(agent, target, settings, index))
        assert (game.state is GameState.WON, game.guesses) == (record.won, record.guesses)
        safe = game.width * game.height - game.minefield.mine_count
        assert np.count_nonzero(game.view >= 0) / safe == pytest.approx(record.safe_opened)
        assert len(guesses) == record.guesses


def test_a_map_with_a_fixed_start_is_opened_there_first():
    if not NO_GUESS_SUITE.is_dir():
        pytest.skip("no no-guess suite in this checkout")
    (target,) = map_targets([NO_GUESS_SUITE])
    assert target.starts[0] is not None
    settings = Settings("complete", "safe", seed=0)
    record = play_chunk(Chunk("search", target, (0,), settings))[0]
    game, guesses = play_out(driver_for("search", target, settings))
    assert guesses[0].cell == target.starts[0]
    assert "fixed start" in guesses[0].note
    assert (game.state is GameState.WON, game.guesses) == (record.won, record.guesses)


@pytest.mark.parametrize("obs_mode", ["planes", "grid", "planes+probabilities"])
def test_the_agent_sees_what_the_env_would_show_it(obs_mode):
    target = board_target("intermediate")
    env = make_env(target, Settings("complete", "safe"), obs_mode)
    observation, info = env.reset(seed=5)
    game = env.unwrapped.game
    observer = Observer(game, obs_mode)
    agent = make_agent("greedy")
    while True:
        np.testing.assert_array_equal(observer(), observation)
        np.testing.assert_array_equal(action_mask(game), info["action_mask"])
        action = agent.act(observation, info["action_mask"], game)
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            break
    if game.state is GameState.WON:  # the env's last observation, won: covered cells are mines
        np.testing.assert_array_equal(observer(), observation)


def test_the_note_gives_the_exact_chance_and_the_search_agents_survival():
    layout = MineLayout.random(16, 16, 40, np.random.default_rng(1))
    game = Game(layout, "complete", "safe", seed=1)
    game.probe(0, 0)
    assert game.state is GameState.PLAYING
    agent = SearchAgent()
    board = game.minefield.board()
    advice = agent.advise(board)
    probabilities = mine_probabilities(board)
    note = Notes().note(game, advice.cell, advice, agent.depth)
    x, y = advice.cell % 16, advice.cell // 16
    assert note.startswith(f"({x}, {y}) ")
    chance = probabilities[y, x]
    assert (f"mine {chance * 100:.1f}%" in note) or (chance == 0 and "safe" in note)
    survival = next(a.survival for a in advice.candidates if a.cell == advice.cell)
    assert f"2-move survival {survival * 100:.1f}%" in note
    assert advice.reason == "search"  # this position needs the look-ahead
    first = Game(layout, "complete", "safe", seed=1)
    assert Notes().note(first, 0) == "(0, 0) first click, safe"


class ListDriver(Driver):
    """A fixed list of guesses on a fixed layout (what a replay is)."""

    def __init__(self, layout: MineLayout, cells: list[tuple[int, int]]):
        self.layout, self.cells = layout, cells
        self.asked: list[int] = []

    def game(self) -> Game:
        return Game(self.layout, "complete", "none")

    def guess(self, game: Game, moves: int) -> Guess | None:
        self.asked.append(moves)
        if moves >= len(self.cells):
            return None
        return Guess(self.cells[moves], f"guess {moves}")


LAYOUT = MineLayout.from_rows(["xoxoxo", "oooooo"] * 3)
CELLS = [(1, 0), (5, 5), (3, 2)]
"""Three safe guesses after each of which the game goes on (the rule set proves nothing)."""


def wait_for_guess(autoplay: Autoplay, game: Game, now: float) -> Guess | None:
    """Wait until the driver's background answer is in, then ask as the input loop does."""
    for _ in range(500):
        if autoplay.undone or autoplay.worker.poll(game, len(autoplay.played))[0]:
            return autoplay.next_guess(game, now)
        time.sleep(0.01)
    raise AssertionError("the driver's guess never came")


def test_guesses_wait_for_the_delay_and_the_pause():
    driver = ListDriver(LAYOUT, CELLS)
    autoplay = Autoplay(driver, delay=1.0)
    game = driver.game()
    autoplay.start_game(now=100.0)
    assert wait_for_guess(autoplay, game, now=100.5) is None  # computed, not yet due
    assert not autoplay.finished
    guess = autoplay.next_guess(game, now=101.0)
    assert guess is not None and guess.cell == CELLS[0]
    game.probe(*guess.cell)
    autoplay.played_guess(now=101.0)
    autoplay.toggle_pause()
    assert wait_for_guess(autoplay, game, now=500.0) is None  # paused: never due
    autoplay.step()  # the right arrow: one guess, still paused
    guess = autoplay.next_guess(game, now=500.0)
    assert guess is not None and guess.cell == CELLS[1]
    assert autoplay.paused
    assert autoplay.next_guess(game, now=600.0) is None


def test_taking_back_replays_the_same_guesses_without_asking_again():
    driver = ListDriver(LAYOUT, CELLS)
    session = Session(GameSpec(driver=driver, delay=0.0, size=(6, 6, 9)), 24, 80, animate=False)
    autoplay = session.autoplay
    assert autoplay is not None
    for _ in CELLS[:2]:
        guess = wait_for_guess(autoplay, session.game, now=1e9)
        assert guess is not None
        session.play_guess(guess)
        session.show_outcome(guess)
    two = session.game.view.copy()
    kept = autoplay.take_back()
    assert kept is not None and [g.cell for g in kept] == CELLS[:1]
    session.rewind(kept)
    one = Game(LAYOUT, "complete", "none")
    one.probe(*CELLS[0])
    np.testing.assert_array_equal(session.game.view, one.view)
    assert session.message == "guess 0"
    asked = list(driver.asked)
    autoplay.step()
    guess = autoplay.next_guess(session.game, now=1e9)  # the undone guess, at once
    assert guess is not None and guess.cell == CELLS[1]
    assert driver.asked == asked
    session.play_guess(guess)
    np.testing.assert_array_equal(session.game.view, two)


def test_a_driver_out_of_guesses_or_guessing_wrong_stops_the_game():
    driver = ListDriver(LAYOUT, [(1, 0), (1, 0)])
    game, guesses = play_out(ListDriver(LAYOUT, [(1, 0)]))
    assert game.state is GameState.PLAYING and len(guesses) == 1
    with pytest.raises(InvalidGuess):
        play_out(driver)
    session = Session(GameSpec(driver=driver, size=(6, 6, 9)), 24, 80, animate=False)
    session.play_guess(Guess((1, 0)))
    session.play_guess(Guess((1, 0)))
    assert session.autoplay is not None and session.autoplay.finished
    assert "invalid guess" in session.message


def test_the_gif_shows_every_guess_and_ends_on_the_final_position(tmp_path):
    driver = ListDriver(LAYOUT, CELLS)
    path = tmp_path / "game.gif"
    game, guesses = record_gif(driver, path, cell=16)
    assert len(guesses) == len(CELLS)
    with Image.open(path) as image:
        assert image.format == "GIF"
        frames = [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(image)]
    # Per guess: the position with the guess outlined, then the solver's rounds.
    assert len(frames) >= 2 * len(CELLS)
    np.testing.assert_array_equal(frames[-1], BoardPainter(16).paint(game))


class StoppedDriver(ListDriver):
    """The list's guesses, then a stop (what Ctrl-C or SIGTERM raises mid-game)."""

    def guess(self, game: Game, moves: int) -> Guess | None:
        if moves == 2:
            raise KeyboardInterrupt
        return super().guess(game, moves)


def test_a_stopped_gif_keeps_the_guesses_played(tmp_path):
    path = tmp_path / "game.gif"
    with pytest.raises(KeyboardInterrupt):
        record_gif(StoppedDriver(LAYOUT, CELLS), path, cell=16)
    with Image.open(path) as image:
        frames = [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(image)]
    assert len(frames) >= 2 * 2  # both guesses before the stop, each outlined and played


def test_with_the_overlay_on_a_watcher_reads_the_guess_unless_pointing_at_a_cell():
    driver = ListDriver(LAYOUT, CELLS)
    session = Session(GameSpec(driver=driver, size=(6, 6, 9)), 24, 80, animate=False)
    session.play_guess(Guess(CELLS[0], "the note"))
    session.overlay = True
    for _ in range(500):
        session.poll_odds()
        if session.probability_worker.result(session.version) is not None:
            break
        time.sleep(0.01)
    assert session.cursor_odds() == ""
    session.cursor, session.cursor_shown = (0, 5), True  # the mouse over a cell
    assert session.cursor_odds().startswith("(0, 5) ")


@pytest.mark.parametrize("command", ["watch", "evaluate"])
def test_watch_and_evaluate_take_the_same_seeds(command, tmp_path, capsys):
    from minesweep_env.cli.arguments import MAX_SEED
    from minesweep_env.cli.main import main as cli

    tail = ["--agent" if command == "watch" else "--agents", "nope", "--boards", "beginner"]
    tail = tail[:2] + (["--board", "beginner"] if command == "watch" else tail[2:])
    assert cli([command, "--seed", "99999999999", *tail]) == 2
    assert "--seed" not in capsys.readouterr().err  # the seed passed: the agent is refused
    assert cli([command, "--seed", str(MAX_SEED + 1), *tail]) == 2
    err = capsys.readouterr().err
    assert f"--seed must be in 0..{MAX_SEED}" in err and err.count("\n") == 1
