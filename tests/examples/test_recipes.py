"""The examples/ recipes run: each smoke test plays a few hundred env steps and
checks a finished, finite result.

The CleanRL-style trainer needs only torch (the ``train`` extra) and always
runs. TorchRL, RLlib and PufferLib are heavy extras (``pip install
'semiautomines[examples]'``): their tests carry the ``recipes`` marker, which
the default run deselects (``-m recipes`` runs them), and each skips with the
reason when its library is missing.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys

import pytest
from paths import REPO

EXAMPLES = REPO / "examples"


def load(name: str):
    """An example script as a module (they are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_cleanrl_masked_ppo_trains_checkpoints_and_evaluates(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("tensorboard")
    script = load("cleanrl_masked_ppo")
    args = script.parse_args(
        ["--total-timesteps", "256", "--num-envs", "8", "--num-steps", "16", "--eval-games", "20"]
        + ["--checkpoint-every", "128", "--runs-dir", str(tmp_path), "--exp-name", "smoke"]
        + ["--target-kl", "0.0001"]  # small enough to stop some updates early
    )
    result = script.train(args)
    assert result["global_step"] == 256
    for key in ("loss", "policy_loss", "value_loss", "entropy", "eval_win_rate"):
        assert math.isfinite(result[key]), key
    assert 0.0 <= result["eval_win_rate"] <= 1.0
    assert result["steps_per_cpu_second"] > 0 and math.isfinite(result["steps_per_cpu_second"])
    run = tmp_path / "smoke"
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["step_128.pt", "step_256.pt"]
    assert json.loads((run / "final.json").read_text()) == result
    assert any(p.name.startswith("events.out.tfevents") for p in run.iterdir())


@pytest.mark.recipes
def test_torchrl_collects_from_the_native_vector_env():
    pytest.importorskip("torchrl", reason="TorchRL is not installed (the examples extra)")
    result = load("torchrl_native_vector").main(num_envs=4, steps=60)
    assert result["frames"] == 240
    assert result["games"] > 0 and 0 <= result["wins"] <= result["games"]
    assert result["invalid_actions"] == 0  # the mask reached the policy


@pytest.mark.recipes
def test_rllib_runs_ppo_iterations():
    pytest.importorskip("ray.rllib", reason="RLlib is not installed (ray[rllib])")
    result = load("rllib_ppo").main(iterations=2, batch=128)
    steps = [it["env_steps"] for it in result["iterations"]]
    assert steps == [128, 256]
    assert all(math.isfinite(it["episode_return_mean"]) for it in result["iterations"])


@pytest.mark.recipes
def test_pufferlib_emulation_plays():
    pytest.importorskip("pufferlib.emulation", reason="PufferLib is not installed")
    result = load("pufferlib_emulation").main(num_envs=4, steps=60)
    assert result["frames"] == 240 and result["games"] > 0
    assert result["observation_shape"][0] == 4
