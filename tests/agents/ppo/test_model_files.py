"""Model files cannot run code.

A stable-baselines3 zip unpickles when loaded, so the ``ppo`` agent and
``semiautomines evaluate --model`` refuse one unless ``--trust-model`` is given;
the weights-only format (``NAME.pt`` + ``NAME.json``) loads with
``torch.load(weights_only=True)`` and a checked JSON. Each test plants a pickle
whose unpickling creates a marker file, and checks that the marker never
appears where nothing may be unpickled.
"""

from __future__ import annotations

import base64
import builtins
import json
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import gymnasium as gym  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

import minesweep_env  # noqa: E402, F401
from semiautomines_agents.convert_model import main as convert_main  # noqa: E402
from semiautomines_agents.model_files import (  # noqa: E402
    ModelFileError,
    load_policy,
    read_sidecar,
    save_policy,
)
from semiautomines_agents.policies import CellPolicy  # noqa: E402
from semiautomines_agents.ppo import (  # noqa: E402
    ModelNotFoundError,
    PPOAgent,
    UntrustedModelError,
    default_model_path,
)

CLI = Path(sys.executable).with_name("semiautomines")


class MarkerPayload:
    """Unpickling this creates the marker file: what an attacker's code would do."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (builtins.open, (str(self.marker), "w"))


def tiny_model() -> MaskablePPO:
    env = gym.make("SemiAutoMines-v0", width=6, height=6, mines=5, obs_mode="planes")
    model = MaskablePPO(
        CellPolicy,
        env,
        n_steps=16,
        batch_size=16,
        n_epochs=1,
        policy_kwargs={"features_extractor_kwargs": {"channels": 8, "blocks": 1}},
        seed=0,
        device="cpu",
    )
    th.nn.init.normal_(model.policy.mlp_extractor.actor.weight)  # not the silent initial head
    return model


def malicious_zip(model: MaskablePPO, path: Path, marker: Path) -> Path:
    """``model`` saved by stable-baselines3, with a pickle planted in its ``data`` entry."""
    clean = path.with_name("clean.zip")
    model.save(clean)
    with zipfile.ZipFile(clean) as source, zipfile.ZipFile(path, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "data":
                data = json.loads(content)
                planted = base64.b64encode(pickle.dumps(MarkerPayload(marker))).decode()
                data["payload"] = {":type:": "<class 'object'>", ":serialized:": planted}
                content = json.dumps(data).encode()
            target.writestr(item, content)
    return path


@pytest.fixture(scope="module")
def model() -> MaskablePPO:
    return tiny_model()


def test_a_malicious_zip_is_refused_without_trust_and_runs_nothing(tmp_path, model):
    marker = tmp_path / "pwned"
    evil = malicious_zip(model, tmp_path / "ppo_evil.zip", marker)
    with pytest.raises(UntrustedModelError, match="--trust-model"):
        PPOAgent(evil)
    result = subprocess.run(
        [str(CLI), "evaluate", "--agents", "ppo", "--model", str(evil), "--boards", "6x6x5"]
        + ["--maps", "none", "--games", "1", "--workers", "1", "--no-progress"]
        + ["--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "refused" in result.stderr and "--trust-model" in result.stderr
    assert not marker.exists()
    assert not (tmp_path / "out").exists()  # refused before any run folder


@pytest.mark.slow
def test_the_planted_pickle_is_real_it_runs_once_the_zip_is_trusted(tmp_path, model):
    """The refusal above matters: with --trust-model the same file runs its payload."""
    marker = tmp_path / "pwned"
    evil = malicious_zip(model, tmp_path / "ppo_evil.zip", marker)
    result = subprocess.run(
        [str(CLI), "evaluate", "--agents", "ppo", "--model", str(evil), "--trust-model"]
        + ["--boards", "6x6x5", "--maps", "none", "--games", "1", "--workers", "1"]
        + ["--no-progress", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "warning: --trust-model" in result.stderr  # the risk, said before loading
    assert "--trust-model" in result.stdout  # the replay command keeps the flag
    assert marker.exists()


def test_conversion_unpickles_nothing_and_keeps_every_action(tmp_path, model):
    marker = tmp_path / "pwned"
    evil = malicious_zip(model, tmp_path / "ppo_evil.zip", marker)
    out = tmp_path / "ppo_converted.pt"
    assert convert_main([str(evil), str(out)]) == 0
    assert not marker.exists()
    meta = read_sidecar(out)
    assert meta["network"]["channels"] == 8 and meta["network"]["blocks"] == 1
    assert meta["obs_mode"] == "planes"
    converted = PPOAgent(out)
    original = model.policy
    env = gym.make("SemiAutoMines-v0", width=6, height=6, mines=5, obs_mode="planes")
    positions = 0
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = info["action_mask"]
            with th.no_grad():
                distribution = original.get_distribution(th.as_tensor(obs[None]), mask[None])
                expected = int(distribution.mode()[0])
            assert converted.act(obs, mask) == expected
            positions += 1
            obs, _, terminated, truncated, info = env.step(expected)
            done = terminated or truncated
    assert positions >= 40


def test_a_weights_file_with_a_planted_pickle_is_refused(tmp_path, model):
    marker = tmp_path / "pwned"
    path = tmp_path / "ppo_evil.pt"
    save_policy(model.policy, path, obs_mode="planes")
    state = dict(model.policy.state_dict())
    state["mlp_extractor.prior_scale"] = MarkerPayload(marker)
    th.save(state, path)
    sidecar = json.loads(path.with_suffix(".json").read_text())
    del sidecar["weights_sha256"]  # the attacker rewrites the sidecar too
    path.with_suffix(".json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelNotFoundError, match="not a weights-only file"):
        PPOAgent(path)
    assert not marker.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"channels": 10**9}, "network.channels must be an integer in 1..1024"),
        ({"blocks": -1}, "network.blocks must be an integer"),
        ({"observation_planes": "12"}, "network.observation_planes must be an integer"),
        ({"use_probabilities": "yes"}, "use_probabilities must be true or false"),
    ],
)
def test_a_sidecar_cannot_ask_for_an_absurd_network(tmp_path, model, change, message):
    path = tmp_path / "ppo_m.pt"
    save_policy(model.policy, path, obs_mode="planes")
    sidecar = json.loads(path.with_suffix(".json").read_text())
    sidecar["network"].update(change)
    path.with_suffix(".json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelFileError, match=message):
        load_policy(path)


def test_weights_that_do_not_match_their_sidecar_are_refused(tmp_path, model):
    path = tmp_path / "ppo_m.pt"
    save_policy(model.policy, path, obs_mode="planes")
    other = tmp_path / "ppo_other.pt"
    save_policy(model.policy, other, obs_mode="planes")
    path.write_bytes(other.read_bytes() + b"\0")
    with pytest.raises(ModelFileError, match="sha256 differs"):
        load_policy(path)
    sidecar = json.loads(path.with_suffix(".json").read_text())
    sidecar["network"]["channels"] = 16
    del sidecar["weights_sha256"]
    path.with_suffix(".json").write_text(json.dumps(sidecar))
    path.write_bytes(other.read_bytes())
    with pytest.raises(ModelFileError, match="do not fit the network"):
        load_policy(path)
    path.with_suffix(".json").unlink()
    with pytest.raises(ModelFileError, match="no ppo_m.json beside it"):
        load_policy(path)


def test_a_saved_policy_plays_exactly_as_the_original(tmp_path, model):
    path = tmp_path / "ppo_m.pt"
    save_policy(model.policy, path, obs_mode="planes")
    loaded, meta = load_policy(path)
    assert meta["network"]["parameters"] == sum(p.numel() for p in model.policy.parameters())
    obs = th.as_tensor(np.random.default_rng(0).random((8, 11, 9, 13)), dtype=th.float32)
    with th.no_grad():
        expected = model.policy.get_distribution(obs).distribution.logits
        assert th.equal(loaded.get_distribution(obs).distribution.logits, expected)


def test_the_shipped_model_is_weights_only():
    path = default_model_path()
    assert path.suffix == ".pt"
    assert not list(path.parent.glob("*.zip"))
    agent = PPOAgent(path)
    assert agent.obs_mode == "planes+probabilities"
    assert read_sidecar(path)["network"]["parameters"] == 63523


def test_convert_refuses_what_is_not_a_stable_baselines3_zip(tmp_path, capsys):
    bad = tmp_path / "x.zip"
    bad.write_bytes(b"not a zip")
    assert convert_main([str(bad), str(tmp_path / "x.pt")]) == 2
    assert "not a stable-baselines3 model zip" in capsys.readouterr().err
    assert convert_main([str(bad), str(tmp_path / "x.zip2")]) == 2
    assert "must end in .pt" in capsys.readouterr().err
