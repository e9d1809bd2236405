"""The from-scratch learning-curve runner: runs that learn alone, evaluated at
every checkpoint, gathered into curves.csv, resumed where they stopped."""

from __future__ import annotations

import csv
import json

import pytest

pytest.importorskip("sb3_contrib")

from semiautomines_agents.training import from_scratch, from_scratch_plot  # noqa: E402

SMALL = ["--boards", "beginner", "--obs-modes", "planes", "--seeds", "1", "--num-envs", "1"]
SMALL += ["--eval-every", "128", "--eval-games", "10"]


def curve(runs_dir) -> list[dict[str, str]]:
    with open(runs_dir / "curves.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_runs_evaluate_every_checkpoint_and_resume(tmp_path, capsys):
    runs = tmp_path / "runs"
    assert from_scratch.main([*SMALL, "--runs-dir", str(runs), "--budget", "128"]) == 0
    assert [int(row["timesteps"]) for row in curve(runs)] == [0, 128]
    run = runs / "scratch_beginner_planes_s1"
    args = json.loads((run / "final.json").read_text())["args"]
    assert args["teacher"] == "none" and args["imitation_games"] == 0
    assert args["dagger_rounds"] == 0 and args["init_model"] == "" and args["prior_scale"] == 0.0
    with open(runs / "baselines.csv", newline="") as handle:
        assert {row["agent"] for row in csv.DictReader(handle)} == {"random", "greedy", "search"}

    # Again with the same budget: nothing to do. With a larger one: it continues.
    assert from_scratch.main([*SMALL, "--runs-dir", str(runs), "--budget", "128"]) == 0
    assert "done already" in capsys.readouterr().out
    assert from_scratch.main([*SMALL, "--runs-dir", str(runs), "--budget", "256"]) == 0
    assert "resumed from" in capsys.readouterr().out
    steps = [int(row["timesteps"]) for row in curve(runs)]
    assert steps == sorted(set(steps)) and steps[-1] == 256
    assert all(0.0 <= float(row["win_rate"]) <= 1.0 for row in curve(runs))
    assert from_scratch_plot.main([str(runs)]) == 0
    assert (runs / "curves.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--obs-modes", "grid"], "--obs-modes"),
        (["--budget", "0"], "--budget"),
        (["--seeds", "x"], "--seeds"),
    ],
)
def test_bad_flags_are_one_line(flags, message, tmp_path, capsys):
    assert from_scratch.main([*flags, "--runs-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
