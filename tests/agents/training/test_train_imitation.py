"""Imitation of a teacher (cloning, then DAgger), its Ctrl-C and resume, and the shipped models."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from paths import REPO

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from interrupting import ctrl_c_once_playing  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from tiny_policy import tiny_cell_policy  # noqa: E402

import minesweep_env  # noqa: E402, F401
from minesweep_env.cli.main import main as cli_main  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.model_files import load_policy, save_policy  # noqa: E402
from semiautomines_agents.policies import CellPolicy  # noqa: E402
from semiautomines_agents.ppo import (  # noqa: E402
    DEFAULT_MODEL,
    MODELS_DIR,
    PPOAgent,
    default_model_path,
)
from semiautomines_agents.train_ppo import Args, train  # noqa: E402
from semiautomines_agents.training import positions  # noqa: E402
from semiautomines_agents.training.imitation import read_state  # noqa: E402
from semiautomines_agents.training.positions import Chunk, collect_stage, game_seed  # noqa: E402

BOARD = {"width": 6, "height": 6, "mines": 6}


def tiny_args(tmp_path, **changes) -> Args:
    settings = dict(
        run_name="tiny",
        runs_dir=str(tmp_path / "runs"),
        board="6x6x6",
        teacher="search",
        imitation_games=100,
        imitation_epochs=1,
        dagger_rounds=1,
        dagger_games=50,
        dagger_epochs=1,
        num_envs=2,
        vec_env="native",
        n_steps=32,
        batch_size=32,
        n_epochs=1,
        total_timesteps=64,
        eval_freq=64,
        eval_games=10,
        checkpoint_freq=0,
        channels=8,
        blocks=1,
        value_hidden=16,
        progress_bar=False,
    )
    settings.update(changes)
    return Args(**settings)


@pytest.fixture
def student(tmp_path) -> Path:
    """A small untrained network, saved weights only, to play DAgger's games."""
    # No "lowest probability" prior: it plays unlike the teacher.
    policy = tiny_cell_policy(6, seed=3, prior_scale=0.0)
    with th.no_grad():  # the actor head starts at zero (uniform): give it a preference
        policy.mlp_extractor.actor.weight.normal_()
    path = tmp_path / "student.pt"
    save_policy(policy, path, obs_mode="planes+probabilities")
    return path


def chunk(student_path: Path | None, count: int = 12) -> Chunk:
    return Chunk(
        env_kwargs={**BOARD, "obs_mode": "planes+probabilities", "info_probability": False},
        teacher="search",
        student=str(student_path) if student_path else None,
        seed=5,
        stage=1,
        first=0,
        count=count,
    )


def test_dagger_labels_are_the_teachers_moves_on_the_positions_the_student_reached(student):
    data = positions.play_chunk(chunk(student))
    env = gym.make("SemiAutoMines-v0", obs_mode="planes+probabilities", **BOARD)
    learner, teacher, greedy = PPOAgent(student), make_agent("search"), make_agent("greedy")
    replayed = 0
    for game in np.unique(data["games"]):
        rows = np.flatnonzero(data["games"] == game)
        obs, info = env.reset(seed=game_seed(5, 1, int(game)))
        teacher.reset()
        greedy.reset()
        for row in rows:  # the stored positions are the ones the student's moves lead to
            assert np.array_equal(data["planes"][row], obs[:11])
            assert np.array_equal(data["probabilities"][row], obs[11])
            position = env.unwrapped.game
            assert data["played"][row] == learner.act(obs, info["action_mask"], position)
            assert data["labels"][row] == teacher.act(obs, info["action_mask"], position)
            assert data["greedy"][row] == greedy.act(obs, info["action_mask"], position)
            obs, _, terminated, truncated, info = env.step(int(data["played"][row]))
            replayed += 1
        assert terminated or truncated
        assert data["outcomes"][rows[0]] == (1.0 if info["state"] == "won" else -1.0)
    assert replayed == len(data["labels"])
    # The student went its own way: otherwise this test could not tell who moved.
    assert (data["played"] != data["labels"]).any()


def test_in_cloning_the_teacher_plays_its_own_moves():
    data = positions.play_chunk(chunk(None))
    assert np.array_equal(data["played"], data["labels"])
    assert len(np.unique(data["games"])) == 12


