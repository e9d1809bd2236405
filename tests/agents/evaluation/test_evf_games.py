"""``evaluate --evf DIR``: every agent game as an .evf that ms-toollib reads back valid,
with the same layout and outcome."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from minesweep_env.cli.main import main as cli_main
from minesweep_env.core.minefield import GameState
from minesweep_env.formats.evf_out import NOMINAL_TIMING, layout_rows
from minesweep_env.formats.replay import read_replay
from minesweep_env.formats.replay_walk import final_state
from semiautomines_agents.evaluation.evf_games import evf_name
from semiautomines_agents.evaluation.saved_games import GAMES_FILE, load_saved_games

ms_toollib = pytest.importorskip("ms_toollib")


def test_every_game_is_written_as_an_evf_with_its_layout_and_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evf = tmp_path / "evf"
    args = ["evaluate", "--agents", "random,greedy", "--boards", "expert", "--maps", "none"]
    args += ["--games", "4", "--workers", "1", "--no-progress", "--out", str(tmp_path)]
    assert cli_main([*args, "--evf", str(evf)]) == 0
    capsys.readouterr()
    (run,) = tmp_path.glob("run-*")
    assert (run / GAMES_FILE).is_file()  # --evf keeps the saved games too
    played = load_saved_games(run)
    assert len(played) == 8 and {p.record.won for p in played} == {True, False}
    assert len(list(evf.glob("*.evf"))) == 8
    for game in played:
        path = evf / evf_name(game.agent, game.board, game.record.index)
        video = ms_toollib.EvfVideo(str(path))
        video.parse()
        video.analyse()
        assert video.is_valid()
        assert bool(video.is_completed) == game.record.won
        assert video.board == layout_rows(game.saved.layout_after_first_click())
        assert video.player_identifier == f"SemiAutoMines {game.agent}"
        assert NOMINAL_TIMING in video.software
        # Read by the project's own reader, the clicks end as the game did.
        replay = read_replay(path)
        assert np.array_equal(replay.layout.mines, game.saved.layout_after_first_click().mines)
        expected = GameState.WON if game.record.won else GameState.LOST
        assert final_state(replay) is expected


def test_evf_names_are_safe_file_names() -> None:
    assert evf_name("search", "expert", 3) == "search-expert-game3.evf"
    assert evf_name("search:depth=3", "maps/suites/expert/", 0) == "search_depth_3-expert-game0.evf"
    assert evf_name("greedy", "maps/a b.txt", 1) == "greedy-a_b.txt-game1.evf"


def test_evf_into_a_file_is_one_line_and_nothing_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    args = ["evaluate", "--agents", "random", "--boards", "beginner", "--maps", "none"]
    args += ["--games", "2", "--out", str(tmp_path / "out"), "--evf", str(blocker)]
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file" in err
    assert not (tmp_path / "out").exists()
