"""``semiautomines replay REPLAY_FILE``: a person's game stepped guess by guess."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import TESTS
from PIL import Image

from minesweep_env.cli.main import main as cli_main
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import GameState
from minesweep_env.formats.evf_out import write_evf
from minesweep_env.formats.replay import read_replay
from minesweep_env.formats.replay_actions import ReplayAction
from minesweep_env.tui import play_out
from semiautomines_agents.coach import review_replay
from semiautomines_agents.watching import HumanReplayDriver

pytest.importorskip("ms_toollib")

REPLAYS = TESTS / "data" / "replays"


@pytest.mark.parametrize(
    "name", ["custom-8x11.avf", "beginner-chords.rmv", "beginner-preflags.rmv", "expert.mvf"]
)
def test_stepping_a_won_replay_wins_on_the_players_own_guesses(name: str) -> None:
    replay = read_replay(REPLAYS / name)
    driver = HumanReplayDriver(replay)
    game, guesses = play_out(driver)
    assert game.state is GameState.WON
    probes = [(a.x, a.y) for a in replay.actions if a.kind == "probe"]
    cells = [g.cell for g in guesses]
    assert cells == sorted(cells, key=probes.index)  # the player's probes, in their order
    assert guesses[0].cell == probes[0]  # the first click is the player's
    # Asked again after a take-back (the game rebuilt), the driver gives the same guesses.
    again = driver.game()
    for moves, guess in enumerate(guesses):
        assert driver.guess(again, moves) == guess
        again.probe(*guess.cell)


def test_a_lost_replay_ends_lost_on_its_fatal_guess(tmp_path: Path) -> None:
    # A 50/50 in the right column that the auto-solver cannot settle: the player lost it.
    layout = MineLayout.from_rows(["oox", "ooo"])
    actions = [ReplayAction("probe", 0, 0, 0.0), ReplayAction("probe", 2, 0, 1.0)]
    path = tmp_path / "lost.evf"
    write_evf(path, layout, actions, "SemiAutoMines test", "test")
    game, guesses = play_out(HumanReplayDriver(read_replay(path)))
    assert game.state is GameState.LOST
    assert guesses[-1].cell == (2, 0) and guesses[-1].note.startswith("move 2: (2, 0) mine")


def test_replay_gif_of_a_replay_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gif = tmp_path / "game.gif"
    assert cli_main(["replay", str(REPLAYS / "beginner-preflags.rmv"), "--gif", str(gif)]) == 0
    assert "Viennasweeper replay beginner-preflags.rmv" in capsys.readouterr().out
    with Image.open(gif) as image:
        assert image.n_frames > 1


def test_bad_replay_arguments_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.avf"
    broken.write_bytes((REPLAYS / "custom-8x11.avf").read_bytes()[:200])
    for args in (
        ["replay", str(REPLAYS / "custom-8x11.avf"), "--game", "3"],
        ["replay", str(broken)],
        ["replay", str(tmp_path / "game.msor")],
        ["replay", str(tmp_path)],  # a folder without --game
    ):
        assert cli_main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


# After the first probe in the bottom-left corner, the auto-solver flags (2, 0), (3, 2)
# and (4, 2) as proven mines and stops before a coin flip at (4, 0) / (4, 1); the
# player, who saw less, opens the proven mine (3, 2).
SOLVED_MINE = ["ooxox", "ooooo", "oooxx", "ooooo"]


def _replay_of(tmp_path: Path, rows: list[str], actions: list[ReplayAction]):
    path = tmp_path / "game.evf"
    write_evf(path, MineLayout.from_rows(rows), actions, "SemiAutoMines test", "test")
    return read_replay(path)


@pytest.mark.parametrize(
    "actions",
    [
        [ReplayAction("probe", 0, 3, 0.0), ReplayAction("probe", 3, 2, 1.0)],
        # A wrong flag on (3, 3) and a chord on the 1 at (2, 3): it opens (3, 2).
        [
            ReplayAction("probe", 0, 3, 0.0),
            ReplayAction("flag", 3, 3, 1.0),
            ReplayAction("chord", 2, 3, 2.0),
        ],
    ],
    ids=["probe", "chord"],
)
def test_opening_a_mine_the_auto_solver_flagged_loses_there(
    tmp_path: Path, actions: list[ReplayAction]
) -> None:
    replay = _replay_of(tmp_path, SOLVED_MINE, actions)
    driver = HumanReplayDriver(replay)
    game, guesses = play_out(driver)
    assert game.state is GameState.LOST
    last = guesses[-1]
    assert last.cell == (3, 2) and last.opens_flag
    assert "a mine the auto-solver had proven" in last.note
    # Stepping ends where the review lists the losing guess.
    review = review_replay(replay)
    assert review.outcome == "lost"
    lost = [g for g in review.guesses if g.lost]
    assert [(g.move, g.x, g.y) for g in lost] == [(len(actions), 3, 2)]
    assert driver.move_of(len(guesses) - 1) == len(actions)


def test_a_chord_is_stepped_cell_by_cell(tmp_path: Path) -> None:
    # The chord on the 1 at (2, 2), with a wrong flag on (3, 1), opens (1, 1) (a mine)
    # and (2, 1); logic proves neither, so both are guesses and the first one loses.
    rows = ["oooox", "oxoox", "xoooo", "ooooo", "oooox"]
    actions = [
        ReplayAction("probe", 0, 4, 0.0),
        ReplayAction("flag", 3, 1, 1.0),
        ReplayAction("chord", 2, 2, 2.0),
    ]
    game, guesses = play_out(HumanReplayDriver(_replay_of(tmp_path, rows, actions)))
    assert game.state is GameState.LOST
    assert [g.cell for g in guesses] == [(0, 4), (1, 1)]
    assert guesses[-1].note.startswith("move 3 (chord on 2, 2): (1, 1) mine 50.0%")