def test_the_search_teachers_candidates_hold_its_move_at_the_best_score():
    data = positions.play_chunk(chunk(None, count=30))
    weighed = np.flatnonzero((data["candidates"] >= 0).sum(axis=1) >= 2)
    assert len(weighed) >= 5  # search weighed candidates in enough positions to test
    for row in weighed:
        cells, scores = data["candidates"][row], data["scores"][row]
        assert data["labels"][row] in cells
        assert scores[cells == data["labels"][row]][0] == np.nanmax(scores)
        assert data["masks"][row][cells[cells >= 0]].all()  # only cells it may probe
    unweighed = (data["candidates"] < 0).all(axis=1)
    assert np.isnan(data["scores"][unweighed]).all()
    assert unweighed[np.unique(data["games"], return_index=True)[1]].all()  # the first click
    # Search deviates from greedy somewhere: the weight of those positions has something to do.
    assert (data["labels"] != data["greedy"]).any()


def soft_data() -> dict[str, np.ndarray]:
    """Three positions of a 4-cell board: no candidates, two tied, three apart."""
    return {
        "labels": np.array([2, 1, 3]),
        "greedy": np.array([2, 0, 3]),
        "candidates": np.array([[-1, -1, -1], [1, 0, -1], [3, 0, 2]]),
        "scores": np.array([[np.nan] * 3, [0.7, 0.7, np.nan], [0.62, 0.60, 0.50]]),
    }


def test_soft_targets_spread_over_the_candidates_by_score():
    from semiautomines_agents.training.imitation import targets

    data, rows = soft_data(), np.arange(3)
    one_hot = targets(data, rows, 4, 0.0)
    assert np.array_equal(one_hot, np.eye(4, dtype=np.float32)[[2, 1, 3]])
    soft = targets(data, rows, 4, 0.01)
    assert np.allclose(soft.sum(axis=1), 1.0)
    assert np.array_equal(soft[0], one_hot[0])  # nothing weighed: the move alone
    assert soft[1][0] == soft[1][1] == 0.5 and soft[1][2] == soft[1][3] == 0  # an exact tie
    assert soft[2][3] > soft[2][0] > soft[2][2] > 0 and soft[2][1] == 0
    assert np.isclose(soft[2][0] / soft[2][3], np.exp(-2.0))  # (0.60 - 0.62) / 0.01
    sharper = targets(data, rows, 4, 0.001)
    assert sharper[2][3] > soft[2][3]


def test_positions_where_the_teacher_is_not_greedy_weigh_more():
    from semiautomines_agents.training.imitation import position_weights

    data = soft_data()
    assert position_weights(data, np.arange(3), 4.0).tolist() == [1.0, 4.0, 1.0]
    assert position_weights(data, np.array([1]), 1.0).tolist() == [1.0]


def test_a_stage_cut_short_plays_only_its_missing_chunks(tmp_path, monkeypatch):
    played = []
    real = positions.play_chunk

    def counting(job):
        played.append(job.first)
        return real(job)

    monkeypatch.setattr(positions, "play_chunk", counting)
    folder = tmp_path / "bc"
    whole = collect_stage(folder, 2 * positions.CHUNK_GAMES, chunk(None), progress=False)
    assert played == [0, positions.CHUNK_GAMES]
    (folder / f"chunk_{positions.CHUNK_GAMES}.npz").unlink()  # as if Ctrl-C came mid-chunk
    played.clear()
    again = collect_stage(folder, 2 * positions.CHUNK_GAMES, chunk(None), progress=False)
    assert played == [positions.CHUNK_GAMES]
    for name in positions.FIELDS:
        np.testing.assert_array_equal(whole[name], again[name])  # NaN scores compare equal


def test_a_stage_played_to_the_end_before_a_stop_loads_without_playing(tmp_path, monkeypatch):
    folder = tmp_path / "bc"
    whole = collect_stage(folder, 2 * positions.CHUNK_GAMES, chunk(None), workers=2, progress=False)
    monkeypatch.setattr(positions, "play_chunk", lambda job: pytest.fail(f"played {job.first}"))
    again = collect_stage(folder, 2 * positions.CHUNK_GAMES, chunk(None), workers=2, progress=False)
    for name in positions.FIELDS:
        np.testing.assert_array_equal(whole[name], again[name])


