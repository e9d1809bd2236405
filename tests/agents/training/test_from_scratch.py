"""The from-scratch learning-curve runner: runs that learn alone, evaluated at
every checkpoint, gathered into curves.csv, resumed where they stopped."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import gymnasium as gym
import pytest

import minesweep_env  # noqa: F401 - registers the env

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
    segments = json.loads((run / from_scratch.TIMING_NAME).read_text())["segments"]
    assert [(s["from_steps"], s["to_steps"]) for s in segments] == [(0, 128), (128, 256)]
    with open(runs / "speeds.csv", newline="") as handle:
        (speed,) = csv.DictReader(handle)
    assert int(speed["timesteps"]) == 256 and float(speed["cpu_s"]) > 0
    assert float(speed["steps_per_cpu_s"]) == pytest.approx(256 / float(speed["cpu_s"]), rel=0.01)
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


SHIPPED = Path(__file__).parents[3] / "agents" / "models" / "ppo_scratch_beginner.pt"


def test_the_shipped_from_scratch_model_learned_alone_and_plays():
    """Its sidecar's training args name no teacher, imitation, DAgger, initial model or
    prior, its network has no prior, and it plays a seeded beginner game to the end."""
    from semiautomines_agents.model_files import read_sidecar
    from semiautomines_agents.ppo import PPOAgent

    sidecar = read_sidecar(SHIPPED)
    args = sidecar["args"]
    assert args["teacher"] == "none"
    assert args["imitation_games"] == 0 and args["dagger_rounds"] == 0
    assert args["init_model"] == "" and args["prior_scale"] == 0.0
    assert sidecar["network"]["prior_scale"] == 0.0 and sidecar["obs_mode"] == "planes"
    assert not Path(args["runs_dir"]).is_absolute()
    agent = PPOAgent(SHIPPED)
    env = gym.make("SemiAutoMines-v0", board="beginner", obs_mode=agent.obs_mode)
    obs, _ = env.reset(seed=3)
    terminated = truncated = False
    while not (terminated or truncated):
        mask = env.unwrapped.action_masks()
        action = agent.act(obs, mask)
        assert mask[action]
        obs, _, terminated, truncated, _ = env.step(action)
    assert terminated


def test_a_run_another_command_is_training_is_skipped(tmp_path):
    """While a run's lock is held (another command training it), the run is left alone:
    nothing trains, nothing is written; once the lock is free it would train."""
    import fcntl

    args = from_scratch.scratch_args("beginner", "planes", 1, tmp_path, budget=128)
    run_dir = tmp_path / args.run_name
    run_dir.mkdir()
    with open(run_dir / from_scratch.LOCK_NAME, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert from_scratch.train_one(args) == "skipped: another command is training it"
        assert sorted(p.name for p in run_dir.iterdir()) == [from_scratch.LOCK_NAME]
    with from_scratch.run_lock(run_dir) as ours:
        assert ours


def test_the_plot_adds_the_single_file_trainer_as_its_own_band(tmp_path):
    (tmp_path / "curves.csv").write_text(
        ",".join(from_scratch.CURVE_KEYS)
        + "\nbeginner,planes,1,0,1.0,0.80,0.7,0.9\nbeginner,planes,1,50000,2.0,0.91,0.9,0.93\n"
    )
    (tmp_path / "cleanrl_eval.csv").write_text(
        "run,seed,timesteps,games,win_rate\n"
        "cleanrl_beginner_planes_s2,2,51200,1000,0.92\n"
        "cleanrl_beginner_planes_s2,2,0,1000,0.81\n"
        "cleanrl_beginner_planes_s1,1,0,1000,0.79\n"
    )
    curves = from_scratch_plot.read_curves(tmp_path / "curves.csv")
    from_scratch_plot.add_cleanrl(curves, tmp_path / "cleanrl_eval.csv")
    series = curves["beginner"][from_scratch_plot.CLEANRL_SERIES]
    assert series[2] == [(0, 0.81), (51200, 0.92)] and series[1] == [(0, 0.79)]
    steps, mean, low, high = from_scratch_plot.seed_band(series)
    assert list(steps) == [0] and low[0] == pytest.approx(0.79) and high[0] == 0.81
    assert from_scratch_plot.main([str(tmp_path)]) == 0
    assert (tmp_path / "curves.png").stat().st_size > 0
