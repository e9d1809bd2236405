"""The trunk's optional context layers: dilated blocks and a global-context step.

They must start as the identity (so a shipped model is fine-tuned from its own play),
stay size-free, travel in the weights-only file, and leave the old files as they were.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import gymnasium as gym  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

import minesweep_env  # noqa: E402, F401
from semiautomines_agents.model_files import (  # noqa: E402
    ModelFileError,
    convert_sb3_zip,
    load_policy,
    save_policy,
)
from semiautomines_agents.policies import CellPolicy  # noqa: E402
from semiautomines_agents.ppo import MODELS_DIR  # noqa: E402
from semiautomines_agents.training.args import parse_dilations  # noqa: E402
from semiautomines_agents.training.imitation import load_initial_weights  # noqa: E402

CONTEXTS = [
    {"dilations": (2,)},
    {"global_context": True},
    {"dilations": (2, 4), "global_context": True},
]


def policy(height: int = 9, width: int = 9, seed: int = 0, **trunk) -> CellPolicy:
    th.manual_seed(seed)
    space = gym.spaces.Box(0.0, 1.0, (12, height, width), np.float32)
    made = CellPolicy(
        space,
        gym.spaces.Discrete(height * width),
        lambda _: 0.0,
        features_extractor_kwargs={"channels": 8, "blocks": 2, **trunk},
        value_hidden=8,
    )
    th.nn.init.normal_(made.mlp_extractor.actor.weight)  # not the silent initial head
    made.set_training_mode(False)
    return made


def observations(batch: int, height: int, width: int, seed: int = 1, planes: int = 12) -> th.Tensor:
    return th.rand(batch, planes, height, width, generator=th.Generator().manual_seed(seed))


def outputs(net: CellPolicy, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    with th.no_grad():
        features = net.extract_features(obs, net.pi_features_extractor)
        return net.mlp_extractor.forward_actor(features), net.predict_values(obs)


def with_context(plain: CellPolicy, seed: int = 5, **trunk) -> CellPolicy:
    """A network with context layers (their own random first weights) and ``plain``'s weights."""
    grown = policy(seed=seed, **trunk)
    missing, unexpected = grown.load_state_dict(plain.state_dict(), strict=False)
    assert missing and not unexpected  # the context layers are the only new weights
    return grown


@pytest.mark.parametrize("trunk", CONTEXTS)
@pytest.mark.parametrize("size", [(9, 9), (16, 30), (3, 5)])
def test_new_context_layers_leave_the_networks_output_exactly_as_it_was(trunk, size):
    plain = policy()
    grown = with_context(plain, **trunk)
    obs = observations(6, *size)
    logits, values = outputs(plain, obs)
    grown_logits, grown_values = outputs(grown, obs)
    assert grown_logits.shape == (6, size[0] * size[1])
    assert th.equal(grown_logits, logits)
    assert th.equal(grown_values, values)


@pytest.mark.parametrize("trunk", CONTEXTS)
def test_once_trained_the_context_layers_change_the_output(trunk):
    """The identity above is the zero start, not layers left out of the forward pass."""
    plain = policy()
    grown = with_context(plain, **trunk)
    with th.no_grad():
        for name, weight in grown.features_extractor.named_parameters():
            if name.startswith(("dilated.", "context.")):
                weight.add_(0.3)
    obs = observations(2, 9, 9)
    assert not th.equal(outputs(grown, obs)[0], outputs(plain, obs)[0])


def test_the_global_context_lets_a_far_cell_move_every_logit():
    """Three 3x3 layers see 7 cells across; with the global step, a cell 20 cells away counts."""
    plain = policy()
    grown = with_context(plain, global_context=True)
    with th.no_grad():
        grown.features_extractor.context.out.weight.normal_()
    obs = observations(1, 4, 24)
    far = obs.clone()
    far[0, :, :, -1] = 1.0 - far[0, :, :, -1]  # only the last column changes
    for net, moved in ((plain, False), (grown, True)):
        first = outputs(net, obs)[0].view(4, 24)[:, 0]
        assert th.equal(first, outputs(net, far)[0].view(4, 24)[:, 0]) is not moved


def test_a_fresh_network_with_context_starts_silent_after_the_orthogonal_init():
    grown = policy(dilations=(3,), global_context=True)
    trunk = grown.features_extractor
    assert not trunk.context.out.weight.any() and not trunk.context.out.bias.any()
    assert not trunk.dilated[0].conv2.weight.any()
    assert trunk.dilated[0].conv1.dilation == (3, 3)
    assert trunk.dilated[0].conv1.weight.any()  # the layer before the zero one still learns


@pytest.mark.parametrize("trunk", CONTEXTS)
def test_a_network_with_context_round_trips_through_the_weights_only_file(tmp_path, trunk):
    net = policy(**trunk)
    with th.no_grad():  # trained-looking context layers, so the file must carry them
        for name, weight in net.features_extractor.named_parameters():
            if name.startswith(("dilated.", "context.")):
                weight.normal_(0.0, 0.2)
    path = tmp_path / "ppo_context.pt"
    save_policy(net, path, obs_mode="planes+probabilities")
    loaded, meta = load_policy(path)
    assert meta["network"].get("dilations", []) == list(trunk.get("dilations", ()))
    assert meta["network"].get("global_context", False) == trunk.get("global_context", False)
    assert meta["network"]["parameters"] == sum(p.numel() for p in net.parameters())
    obs = observations(3, 16, 30)
    assert th.equal(outputs(loaded, obs)[0], outputs(net, obs)[0])
    assert th.equal(outputs(loaded, obs)[1], outputs(net, obs)[1])


