"""``evaluate --save-games`` and ``semiautomines replay`` without a terminal.

Every saved game, replayed, must end exactly as it was recorded (won, guesses,
cells opened), whatever the first-click policy did to the layout; saving must
not change a game; a bad run folder or game number is one line and exit 2.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from paths import REPO
from PIL import Image, ImageSequence

from minesweep_env.cli.main import main as cli_main
from minesweep_env.core.minefield import GameState
from minesweep_env.render import BoardPainter
from minesweep_env.tui import play_out
from semiautomines_agents.evaluation import Settings, board_target, evaluate, map_targets
from semiautomines_agents.evaluation.saved_games import (
    GAMES_FILE,
    load_saved_games,
    write_saved_games,
)
from semiautomines_agents.watching import RecordDriver

NO_GUESS = REPO / "maps" / "no-guess" / "intermediate"


def saved_run(tmp_path: Path, agents, targets, first_click="safe", games=8, seed=3) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    settings = Settings("complete", first_click, seed, save_games=True)
    run = evaluate(agents, targets, settings, games, workers=1, progress=False)
    write_saved_games(run, tmp_path)
    return tmp_path


def replayed_outcome(played):
    game, guesses = play_out(RecordDriver(played))
    safe = game.width * game.height - game.minefield.mine_count
    opened = np.count_nonzero(game.view >= 0) / safe
    return game, (game.state is GameState.WON, game.guesses, pytest.approx(opened))


@pytest.mark.parametrize("first_click", ["safe", "zero", "endoh", "none"])
def test_every_saved_game_replays_to_its_recorded_end(tmp_path, first_click):
    folder = saved_run(tmp_path, ["greedy", "random"], [board_target("beginner")], first_click)
    played = load_saved_games(folder)
    assert {(p.agent, p.record.index) for p in played} == {
        (agent, k) for agent in ("greedy", "random") for k in range(8)
    }
    moved = 0
    for entry in played:
        _, outcome = replayed_outcome(entry)
        record = entry.record
        assert outcome == (record.won, record.guesses, record.safe_opened)
        moved += bool(entry.saved.removed or entry.saved.added)
    if first_click in ("safe", "zero"):
        assert moved > 0, "no first click moved a mine: the outcome is not exercised"


def test_maps_with_fixed_starts_are_saved_and_replayed(tmp_path):
    targets = map_targets(sorted(NO_GUESS.glob("*.txt"))[:3])
    folder = saved_run(tmp_path, ["search"], targets)
    played = load_saved_games(folder)
    assert len(played) == 3
    for entry in played:
        assert entry.saved.map is not None and entry.saved.layout_seed is None
        _, outcome = replayed_outcome(entry)
        assert outcome == (entry.record.won, entry.record.guesses, entry.record.safe_opened)


def test_saving_the_games_does_not_change_them(tmp_path):
    targets = [board_target("intermediate")]
    plain = evaluate(["greedy"], targets, Settings(seed=9), 6, workers=1, progress=False)
    saving = evaluate(
        ["greedy"], targets, Settings(seed=9, save_games=True), 6, workers=1, progress=False
    )

    def outcomes(run):
        records = run.records[("greedy", "intermediate")]
        return [dataclasses.replace(r, seconds=0.0, saved=None) for r in records]

    assert outcomes(plain) == outcomes(saving)
    assert all(r.saved is None for r in plain.records[("greedy", "intermediate")])


def test_a_saved_game_is_one_short_self_contained_line(tmp_path):
    folder = saved_run(tmp_path, ["search"], [board_target("expert")], games=2)
    lines = (folder / GAMES_FILE).read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        data = json.loads(line)
        assert len(line) < 600
        assert len(data["mines"]) == 2 * 60  # 480 cells, a bit each, in hex
        assert (data["agent"], data["board"], data["rule_set"]) == ("search", "expert", "complete")
        assert len(data["moves"]) == data["guesses"]
        assert not list(folder.glob(".*.tmp"))


def test_evaluate_save_games_writes_games_jsonl(tmp_path, capsys):
    args = ["evaluate", "--agents", "greedy", "--boards", "beginner", "--maps", "none"]
    args += ["--games", "3", "--workers", "1", "--no-progress", "--out", str(tmp_path)]
    assert cli_main([*args, "--save-games"]) == 0
    (folder,) = tmp_path.iterdir()
    assert len(load_saved_games(folder)) == 3
    assert GAMES_FILE in capsys.readouterr().out
    assert cli_main(args) == 0
    assert sum((f / GAMES_FILE).exists() for f in tmp_path.iterdir()) == 1


def one_line_error(capsys, *args: str) -> str:
    assert cli_main(list(args)) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert captured.out == ""
    return lines[0]


def test_a_bad_run_folder_or_game_number_is_one_line_and_exit_2(tmp_path, capsys):
    folder = saved_run(tmp_path / "run", ["greedy", "random"], [board_target("beginner")], games=3)
    error = one_line_error(capsys, "replay", str(tmp_path / "nowhere"), "--game", "0")
    assert "no such run folder" in error
    (tmp_path / "empty").mkdir()
    error = one_line_error(capsys, "replay", str(tmp_path / "empty"), "--game", "0")
    assert "--save-games" in error
    error = one_line_error(capsys, "replay", str(folder), "--game", "0")
    assert "greedy, random" in error and "--agent" in error
    error = one_line_error(capsys, "replay", str(folder), "--game", "7", "--agent", "greedy")
    assert "no game 7" in error and "0..2" in error
    error = one_line_error(capsys, "replay", str(folder), "--game", "0", "--agent", "search")
    assert "no games of agent 'search'" in error
    (folder / GAMES_FILE).write_text('{"agent": "greedy"}\n')
    error = one_line_error(capsys, "replay", str(folder), "--game", "0")
    assert f"{GAMES_FILE}:1" in error


def test_replay_gif_ends_on_the_recorded_outcome(tmp_path, capsys):
    folder = saved_run(tmp_path / "run", ["search"], [board_target("beginner")], games=4)
    entry = load_saved_games(folder)[2]
    gif = tmp_path / "game.gif"
    assert cli_main(["replay", str(folder), "--game", "2", "--gif", str(gif)]) == 0
    outcome = "won" if entry.record.won else "lost"
    assert f"{outcome} after {entry.record.guesses} guess" in capsys.readouterr().out
    game, _ = replayed_outcome(entry)
    with Image.open(gif) as image:
        last = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(image)][-1]
    np.testing.assert_array_equal(last, BoardPainter(24).paint(game))


def test_watch_refuses_bad_arguments_in_one_line(capsys):
    error = one_line_error(capsys, "watch", "--delay", "-1", "--gif", "x.gif")
    assert "--delay" in error
    error = one_line_error(capsys, "watch", "maps/ioccc/ioccc.txt", "--board", "expert")
    assert "not both" in error
    error = one_line_error(capsys, "watch", "--agent", "nobody", "--gif", "x.gif")
    assert "unknown agent" in error
    error = one_line_error(capsys, "watch", "--board", "beginner")  # no terminal under pytest
    assert "terminal" in error