def test_bad_teacher_settings_are_one_line_and_exit_2(tmp_path, capsys):
    runs = ["--runs-dir", str(tmp_path)]
    assert cli_main(["train", "--teacher", "nobody", *runs]) == 2
    assert "--teacher" in capsys.readouterr().err
    assert cli_main(["train", "--teacher", "ppo", "--imitation-games", "5", *runs]) == 2
    assert "hand-written" in capsys.readouterr().err
    assert cli_main(["train", "--dagger-rounds", "2", *runs]) == 2
    assert "--imitation-games" in capsys.readouterr().err
    assert cli_main(["train", "--init-model", str(tmp_path / "none.pt"), *runs]) == 2
    assert "--init-model" in capsys.readouterr().err
    assert cli_main(["train", "--deviation-weight", "-1", *runs]) == 2
    assert "--deviation-weight" in capsys.readouterr().err
    assert cli_main(["train", "--soft-targets", "-0.1", *runs]) == 2
    assert "--soft-targets" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_ctrl_c_in_cloning_saves_and_resume_finishes_every_stage_without_replaying(tmp_path):
    args = tiny_args(
        tmp_path,
        imitation_games=4 * positions.CHUNK_GAMES,
        progress_bar=True,
        save_model=str(tmp_path / "shipped.pt"),
    )
    flags = []
    for field in dataclasses.fields(Args):
        value = getattr(args, field.name)
        flag = "--" + field.name.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else "--no-" + flag[2:])
        else:
            flags += [flag, str(value)]
    command = [sys.executable, "-m", "semiautomines_agents.train_ppo", *flags]
    status, _, err = ctrl_c_once_playing(command, REPO, games=positions.CHUNK_GAMES)
    assert status == 0, err
    run_dir = tmp_path / "runs" / "tiny"
    assert "interrupted" in err
    assert load_policy(run_dir / "final.pt")  # Ctrl-C saved the network, weights only
    assert read_state(run_dir)["completed"] == []
    assert not (tmp_path / "shipped.pt").exists()  # only a finished run ships its model
    kept = {p.name: p.stat().st_mtime_ns for p in (run_dir / "imitation" / "bc").glob("*.npz")}
    assert kept and len(kept) < 4

    resumed = dataclasses.replace(
        args,
        run_name="",
        resume=str(run_dir / "final.sb3-trusted-only.zip"),
        trust_model=True,
        progress_bar=False,
    )
    assert train(resumed) == run_dir
    state = read_state(run_dir)
    assert state["completed"] == ["bc", "dagger1"]
    for name, mtime in kept.items():  # the chunks played before Ctrl-C were not played again
        assert (run_dir / "imitation" / "bc" / name).stat().st_mtime_ns == mtime
    assert state["stages"]["bc"]["games"] == 4 * positions.CHUNK_GAMES
    assert state["stages"]["dagger1"]["agreement"] < 1  # the network played, not the teacher
    assert load_policy(tmp_path / "shipped.pt")[1]["args"]["teacher"] == "search"
    model = MaskablePPO.load(run_dir / "final.sb3-trusted-only.zip", device="cpu")
    assert model.num_timesteps >= 64

    # One axis for every phase: the stages' positions, then PPO's steps after them.
    rows = (run_dir / "eval.csv").read_text().splitlines()
    header = rows[0].split(",")
    table = [dict(zip(header, row.split(","), strict=True)) for row in rows[1:]]
    assert [row["phase"] for row in table][:2] == ["bc", "dagger1"]
    assert int(table[1]["timesteps"]) == state["positions"]
    assert all(row["phase"] == "ppo" for row in table[2:]) and len(table) >= 3
    assert int(table[-1]["timesteps"]) == state["positions"] + model.num_timesteps
    baselines = (run_dir / "eval_baselines.csv").read_text().splitlines()
    assert [line.split(",")[0] for line in baselines] == ["agent", "random", "greedy", "search"]
    assert (run_dir / "checkpoints" / "imitation_dagger1.sb3-trusted-only.zip").is_file()


def test_the_ppo_agent_plays_the_shipped_default_model():
    path = default_model_path()
    assert path == MODELS_DIR / f"{DEFAULT_MODEL}.pt"
    assert PPOAgent().model_path == path
    policy, meta = load_policy(path)  # weights only, sha256 checked against its JSON
    assert meta["obs_mode"] == "planes+probabilities"


