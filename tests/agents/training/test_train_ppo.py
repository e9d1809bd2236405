"""Training end to end with tiny settings: it learns something, saves, reloads, resumes."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import gymnasium as gym  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

import minesweep_env  # noqa: E402, F401
from minesweep_env.cli.main import main as cli_main  # noqa: E402
from semiautomines_agents.model_files import is_sb3_zip, load_policy  # noqa: E402
from semiautomines_agents.policies import policy_for_board  # noqa: E402
from semiautomines_agents.train_ppo import Args, main, train  # noqa: E402


def tiny_args(tmp_path, **changes) -> Args:
    settings = dict(
        run_name="tiny",
        runs_dir=str(tmp_path / "runs"),
        board="5x5x3",
        obs_mode="planes",
        num_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=2,
        learning_rate=1e-3,
        total_timesteps=512,
        eval_freq=256,
        eval_games=10,
        checkpoint_freq=256,
        channels=8,
        blocks=1,
        value_hidden=16,
        progress_bar=False,
        save_model=str(tmp_path / "models" / "ppo_tiny.pt"),
    )
    settings.update(changes)
    return Args(**settings)


def action_probabilities(policy, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    with th.no_grad():
        distribution = policy.get_distribution(th.as_tensor(obs[None]), mask[None])
        return distribution.distribution.probs[0].numpy()


def play(policy, env: gym.Env, games: int) -> tuple[int, int]:
    """Greedy play of ``games`` games; returns (valid actions, invalid actions)."""
    policy_for_board(policy, env.observation_space)
    valid = invalid = 0
    for game in range(games):
        obs, info = env.reset(seed=game)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert (mask == info["action_mask"]).all()
            action, _ = policy.predict(obs, action_masks=mask, deterministic=True)
            valid += bool(mask[int(action)])
            invalid += not mask[int(action)]
            obs, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
    return valid, invalid


@pytest.mark.slow
def test_training_moves_the_policy_and_leaves_every_artefact(tmp_path):
    args = tiny_args(tmp_path)
    run_dir = train(args)
    model_path = tmp_path / "models" / "ppo_tiny.pt"
    policy, meta = load_policy(model_path)  # weights only: nothing unpickled
    assert meta["timesteps"] >= 512
    assert MaskablePPO.load(run_dir / "final.sb3-trusted-only.zip").num_timesteps >= 512

    # The actor head starts at exactly zero (a uniform policy); learning moved it.
    head = policy.mlp_extractor.actor
    assert head.weight.abs().sum().item() > 0
    env = gym.make("SemiAutoMines-v0", width=5, height=5, mines=3, obs_mode="planes")
    for seed in range(100):  # a position after one move with a real guess left
        env.reset(seed=seed)
        obs, _, terminated, _, _ = env.step(12)
        if not terminated:
            break
    mask = env.unwrapped.action_masks()
    assert not terminated and mask.sum() >= 2
    probs = action_probabilities(policy, obs, mask)
    assert not np.allclose(probs, mask / mask.sum(), atol=1e-4)  # no longer uniform
    assert probs[~mask].max() < 1e-6

    evaluations = (run_dir / "eval.csv").read_text().splitlines()
    assert evaluations[0].startswith("timesteps,")
    assert len(evaluations) - 1 >= 3  # at the start, at 256 steps, at the end
    checkpoints = sorted(p.name for p in (run_dir / "checkpoints").iterdir())
    assert checkpoints[:1] == ["ppo_256_steps.sb3-trusted-only.zip"]
    baselines = (run_dir / "eval_baselines.csv").read_text().splitlines()
    assert [line.split(",")[0] for line in baselines] == ["agent", "random", "greedy"]
    assert (run_dir / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    assert list((run_dir / "tb").rglob("events.out.tfevents.*"))
    meta = json.loads(model_path.with_suffix(".json").read_text())
    assert meta["env_kwargs"]["obs_mode"] == "planes"
    assert meta["env_kwargs"]["width"] == 5
    assert meta["format"] == "semiautomines-cell-policy" and meta["network"]["channels"] == 8
    assert not is_sb3_zip(model_path)
    assert [p.name for p in (run_dir / "evaluated").glob("*.pt")]  # snapshots, weights only


@pytest.mark.slow
def test_a_saved_model_reloads_and_only_picks_valid_cells_on_any_board(tmp_path):
    train(tiny_args(tmp_path, eval_freq=0, checkpoint_freq=0, total_timesteps=256))
    policy, _ = load_policy(tmp_path / "models" / "ppo_tiny.pt")
    for board in ({"width": 5, "height": 5, "mines": 3}, {"board": "beginner"}):
        env = gym.make("SemiAutoMines-v0", obs_mode="planes", **board)
        valid, invalid = play(policy, env, games=15)
        assert invalid == 0
        assert valid >= 15  # every game made at least one move


@pytest.mark.slow
def test_resume_continues_the_step_count_and_the_logs(tmp_path):
    first = train(tiny_args(tmp_path, eval_freq=0, save_model=""))
    checkpoint = first / "checkpoints" / "ppo_512_steps.sb3-trusted-only.zip"
    assert checkpoint.is_file()
    monitor = first / "monitor" / "0.monitor.csv"
    episodes_before = len(monitor.read_text().splitlines())
    args = tiny_args(
        tmp_path, resume=str(checkpoint), total_timesteps=768, eval_freq=0, save_model=""
    )
    with pytest.raises(ValueError, match="--trust-model"):  # a zip unpickles: trust is explicit
        train(args)
    resumed = train(dataclasses.replace(args, trust_model=True))
    assert resumed == first
    model = MaskablePPO.load(resumed / "final.sb3-trusted-only.zip", device="cpu")
    assert 768 <= model.num_timesteps < 768 + 128
    assert len(monitor.read_text().splitlines()) > episodes_before  # appended, not restarted


def test_bad_settings_are_one_line_and_exit_2(tmp_path, capsys):
    assert cli_main(["train", "--board", "9y9", "--runs-dir", str(tmp_path)]) == 2
    assert "--board" in capsys.readouterr().err
    assert main(["--num-envs", "0", "--runs-dir", str(tmp_path)]) == 2
    assert "--num-envs must be positive" in capsys.readouterr().err
    assert cli_main(["train", "--board", "0x0x1"]) == 2
    assert "0x0x1" in capsys.readouterr().err
    assert cli_main(["train", "--rule-set", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
    assert cli_main(["train", "--obs-mode", "grid"]) == 2
    assert "planes" in capsys.readouterr().err
    assert cli_main(["train", "--resume", str(tmp_path / "nope.zip")]) == 2
    assert "no checkpoint" in capsys.readouterr().err
    assert cli_main(["train", "--save-model", str(tmp_path / "m.zip")]) == 2
    assert "must end in .pt" in capsys.readouterr().err
    existing = tmp_path / "m.pt"
    existing.write_bytes(b"x")
    assert cli_main(["train", "--save-model", str(existing)]) == 2
    assert "--force" in capsys.readouterr().err
    assert existing.read_bytes() == b"x"
    assert not (tmp_path / "tiny").exists()


@pytest.mark.slow
def test_imitation_warm_start_learns_greedys_moves(tmp_path):
    args = tiny_args(
        tmp_path,
        obs_mode="planes+probabilities",
        imitation_games=40,
        imitation_epochs=12,
        imitation_lr=3e-3,
        batch_size=16,
        total_timesteps=128,
        eval_freq=0,
        checkpoint_freq=0,
    )
    run_dir = train(args)
    rows = (run_dir / "imitation.csv").read_text().splitlines()
    assert rows[0] == "stage,epoch,moves,accuracy,loss"
    epochs = [row.split(",") for row in rows[1:]]
    assert len(epochs) == 12 and {epoch[0] for epoch in epochs} == {"bc"}
    first, last = float(epochs[0][3]), float(epochs[-1][3])
    assert last > first and last >= 0.6  # greedy's first click and tie-breaks, learnt


@pytest.mark.parametrize(
    ("teacher", "lines"),
    [
        ("greedy", ["random", "greedy"]),
        ("search", ["random", "greedy", "search"]),
        (
            "search:width=8:secondary=0",
            ["random", "greedy", "search:width=8:secondary=0", "search"],
        ),
    ],
)
def test_the_curve_shows_the_default_search_beside_a_search_teacher_with_settings(teacher, lines):
    from semiautomines_agents.training.snapshots import baseline_agents

    assert baseline_agents(Args(teacher=teacher)) == lines


def test_a_long_agent_name_is_cut_in_the_curve_and_the_figure_keeps_its_axes(tmp_path):
    """A teacher such as search:width=8:progress_weight=0.05:... once pushed the axes out
    of the picture; its legend entry is cut and the legend sits below the axes."""
    from matplotlib.image import imread

    from semiautomines_agents.training.curve import (
        LABEL_CHARACTERS,
        plot_learning_curve,
        short_name,
    )

    long_name = "search:" + ":".join(f"setting{k}=0" for k in range(12))
    assert short_name("greedy") == "greedy"
    assert len(short_name(long_name)) == LABEL_CHARACTERS and short_name(long_name).endswith(
        "\u2026"
    )
    (tmp_path / "eval.csv").write_text("timesteps,wall_s,win_rate\n0,1.0,0.38\n100,2.0,0.40\n")
    (tmp_path / "eval_baselines.csv").write_text(
        f"agent,games,win_rate,ci_low,ci_high\ngreedy,10,0.38,0.3,0.5\n{long_name},10,0.4,0.3,0.5\n"
    )
    plot_learning_curve(tmp_path, tmp_path / "curve.png", f"expert: imitation of {long_name}")
    height, width = imread(tmp_path / "curve.png").shape[:2]
    assert width <= 7 * 120 * 1.2  # nothing drawn far outside the 7-inch figure


def test_a_run_stopped_before_anything_was_measured_draws_its_curve_without_a_warning(
    tmp_path,
):
    """A run killed before its first episode or evaluation still gets a picture; with
    nothing to label there is no legend (matplotlib warns about an empty one)."""
    import warnings

    from semiautomines_agents.training.curve import plot_learning_curve

    (tmp_path / "monitor").mkdir()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot_learning_curve(tmp_path, tmp_path / "curve.png", "stopped at once")
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
