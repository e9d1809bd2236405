"""The prior-scale tool: the same model with another k, nothing else changed."""

from __future__ import annotations

import json

import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from tiny_policy import tiny_cell_policy  # noqa: E402

from semiautomines_agents.model_files import load_policy, save_policy  # noqa: E402
from semiautomines_agents.training.prior_scale import main  # noqa: E402


def tiny_model(path):
    policy = tiny_cell_policy(5)
    with th.no_grad():
        policy.mlp_extractor.actor.weight.normal_()  # a head that is not all zeros
    save_policy(policy, path, obs_mode="planes+probabilities", training={"stage": "bc"})
    return policy


def test_only_the_prior_scale_changes_and_the_sidecar_keeps_its_record(tmp_path):
    source, out = tmp_path / "m.pt", tmp_path / "k.pt"
    before = tiny_model(source)
    assert main([str(source), str(out), "--scale", "45"]) == 0
    after, meta = load_policy(out)
    assert float(after.mlp_extractor.prior_scale.detach()) == 45.0
    old, new = before.state_dict(), after.state_dict()
    assert [k for k in old if not th.equal(old[k], new[k])] == ["mlp_extractor.prior_scale"]
    assert meta["training"] == {"stage": "bc"} and meta["obs_mode"] == "planes+probabilities"
    assert meta["prior_scale_set"] == {"source": "m.pt", "from": 20.0, "to": 45.0}
    assert json.loads(out.with_suffix(".json").read_text())["weights"] == "k.pt"
    obs = th.rand(1, 12, 5, 5)
    obs[:, -1] = th.linspace(0, 1, 25).reshape(5, 5)  # different mine probabilities
    with th.no_grad():
        logits = [p.get_distribution(obs).distribution.logits for p in (before, after)]
    assert not th.equal(*logits)  # k moves the logits where p(mine) differs


def test_in_place_and_refusals(tmp_path, capsys):
    source = tmp_path / "m.pt"
    tiny_model(source)
    assert main([str(source), str(source), "--scale", "30"]) == 0
    assert float(load_policy(source)[0].mlp_extractor.prior_scale.detach()) == 30.0
    assert main([str(source), str(tmp_path / "k.zip"), "--scale", "30"]) == 2
    assert main([str(source), str(tmp_path / "k.pt"), "--scale", "0"]) == 2
    assert main([str(tmp_path / "none.pt"), str(tmp_path / "k.pt"), "--scale", "30"]) == 2
    assert capsys.readouterr().err.count("error") == 3
