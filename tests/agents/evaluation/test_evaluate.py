"""The evaluation harness and ``semiautomines evaluate``, through the real entry point."""

from __future__ import annotations

import csv
import json
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from interrupting import ctrl_c_once_playing
from paths import REPO

from minesweep_env import MapFormatError, MineLayout, format_ioccc
from minesweep_env.cli.main import main as cli_main
from semiautomines_agents.evaluation import (
    GameRecord,
    Settings,
    board_target,
    games_for,
    map_targets,
    plan,
    summarise,
    wilson_interval,
)

CLI = Path(sys.executable).with_name("semiautomines")
RECORD_KEYS = {"agent", "board", "games", "wins", "win_rate", "ci_low", "ci_high"}
RECORD_KEYS |= {"mean_guesses", "games_per_s", "mean_safe_opened"}


def run_cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return subprocess.run(
        [*command, "evaluate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write_map(path: Path, width: int, height: int, mines: int, seed: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    layout = MineLayout.random(width, height, mines, np.random.default_rng(seed))
    path.write_text(format_ioccc(layout))
    return path


def only_run_folder(out: Path) -> Path:
    (folder,) = out.iterdir()
    return folder


# ---------------------------------------------------------------- statistics


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),  # textbook values of the Wilson score interval
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_matches_known_values(wins, games, low, high):
    assert wilson_interval(wins, games) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_summarise_means_and_speed():
    records = [
        GameRecord(0, True, 2, 1.0, 0.5),
        GameRecord(1, False, 4, 0.5, 1.5),
    ]
    summary = summarise(records)
    assert summary["games"] == 2 and summary["wins"] == 1 and summary["win_rate"] == 0.5
    assert summary["mean_guesses"] == 3.0 and summary["mean_safe_opened"] == 0.75
    assert summary["games_per_s"] == 1.0  # 2 games in 2 s of play
    assert (summary["ci_low"], summary["ci_high"]) == wilson_interval(1, 2)


# ---------------------------------------------------------------- targets and plan


def test_a_folder_of_same_size_maps_is_one_suite_and_others_stay_apart(tmp_path):
    for i in range(3):
        write_map(tmp_path / "suite" / f"m{i}.txt", 6, 5, 4, i)
    write_map(tmp_path / "mixed" / "a.txt", 6, 5, 4, 7)
    write_map(tmp_path / "mixed" / "b.txt", 8, 8, 10, 8)
    (tmp_path / "mixed" / "notes.md").write_text("not a map")
    targets = map_targets([tmp_path])
    by_count = sorted((len(t.maps), t.width) for t in targets)
    assert by_count == [(1, 6), (1, 8), (3, 6)]
    suite = next(t for t in targets if len(t.maps) == 3)
    assert suite.name.endswith("suite/") and suite.kind == "map"
    single = map_targets([tmp_path / "mixed" / "b.txt"])
    assert [(t.width, t.height, t.mines) for t in single] == [(8, 8, 10)]


def test_map_targets_reject_missing_paths_and_bad_maps(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such map file or folder"):
        map_targets([tmp_path / "absent.txt"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no map files \\(.txt, .mine, .mbf, .abf\\)"):
        map_targets([tmp_path / "empty"])
    bad = tmp_path / "bad.txt"
    bad.write_text("3 3 2\n0 1 2\n")
    with pytest.raises(MapFormatError, match="bad.txt"):
        map_targets([bad])


def test_board_targets_by_name_or_size():
    assert (board_target("expert").width, board_target("expert").mines) == (30, 99)
    custom = board_target("8x6x7")
    assert (custom.width, custom.height, custom.mines) == (8, 6, 7)
    for bad in ("huge", "8x8x64", "0x5x1"):
        with pytest.raises(ValueError):
            board_target(bad)


def test_plan_interleaves_agents_and_plays_maps_once_for_deterministic_agents(tmp_path):
    for i in range(3):
        write_map(tmp_path / "s" / f"{i}.txt", 5, 5, 3, i)
    (suite,) = map_targets([tmp_path / "s"])
    (single,) = map_targets([tmp_path / "s" / "0.txt"])
    board = board_target("beginner")
    assert games_for(board, 10, True) == 10
    assert games_for(single, 10, True) == 1  # a replay would be the same game
    assert games_for(suite, 10, True) == 3
    assert games_for(suite, 10, False) == 12  # whole passes over the maps
    chunks = plan(
        ["random", "greedy"],
        {"random": False, "greedy": True},
        [board, suite],
        Settings(),
        games=7,
        chunk_games=3,
    )
    assert [(c.agent, c.target.name, c.indices) for c in chunks[:4]] == [
        ("random", "beginner", (0, 1, 2)),
        ("greedy", "beginner", (0, 1, 2)),
        ("random", suite.name, (0, 1, 2)),
        ("greedy", suite.name, (0, 1, 2)),
    ]
    played = {}
    for chunk in chunks:
        played.setdefault((chunk.agent, chunk.target.kind), []).extend(chunk.indices)
    assert played[("random", "board")] == list(range(7))
    assert played[("greedy", "map")] == [0, 1, 2]
    assert played[("random", "map")] == list(range(9))


def test_a_fixed_first_click_is_played_for_every_agent(tmp_path):
    from semiautomines_agents.evaluation import evaluate

    repo_maps = REPO / "maps" / "no-guess" / "beginner"
    if not repo_maps.is_dir():
        pytest.skip("maps/no-guess not present")
    (suite,) = map_targets([repo_maps])
    assert len(suite.starts) == len(suite.maps) and all(suite.starts)
    run = evaluate(["random", "greedy"], [suite], Settings(), games=10, progress=False)
    for row in run.rows:  # solvable without a guess from the start, by anyone
        assert (row["games"], row["wins"], row["mean_guesses"]) == (100, 100, 1.0)
        assert row["fixed_starts"] == 100


def test_a_start_cell_outside_the_map_is_bad_input(tmp_path):
    path = write_map(tmp_path / "m.txt", 5, 5, 3, 0)
    path.with_suffix(".start").write_text("7 1\n")
    with pytest.raises(MapFormatError, match="outside the 5x5 map"):
        map_targets([path])


# ---------------------------------------------------------------- the command


def test_evaluate_writes_every_report_in_a_new_folder(tmp_path):
    maps = write_map(tmp_path / "maps" / "small.txt", 6, 6, 5, 1)
    out = tmp_path / "out"
    args = ["--agents", "random,greedy", "--boards", "beginner", "--maps", str(maps)]
    args += ["--games", "6", "--workers", "1", "--out", str(out), "--no-progress"]
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = only_run_folder(out)
    records = json.loads((folder / "results.json").read_text())
    assert [(r["agent"], r["board"]) for r in records] == [
        ("random", "beginner"),
        ("greedy", "beginner"),
        ("random", "maps/small.txt"),
        ("greedy", "maps/small.txt"),
    ]
    for record in records:
        assert set(record) >= RECORD_KEYS
        assert 0 <= record["ci_low"] <= record["win_rate"] <= record["ci_high"] <= 1
        assert record["wins"] == round(record["win_rate"] * record["games"])
        assert record["mean_guesses"] >= 1
    assert [r["games"] for r in records] == [6, 6, 6, 1]  # greedy plays a map once
    assert [r["exact"] for r in records] == [False, False, False, True]
    csv_lines = (folder / "results.csv").read_text().splitlines()
    assert len(csv_lines) == 5 and csv_lines[0].startswith("agent,board,games,wins,win_rate")
    assert (folder / "win_rates.png").read_bytes()[:4] == b"\x89PNG"
    table = (folder / "results.md").read_text()
    assert "| greedy | beginner |" in table and "| greedy | beginner |" in result.stdout
    assert "--games 6 --seed 0" in table  # the command that made it
    assert "| greedy | maps/small.txt | 6x6/5 | 1 |" in table and "exact (one fixed game)" in table
    assert "- `maps/small.txt`: 6x6, 5 mines" in table  # the maps are listed
    again = run_cli(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(list(out.iterdir())) == 2  # a second folder, the first untouched
    assert json.loads((folder / "results.json").read_text()) == records


def _results_without_speed(folder: Path) -> list[dict]:
    records = json.loads((folder / "results.json").read_text())
    for record in records:
        record.pop("games_per_s")
    return records


def test_workers_do_not_change_the_results(tmp_path):
    suite = [write_map(tmp_path / "suite" / f"{i}.txt", 7, 7, 8, i) for i in range(4)]
    assert suite
    common = ["--agents", "random,greedy-plain,greedy", "--boards", "beginner,6x6x6"]
    common += ["--maps", str(tmp_path / "suite"), "--games", "60", "--no-progress"]
    folders = []
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}"
        result = run_cli(*common, "--workers", workers, "--out", str(out), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        folders.append(only_run_folder(out))
    one, two = (_results_without_speed(f) for f in folders)
    assert one == two
    assert any(0 < r["wins"] < r["games"] for r in one)  # not a trivial all-or-nothing run


def test_the_same_seed_gives_the_same_games_and_another_seed_others(tmp_path):
    base = ["--agents", "random", "--boards", "beginner", "--maps", "none"]
    base += ["--games", "80", "--workers", "1", "--no-progress"]
    outs = {}
    for name, seed in (("a", "1"), ("b", "1"), ("c", "2")):
        result = run_cli(*base, "--seed", seed, "--out", str(tmp_path / name), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        outs[name] = _results_without_speed(only_run_folder(tmp_path / name))
    assert outs["a"] == outs["b"]
    assert outs["a"] != outs["c"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["--boards", "huge"], "unknown board 'huge'"),
        (["--agents", "ppo", "--model", "missing.zip"], "missing.zip: no such model file"),
        (["--maps", "nowhere/map.txt"], "nowhere/map.txt: no such map file or folder"),
        (["--maps", "bad.txt"], "bad.txt:"),
        (["--games", "0"], "--games must be at least 1, got 0"),
        (["--games", "-3"], "--games must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--rule-set", "psychic"], "unknown rule set 'psychic'"),
        (["--games", "many"], "invalid int value"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "bad.txt").write_text("4 4 3\n0 1 2 3\n")
    result = run_cli(*args, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()  # nothing written before the input is checked


def test_ppo_without_a_model_is_skipped_by_default_with_a_notice(tmp_path, monkeypatch, capsys):
    # In this process, with an empty models folder: the "nothing shipped" case,
    # whether or not the repository ships a model.
    monkeypatch.setattr("semiautomines_agents.ppo.agent.MODELS_DIR", tmp_path / "no_models")
    monkeypatch.chdir(tmp_path)
    args = ["evaluate", "--boards", "beginner", "--maps", "none", "--games", "2"]
    args += ["--workers", "1", "--out", str(tmp_path / "out"), "--no-progress"]
    assert cli_main(args) == 0
    assert "skipping ppo: no PPO model shipped yet" in capsys.readouterr().err
    records = json.loads((only_run_folder(tmp_path / "out") / "results.json").read_text())
    assert [r["agent"] for r in records] == ["random", "greedy"]
    explicit = ["evaluate", "--agents", "ppo", "--maps", "none", "--out", str(tmp_path / "o2")]
    assert cli_main(explicit) == 2
    assert "no PPO model shipped yet" in capsys.readouterr().err
    assert not (tmp_path / "o2").exists()


def test_ctrl_c_leaves_partial_results_and_says_so(tmp_path):
    out = tmp_path / "out"
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    args = ["evaluate", "--agents", "random,greedy", "--boards", "expert", "--maps", "none"]
    args += ["--games", "100000", "--workers", "1", "--out", str(out)]
    returncode, stdout, stderr = ctrl_c_once_playing([*command, *args], tmp_path, games=50)
    assert returncode == 130, stderr
    assert "interrupted: partial results" in stderr and "Traceback" not in stderr
    folder = only_run_folder(out)
    records = json.loads((folder / "results.json").read_text())
    assert records and all(0 < r["games"] < 100000 for r in records)
    assert "Partial results" in (folder / "results.md").read_text()
    assert json.loads((folder / "run.json").read_text())["interrupted"] is True
    assert "| random | expert |" in stdout


def test_help_shows_an_example(tmp_path):
    result = subprocess.run(
        [str(CLI), "evaluate", "--help"], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0
    assert "semiautomines evaluate --agents" in result.stdout


@pytest.mark.slow
def test_the_shipped_ppo_model_is_evaluated_by_default(tmp_path):
    from semiautomines_agents import ModelNotFoundError, default_model_path

    try:
        model = default_model_path()
    except ModelNotFoundError:
        pytest.skip("no PPO model shipped yet")
    args = ["--boards", "beginner,7x7x8", "--maps", "none", "--games", "3", "--workers", "1"]
    result = run_cli(*args, "--out", str(tmp_path / "out"), "--no-progress", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    records = json.loads((only_run_folder(tmp_path / "out") / "results.json").read_text())
    ppo = [r for r in records if r["agent"] == "ppo"]
    assert [r["board"] for r in ppo] == ["beginner", "7x7x8"]
    assert all(model.name in r["agent_detail"] and r["invalid_actions"] == 0 for r in ppo)
    assert "--model" not in result.stdout  # the default needs no --model to replay


def test_no_maps_unless_asked_and_the_recorded_command_repeats_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    common = ["--agents", "random", "--boards", "beginner", "--games", "4", "--workers", "1"]
    assert cli_main(["evaluate", *common, "--out", "a", "--no-progress"]) == 0
    run = json.loads((only_run_folder(tmp_path / "a") / "run.json").read_text())
    assert run["planned_games"] == 4  # the beginner board only: no maps/ added behind the back
    assert "--maps none" in run["command"]

    write_map(tmp_path / "mine" / "small.txt", 6, 6, 5, 1)
    assert cli_main(["evaluate", *common, "--maps", "mine", "--out", "b", "--no-progress"]) == 0
    first = only_run_folder(tmp_path / "b")
    command = json.loads((first / "run.json").read_text())["command"]
    again = [*shlex.split(command)[1:], "--workers", "1", "--out", "c", "--no-progress"]
    assert cli_main(again) == 0  # from the folder it was run in, the command plays it again
    second = only_run_folder(tmp_path / "c")
    rows = [json.loads((f / "results.json").read_text()) for f in (first, second)]
    assert [(r["board"], r["wins"]) for r in rows[0]] == [(r["board"], r["wins"]) for r in rows[1]]
    assert [r["board"] for r in rows[0]] == ["beginner", "mine/small.txt"]


def test_games_csv_and_games_jsonl_name_the_game_alike(tmp_path, monkeypatch):
    from semiautomines_agents.evaluation.paired import game_number

    monkeypatch.chdir(tmp_path)
    args = ["evaluate", "--agents", "random", "--boards", "beginner", "--games", "3"]
    args += ["--workers", "1", "--save-games", "--out", "o", "--no-progress"]
    assert cli_main(args) == 0
    folder = only_run_folder(tmp_path / "o")
    with (folder / "games.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    saved = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert [game_number(row) for row in rows] == [game["game"] for game in saved] == [0, 1, 2]
    assert "index" not in rows[0]
    assert game_number({"index": "7"}) == 7  # files written before the rename still read