def test_a_plain_networks_sidecar_has_no_context_keys(tmp_path):
    """Old readers and old files see exactly the network section they always did."""
    path = tmp_path / "ppo_plain.pt"
    save_policy(policy(), path, obs_mode="planes+probabilities")
    network = json.loads(path.with_suffix(".json").read_text())["network"]
    assert "dilations" not in network and "global_context" not in network


@pytest.mark.parametrize("path", sorted(MODELS_DIR.glob("ppo_*.pt")), ids=lambda p: p.name)
def test_the_shipped_files_load_and_a_context_network_grown_from_them_plays_alike(path):
    old, meta = load_policy(path)
    network = meta["network"]
    grown_settings = {"dilations": (4,), "global_context": True}
    if network.get("dilations") or network.get("global_context"):
        pytest.skip("this file already has context layers")
    space = gym.spaces.Box(0.0, 1.0, (network["observation_planes"], 16, 30), np.float32)
    grown = CellPolicy(
        space,
        gym.spaces.Discrete(480),
        lambda _: 0.0,
        value_hidden=network["value_hidden"],
        prior_scale=network["prior_scale"],
        features_extractor_kwargs={
            "channels": network["channels"],
            "blocks": network["blocks"],
            **grown_settings,
        },
    )
    grown.load_state_dict(old.state_dict(), strict=False)
    grown.set_training_mode(False)
    obs = observations(4, 16, 30, planes=network["observation_planes"])
    assert th.equal(outputs(grown, obs)[0], outputs(old, obs)[0])


@pytest.mark.parametrize(
    ("dilations", "message"),
    [([0], "network.dilations"), ([2] * 9, "network.dilations"), ("2", "network.dilations")],
)
def test_a_sidecar_cannot_ask_for_absurd_dilations(tmp_path, dilations, message):
    path = tmp_path / "ppo_m.pt"
    save_policy(policy(dilations=(2,)), path, obs_mode="planes+probabilities")
    sidecar = json.loads(path.with_suffix(".json").read_text())
    sidecar["network"]["dilations"] = dilations
    path.with_suffix(".json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelFileError, match=message):
        load_policy(path)


def test_a_sidecar_that_leaves_out_the_context_layers_does_not_fit_their_weights(tmp_path):
    path = tmp_path / "ppo_m.pt"
    save_policy(policy(global_context=True), path, obs_mode="planes+probabilities")
    sidecar = json.loads(path.with_suffix(".json").read_text())
    del sidecar["network"]["global_context"], sidecar["weights_sha256"]
    path.with_suffix(".json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelFileError, match="do not fit the network"):
        load_policy(path)


def tiny_model(**trunk) -> MaskablePPO:
    env = gym.make("SemiAutoMines-v0", width=6, height=6, mines=5, obs_mode="planes+probabilities")
    return MaskablePPO(
        CellPolicy,
        env,
        n_steps=16,
        batch_size=16,
        policy_kwargs={"features_extractor_kwargs": {"channels": 8, "blocks": 2, **trunk}},
        seed=0,
        device="cpu",
    )


def test_init_model_fills_all_but_the_context_layers_and_plays_alike(tmp_path):
    source = tiny_model()
    th.nn.init.normal_(source.policy.mlp_extractor.actor.weight)
    path = tmp_path / "ppo_start.pt"
    save_policy(source.policy, path, obs_mode="planes+probabilities")
    grown = tiny_model(dilations=(2,), global_context=True)
    load_initial_weights(grown, str(path))
    obs = observations(3, 6, 6)
    source.policy.set_training_mode(False)
    grown.policy.set_training_mode(False)
    assert th.equal(outputs(grown.policy, obs)[0], outputs(source.policy, obs)[0])


def test_init_model_refuses_a_network_of_another_shape(tmp_path):
    path = tmp_path / "ppo_wide.pt"
    save_policy(tiny_model(global_context=True).policy, path, obs_mode="planes+probabilities")
    with pytest.raises(ValueError, match="does not fit this run's"):
        load_initial_weights(tiny_model(), str(path))  # the file has layers the run lacks
    plain = tmp_path / "ppo_plain.pt"
    save_policy(tiny_model().policy, plain, obs_mode="planes+probabilities")
    other = MaskablePPO(
        CellPolicy,
        gym.make("SemiAutoMines-v0", width=6, height=6, mines=5, obs_mode="planes+probabilities"),
        policy_kwargs={"features_extractor_kwargs": {"channels": 8, "blocks": 3}},
        device="cpu",
    )
    with pytest.raises(ValueError, match="does not fit this run's"):
        load_initial_weights(other, str(plain))  # a residual block the file lacks


def test_dilations_flag_parses_and_refuses_nonsense():
    assert parse_dilations("") == ()
    assert parse_dilations("2,4") == (2, 4)
    for bad in ("2,x", "0", "-1"):
        with pytest.raises(ValueError, match="--dilations"):
            parse_dilations(bad)


def test_a_stable_baselines3_zip_with_context_layers_converts_with_them(tmp_path):
    model = tiny_model(dilations=(3,), global_context=True)
    with th.no_grad():
        for name, weight in model.policy.features_extractor.named_parameters():
            if name.startswith(("dilated.", "context.")):
                weight.normal_(0.0, 0.2)
    model.save(tmp_path / "ppo_context.zip")
    meta = convert_sb3_zip(tmp_path / "ppo_context.zip", tmp_path / "ppo_context.pt")
    assert meta["network"]["dilations"] == [3] and meta["network"]["global_context"] is True
    loaded, _ = load_policy(tmp_path / "ppo_context.pt")
    model.policy.set_training_mode(False)
    obs = observations(2, 6, 6)
    assert th.equal(outputs(loaded, obs)[0], outputs(model.policy, obs)[0])