def test_every_shipped_model_round_trips_weights_only(tmp_path):
    models = sorted(MODELS_DIR.glob("ppo_*.pt"))
    assert models
    for path in models:
        policy, meta = load_policy(path)
        planes = meta["network"]["observation_planes"]  # 12 with probabilities, 11 without
        obs = th.as_tensor(np.random.default_rng(0).random((4, planes, 16, 30)), dtype=th.float32)
        copy = tmp_path / path.name
        save_policy(policy, copy, obs_mode=meta["obs_mode"])
        again, _ = load_policy(copy)
        with th.no_grad():
            expected = policy.get_distribution(obs).distribution.logits
            assert th.equal(again.get_distribution(obs).distribution.logits, expected)
        assert json.loads(path.with_suffix(".json").read_text())["weights"] == path.name


def test_ablation_pairs_separate_runs_game_by_game(tmp_path, capsys):
    from semiautomines_agents.training.ablation import main as ablation

    def run(name: str, agent: str, wins: list[int]) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        rows = ["agent,board,index,won,guesses,safe_opened,seconds,invalid"]
        rows += [f"{agent},expert,{i},{w},3,0.5,0.01,0" for i, w in enumerate(wins)]
        (folder / "games.csv").write_text("\n".join(rows) + "\n")
        return folder

    base = run("base", "greedy", [1, 0, 0, 1, 0, 1, 0, 0])
    model = run("model", "ppo", [1, 1, 0, 1, 1, 1, 0, 0])  # wins two more of the same games
    assert ablation(["--baseline", f"{base}:greedy", f"final={model}:ppo"]) == 0
    out = capsys.readouterr().out
    assert "| final | 8 | 62.50% | 37.50% | +25.00 (" in out
    assert ablation(["--baseline", f"{base}:ppo", f"{model}:ppo"]) == 2

    # Two seeds pooled: the k-th run pairs with the baseline's k-th, never across seeds.
    base2 = run("base2", "greedy", [0, 0, 0, 0, 0, 0, 0, 0])
    model2 = run("model2", "ppo", [0, 0, 0, 0, 1, 0, 0, 0])
    pooled = [f"--baseline={base},{base2}:greedy", f"both={model},{model2}:ppo"]
    assert ablation(pooled) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("| both | 16 | 37.50% | 18.75% | +18.75 (")  # (2 + 1) of 16 more
    swapped = [f"--baseline={base2},{base}:greedy", f"both={model},{model2}:ppo"]
    assert ablation(swapped) == 0  # the same totals, paired across seeds: another interval
    assert capsys.readouterr().out.splitlines()[-1] != line


@pytest.mark.parametrize("mirror", [False, True], ids=["plain", "mirrored batches"])
def test_the_fit_moves_the_policy_toward_soft_weighted_targets(tmp_path, mirror):
    from types import SimpleNamespace

    from semiautomines_agents.training.imitation import fit, targets
    from semiautomines_agents.training.positions import observations

    data = positions.play_chunk(chunk(None, count=20))
    policy = tiny_cell_policy(6)
    rows = np.arange(len(data["labels"]))
    target = th.as_tensor(targets(data, rows, 36, 0.01))

    def cross_entropy() -> float:
        with th.no_grad():
            logits = policy.get_distribution(
                th.as_tensor(observations(data, rows)), data["masks"]
            ).distribution.logits
            log_p = th.log_softmax(logits, dim=1)
            return float(-th.where(target > 0, target * log_p, th.zeros_like(log_p)).sum(1).mean())

    before = cross_entropy()
    args = tiny_args(
        tmp_path, soft_targets=0.01, deviation_weight=3.0, imitation_lr=1e-2, mirror=mirror
    )
    fit(SimpleNamespace(policy=policy), data, 4, args, tmp_path, "bc")
    assert cross_entropy() < before
    assert len((tmp_path / "imitation.csv").read_text().splitlines()) == 1 + 4


def test_the_priors_scale_learns_at_its_own_rate(tmp_path):
    from types import SimpleNamespace

    from semiautomines_agents.training.imitation import fit, parameter_groups

    data = positions.play_chunk(chunk(None, count=20))
    moved = {}
    for prior_lr in (0.0, 0.5):
        policy = tiny_cell_policy(6)
        args = tiny_args(tmp_path, prior_lr=prior_lr, imitation_lr=1e-3)
        groups = parameter_groups(policy, args)
        assert sum(len(group["params"]) for group in groups) == len(list(policy.parameters()))
        fit(SimpleNamespace(policy=policy), data, 2, args, tmp_path, "bc")
        moved[prior_lr] = abs(float(policy.mlp_extractor.prior_scale.detach()) - 20.0)
    assert moved[0.5] > 20 * moved[0.0]


