"""The per-cell convolutional policy on random tensors: shapes, masks, equivariance, prior."""

from __future__ import annotations

import numpy as np
import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from gymnasium import spaces  # noqa: E402

from semiautomines_agents.policies import CellPolicy, policy_for_board  # noqa: E402


def make_policy(planes: int = 12, height: int = 9, width: int = 9, seed: int = 0) -> CellPolicy:
    th.manual_seed(seed)
    dtype = np.float32 if planes == 12 else np.uint8
    space = spaces.Box(0, 1, (planes, height, width), dtype)
    return CellPolicy(space, spaces.Discrete(height * width), lambda _: 3e-4)


def random_obs(batch: int, planes: int, height: int, width: int, seed: int = 1) -> th.Tensor:
    generator = th.Generator().manual_seed(seed)
    return th.rand(batch, planes, height, width, generator=generator)


@pytest.mark.parametrize("planes", [11, 12])
@pytest.mark.parametrize("size", [(9, 9), (16, 16), (16, 30), (3, 5)])
def test_one_logit_per_cell_on_any_board_with_the_same_weights(planes, size):
    policy = make_policy(planes)
    height, width = size
    obs = random_obs(3, planes, height, width)
    distribution = policy.get_distribution(obs)
    assert distribution.distribution.logits.shape == (3, height * width)
    assert policy.predict_values(obs).shape == (3, 1)


def test_masked_cells_are_never_chosen():
    policy = make_policy(12, 16, 30)
    rng = np.random.default_rng(0)
    obs = random_obs(64, 12, 16, 30)
    masks = rng.random((64, 480)) < 0.05
    masks[:, rng.integers(0, 480)] = True  # at least one valid cell per row
    for deterministic in (False, True):
        for _ in range(20):
            actions = policy.get_distribution(obs, masks).get_actions(deterministic=deterministic)
            assert masks[np.arange(64), actions.numpy()].all()
    actions, _, log_prob = policy(obs, action_masks=masks)
    assert masks[np.arange(64), actions.numpy()].all()
    assert th.isfinite(log_prob).all()


@pytest.mark.parametrize("planes", [11, 12])
def test_best_action_is_the_distributions_mode(planes):
    """The agent's shortcut plays exactly the move the SB3 distribution would."""
    policy = make_policy(planes, 16, 30)
    th.nn.init.normal_(policy.mlp_extractor.actor.weight)  # as after training, not silent
    rng = np.random.default_rng(2)
    obs = random_obs(64, planes, 16, 30)
    masks = rng.random((64, 480)) < 0.3
    masks[:, rng.integers(0, 480)] = True
    masks[:8] = False
    masks[:8, :2] = True  # two valid cells only, as near the end of a game
    with th.no_grad():
        expected = policy.get_distribution(obs, masks).mode()
        got = policy.best_action(obs, th.as_tensor(masks))
    assert th.equal(got, expected)
    assert masks[np.arange(64), got.numpy()].all()
    with th.no_grad():  # the mask decides: the best cell of the unmasked policy is not taken
        free = policy.best_action(obs, th.ones(64, 480, dtype=th.bool))
    assert (free[:8] != got[:8]).any()


@pytest.mark.parametrize("global_context", [False, True])
def test_one_pass_gives_the_distributions_log_probabilities_and_the_values(global_context):
    """The imitation fit's shortcut: SB3's two calls' numbers, from one pass of the trunk."""
    th.manual_seed(0)
    space = spaces.Box(0, 1, (12, 16, 30), np.float32)
    kwargs = {"features_extractor_kwargs": {"global_context": global_context}}
    policy = CellPolicy(space, spaces.Discrete(480), lambda _: 3e-4, **kwargs)
    th.nn.init.normal_(policy.mlp_extractor.actor.weight)  # as after training, not silent
    rng = np.random.default_rng(3)
    obs = random_obs(16, 12, 16, 30)
    masks = rng.random((16, 480)) < 0.3
    masks[:, 7] = True
    passes = []
    policy.features_extractor.register_forward_hook(lambda *_: passes.append(1))
    with th.no_grad():
        log_p, values = policy.log_probabilities_and_values(obs, th.as_tensor(masks))
        assert len(passes) == 1  # the trunk ran once for both heads
        expected = th.log_softmax(policy.get_distribution(obs, masks).distribution.logits, dim=1)
        expected_values = policy.predict_values(obs).flatten()
    assert len(passes) == 3  # SB3's way: once per head
    assert th.allclose(log_p, expected, atol=1e-5)
    assert th.allclose(values, expected_values, atol=1e-6)
    assert (log_p[~th.as_tensor(masks)] < -1e7).all()
    assert th.allclose(log_p.exp().sum(dim=1), th.ones(16))


def test_logits_follow_a_pattern_moved_across_the_board():
    """Translation equivariance away from the edges: the same patch, the same logits."""
    policy = make_policy(11)
    th.nn.init.normal_(policy.mlp_extractor.actor.weight)  # as after training, not silent
    patch = (random_obs(1, 11, 5, 5) > 0.5).float()

    def logits_with_patch_at(y: int, x: int) -> th.Tensor:
        obs = th.zeros(1, 11, 32, 32)
        obs[:, 0] = 1.0  # all covered
        obs[:, :, y : y + 5, x : x + 5] = patch
        return policy.get_distribution(obs).distribution.logits.reshape(32, 32)

    first = logits_with_patch_at(8, 9)
    second = logits_with_patch_at(17, 14)
    assert th.allclose(first[8:13, 9:14], second[17:22, 14:19], atol=1e-3)
    assert not th.allclose(first[8:13, 9:14], first[8:13, 9:14].mean())  # not trivially flat


def test_untrained_policy_with_probabilities_prefers_the_safest_cell():
    policy = make_policy(12, 9, 9)
    obs = random_obs(32, 12, 9, 9)
    masks = np.ones((32, 81), dtype=bool)
    chosen = policy.get_distribution(obs, masks).get_actions(deterministic=True).numpy()
    probabilities = obs[:, -1].reshape(32, 81).numpy()
    assert (chosen == probabilities.argmin(axis=1)).all()
    # sampled, it still strongly prefers lower probabilities
    probs = policy.get_distribution(obs, masks).distribution.probs.detach().numpy()
    expected_p = (probs * probabilities).sum(axis=1)
    assert (expected_p < probabilities.mean(axis=1) - 0.2).all()


def test_without_probabilities_an_untrained_policy_is_near_uniform():
    policy = make_policy(11, 9, 9)
    probs = policy.get_distribution(random_obs(4, 11, 9, 9)).distribution.probs
    assert th.allclose(probs, th.full_like(probs, 1 / 81), rtol=0.2)


def test_policy_for_board_retargets_predict_and_refuses_other_planes():
    policy = make_policy(12, 9, 9)
    expert = spaces.Box(0, 1, (12, 16, 30), np.float32)
    policy_for_board(policy, expert)
    obs = random_obs(1, 12, 16, 30)[0].numpy()
    mask = np.zeros(480, dtype=bool)
    mask[[7, 400]] = True
    action, _ = policy.predict(obs, action_masks=mask, deterministic=True)
    assert int(action) in (7, 400)
    with pytest.raises(ValueError, match="planes"):
        policy_for_board(policy, spaces.Box(0, 1, (11, 9, 9), np.uint8))