def test_the_context_layers_learn_at_their_own_rate(tmp_path):
    from types import SimpleNamespace

    from semiautomines_agents.training.imitation import fit, parameter_groups

    data = positions.play_chunk(chunk(None, count=20))
    moved = {}
    for context_lr in (0.0, 1e-2):
        th.manual_seed(0)
        policy = CellPolicy(
            gym.spaces.Box(0.0, 1.0, (12, 6, 6), np.float32),
            gym.spaces.Discrete(36),
            lambda _: 0.0,
            features_extractor_kwargs={"channels": 4, "blocks": 1, "global_context": True},
            value_hidden=8,
        )
        args = tiny_args(tmp_path, context_lr=context_lr, imitation_lr=1e-4)
        groups = parameter_groups(policy, args)
        assert sum(len(group["params"]) for group in groups) == len(list(policy.parameters()))
        assert len(groups) == (2 if context_lr else 1)
        fit(SimpleNamespace(policy=policy), data, 2, args, tmp_path, "bc")
        out = policy.features_extractor.context.out.weight.detach()
        moved[context_lr] = float(out.abs().mean())
    assert moved[1e-2] > 20 * moved[0.0] > 0


def test_a_fixed_prior_scale_stays_through_the_fit_while_the_head_learns(tmp_path):
    from types import SimpleNamespace

    from semiautomines_agents.training.imitation import fit, fix_prior_scale, parameter_groups

    data = positions.play_chunk(chunk(None, count=20))
    policy = tiny_cell_policy(6)
    fix_prior_scale(policy, 45.0)
    args = tiny_args(tmp_path, prior_lr=0.5, imitation_lr=1e-2)
    groups = parameter_groups(policy, args)
    prior = policy.mlp_extractor.prior_scale
    assert len(groups) == 1 and all(p is not prior for p in groups[0]["params"])
    head = policy.mlp_extractor.actor.weight.detach().clone()
    fit(SimpleNamespace(policy=policy), data, 2, args, tmp_path, "bc")
    assert float(prior) == 45.0
    assert not th.equal(policy.mlp_extractor.actor.weight, head)


def test_a_negative_fixed_prior_scale_is_refused(tmp_path):
    from semiautomines_agents.training.args import validate

    with pytest.raises(ValueError, match="fixed-prior-scale"):
        validate(tiny_args(tmp_path, fixed_prior_scale=-1.0))


def test_train_keeps_a_fixed_prior_scale_through_imitation_and_ppo(tmp_path):
    args = tiny_args(
        tmp_path,
        imitation_games=positions.CHUNK_GAMES,
        dagger_rounds=0,
        fixed_prior_scale=33.0,
        eval_baselines=False,
        learning_rate=1e-2,
    )
    run_dir = train(args)
    policy, _ = load_policy(run_dir / "final.pt")
    assert float(policy.mlp_extractor.prior_scale.detach()) == 33.0
    assert read_state(run_dir)["completed"] == ["bc"]


@pytest.mark.parametrize("axes", [(), (-1,), (-2,), (-2, -1)])
def test_a_mirrored_batch_moves_labels_masks_and_targets_with_the_board(axes):
    """On a 3 x 5 board, so that rows and columns cannot be confused."""
    from semiautomines_agents.training.imitation import mirrored

    rng = np.random.default_rng(7)
    batch, height, width = 6, 3, 5
    obs = th.as_tensor(rng.random((batch, 12, height, width), dtype=np.float32))
    labels = th.as_tensor(rng.integers(height * width, size=batch))
    masks = th.as_tensor(rng.random((batch, height * width)) < 0.5)
    masks[th.arange(batch), labels] = True
    target = th.zeros((batch, height * width))
    target[th.arange(batch), labels] = 1.0

    seen, seen_masks, seen_target, seen_labels = mirrored(obs, masks, target, labels, axes)
    assert th.equal(seen_target.argmax(1), seen_labels)
    assert bool(seen_masks[th.arange(batch), seen_labels].all())
    assert int(seen_masks.sum()) == int(masks.sum())
    planes = seen.reshape(batch, 12, -1)[th.arange(batch), :, seen_labels]
    assert th.equal(planes, obs.reshape(batch, 12, -1)[th.arange(batch), :, labels])
    back = mirrored(seen, seen_masks, seen_target, seen_labels, axes)
    for again, original in zip(back, (obs, masks, target, labels), strict=True):
        assert th.equal(again, original)
