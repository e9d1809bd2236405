"""A fully convolutional actor-critic for MaskablePPO: one action logit per cell.

Why not SB3's defaults: its ``CnnPolicy`` flattens the board into a linear
layer, so the weights are tied to one board size and must relearn the same
local pattern at every position. Minesweeper is local and translation
invariant, so here every layer is a convolution and the actor's head is a 1x1
convolution that turns each cell's features into that cell's logit. The same
weights therefore play 9x9, 16x16, 30x16 or any map, and a pattern learnt in
one corner is known everywhere.

Layout of the network (``C`` observation planes, any ``H`` x ``W``)::

    obs (C, H, W) + an "on the board" plane of ones   (so zero padding marks the edge)
      -> stem conv 3x3 -> ``blocks`` residual blocks of two 3x3 convs
      -> optional: residual blocks with dilated 3x3 convs (``dilations``)
      -> optional: global context (``global_context``): the board's mean and max of
         every feature, broadcast to each cell, mixed with its own by 1x1 convs
      -> actor: 1x1 conv -> 1 logit per cell  (+ prior: -prior_scale * mine probability)
      -> critic: global mean and max pool -> MLP -> value

The prior: with ``obs_mode="planes+probabilities"`` the last plane holds every
covered cell's exact mine probability. Adding ``-prior_scale * p`` to the
logits (``prior_scale`` learnable, the head that adds to it initialised to
zero) makes the untrained policy already play "lowest probability first", the
greedy baseline's rule; PPO then only has to learn where to deviate from it
(tie-breaks, cells that open more). Without that plane the prior is off and
the network learns from scratch.

Board-size independence reaches SB3's own plumbing too: the categorical
distribution is rebuilt for ``H * W`` actions on every call (SB3's is fixed at
construction), and :func:`policy_for_board` re-targets a loaded policy's
spaces so ``model.predict`` accepts another board.

Why the optional context layers: three 3x3 blocks see 15 cells across,
while the search teacher weighs the whole front. Dilated blocks widen the view
and the global context gives every cell a summary of the whole board, both
without tying the weights to a board size. Each new layer's last convolution
starts at zero, and every trunk output is already rectified, so a network with
them computes exactly the function of the same network without them: a shipped
model is fine-tuned from its own behaviour instead of from scratch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import (
    MaskableCategoricalDistribution,
    MaskableDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.type_aliases import Schedule
from torch import nn

PLANES_WITH_PROBABILITIES = 12
"""Observation channels of ``obs_mode="planes+probabilities"``: 11 one-hot planes + p(mine)."""


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with a skip connection: depth without vanishing gradients."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: th.Tensor) -> th.Tensor:
        return th.relu(x + self.conv2(th.relu(self.conv1(x))))


class DilatedBlock(ResidualBlock):
    """A residual block whose 3x3 convolutions skip ``dilation - 1`` cells: a wider view
    at the cost of an ordinary block. Its second convolution starts at zero, so the
    new block passes its (rectified) input through unchanged until it is trained."""

    def __init__(self, channels: int, dilation: int):
        super().__init__(channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=dilation, dilation=dilation)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=dilation, dilation=dilation)
        self.silence()

    def silence(self) -> None:
        """Zero the last convolution: the block becomes the identity on rectified input."""
        nn.init.zeros_(self.conv2.weight)
        nn.init.zeros_(self.conv2.bias)


class GlobalContext(nn.Module):
    """Every cell's features, with the board's mean and max of each feature beside them,
    mixed by two 1x1 convolutions and added back (a residual step).

    Pooling over the board keeps the weights size-free (any board gives one mean
    and one max per channel). The last convolution starts at zero: the step is the
    identity on rectified input until it is trained.
    """

    def __init__(self, channels: int):
        super().__init__()
        self.mix = nn.Conv2d(3 * channels, channels, 1)
        self.out = nn.Conv2d(channels, channels, 1)
        self.silence()

    def silence(self) -> None:
        """Zero the last convolution: the step becomes the identity on rectified input."""
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, x: th.Tensor) -> th.Tensor:
        pooled = th.cat([x.mean(dim=(2, 3), keepdim=True), x.amax(dim=(2, 3), keepdim=True)], 1)
        board = th.cat([x, pooled.expand(-1, -1, *x.shape[2:])], dim=1)
        return th.relu(x + self.out(th.relu(self.mix(board))))


class BoardTrunk(BaseFeaturesExtractor):
    """Shared convolutional trunk: per-cell features for any board size.

    Returns a (B, channels + 1, H, W) tensor: the trunk's features, then the
    mine-probability plane (zeros when the observation has none) for the
    actor's prior. ``features_dim`` is the number of feature channels, not a
    flat size, because nothing downstream is flat.

    :param observation_space: channels-first Box (C, H, W); only C is used.
    :param channels: width of every convolution.
    :param blocks: residual blocks after the stem; the receptive field is
        ``3 + 4 * blocks`` cells across.
    :param use_probabilities: read the last plane as the mine probability
        (default: when the observation has 12 planes).
    :param dilations: one more residual block per entry, its convolutions dilated
        by that many cells (each widens the view by ``4 * dilation`` cells).
    :param global_context: end the trunk with a :class:`GlobalContext` step.
    """

    def __init__(
        self,
        observation_space: spaces.Box,
        channels: int = 32,
        blocks: int = 3,
        use_probabilities: bool | None = None,
        dilations: tuple[int, ...] | list[int] = (),
        global_context: bool = False,
    ):
        super().__init__(observation_space, features_dim=channels)
        in_planes = observation_space.shape[0]
        if use_probabilities is None:
            use_probabilities = in_planes == PLANES_WITH_PROBABILITIES
        self.use_probabilities = use_probabilities
        self.stem = nn.Conv2d(in_planes + 1, channels, 3, padding=1)
        self.blocks = nn.Sequential(*(ResidualBlock(channels) for _ in range(blocks)))
        self.dilations = tuple(int(d) for d in dilations)
        # Absent (not empty) when off, so the weights of a plain trunk keep their names.
        self.dilated = (
            nn.Sequential(*(DilatedBlock(channels, d) for d in self.dilations))
            if self.dilations
            else None
        )
        self.context = GlobalContext(channels) if global_context else None

    def silence_context(self) -> None:
        """Zero the context layers' last convolutions (after any re-initialisation):
        the trunk then computes what the same trunk without them computes."""
        for block in self.dilated or ():
            block.silence()
        if self.context is not None:
            self.context.silence()

    def forward(self, observations: th.Tensor) -> th.Tensor:
        obs = observations.float()
        on_board = th.ones_like(obs[:, :1])
        features = self.blocks(th.relu(self.stem(th.cat([obs, on_board], dim=1))))
        if self.dilated is not None:
            features = self.dilated(features)
        if self.context is not None:
            features = self.context(features)
        probability = obs[:, -1:] if self.use_probabilities else th.zeros_like(on_board)
        return th.cat([features, probability], dim=1)


class CellHeads(nn.Module):
    """Actor and critic heads over the trunk's per-cell features.

    Plays the role of SB3's ``mlp_extractor``: ``forward_actor`` returns the
    action logits themselves (B, H*W), in the env's ``y * W + x`` order, and
    ``forward_critic`` a pooled vector for the value layer.

    :param channels: feature channels coming out of the trunk.
    :param value_hidden: hidden units of the critic's MLP.
    :param prior_scale: initial ``k`` of the prior ``-k * p(mine)``; learnable.
    """

    def __init__(self, channels: int, value_hidden: int = 64, prior_scale: float = 20.0):
        super().__init__()
        self.actor = nn.Conv2d(channels, 1, 1)
        self.prior_scale = nn.Parameter(th.tensor(float(prior_scale)))
        self.critic = nn.Sequential(nn.Linear(2 * channels, value_hidden), nn.ReLU())
        self.latent_dim_pi = 1  # per cell; unused by our _build
        self.latent_dim_vf = value_hidden

    @staticmethod
    def _split(features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return features[:, :-1], features[:, -1]

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        cells, probability = self._split(features)
        logits = self.actor(cells).squeeze(1) - self.prior_scale * probability
        return logits.flatten(1)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        cells, _ = self._split(features)
        pooled = th.cat([cells.mean(dim=(2, 3)), cells.amax(dim=(2, 3))], dim=1)
        return self.critic(pooled)

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)


def _masked_log_probabilities(logits: th.Tensor, action_masks: th.Tensor) -> th.Tensor:
    """Log-probabilities over the actions, masked ones at about -1e8: the arithmetic of
    sb3-contrib's ``MaskableCategorical`` (masked logits set to -1e8, then normalised),
    so the shortcuts below give what its distribution gives."""
    masked = th.where(action_masks, logits, th.tensor(-1e8, dtype=logits.dtype))
    return masked - masked.logsumexp(dim=-1, keepdim=True)


class CellPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy whose logits come from a conv head, one per cell.

    Use as ``MaskablePPO(CellPolicy, env, policy_kwargs=...)``. Keyword
    arguments of :class:`BoardTrunk` go in ``features_extractor_kwargs``
    (set for you: ``channels``, ``blocks``); ``value_hidden`` and
    ``prior_scale`` are arguments of this class.
    """

    def __init__(
        self,
        observation_space: spaces.Box,
        action_space: spaces.Discrete,
        lr_schedule: Schedule,
        *args: Any,
        value_hidden: int = 64,
        prior_scale: float = 20.0,
        features_extractor_class: type[BaseFeaturesExtractor] = BoardTrunk,
        normalize_images: bool = False,
        **kwargs: Any,
    ):
        self.value_hidden = value_hidden
        self.initial_prior_scale = prior_scale
        super().__init__(
            observation_space,
            action_space,
            lr_schedule,
            *args,
            features_extractor_class=features_extractor_class,
            normalize_images=normalize_images,  # one-hot planes and probabilities are in [0, 1]
            **kwargs,
        )

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = CellHeads(
            self.features_dim, self.value_hidden, self.initial_prior_scale
        )

    def _build(self, lr_schedule: Schedule) -> None:
        self._build_mlp_extractor()
        self.action_net = nn.Identity()  # the logits are already made, one per cell
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.features_extractor.apply(lambda m: self.init_weights(m, gain=np.sqrt(2)))
            self.mlp_extractor.critic.apply(lambda m: self.init_weights(m, gain=np.sqrt(2)))
            self.value_net.apply(lambda m: self.init_weights(m, gain=1.0))
        if isinstance(self.features_extractor, BoardTrunk):  # orthogonal init re-drew them
            self.features_extractor.silence_context()
        # A silent actor head: at the start the prior (if any) decides alone, and
        # without a prior the policy starts uniform over the valid cells. Its
        # weights still get gradients (the features are not zero), so it learns.
        nn.init.zeros_(self.mlp_extractor.actor.weight)
        nn.init.zeros_(self.mlp_extractor.actor.bias)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> MaskableDistribution:
        # SB3's distribution reshapes to the action count fixed at construction;
        # a fresh one per call takes the board size from the logits.
        distribution = MaskableCategoricalDistribution(latent_pi.shape[-1])
        return distribution.proba_distribution(action_logits=latent_pi)

    def best_action(self, obs: th.Tensor, action_masks: th.Tensor) -> th.Tensor:
        """The most likely valid action per observation: what
        ``get_distribution(obs, action_masks).mode()`` gives, with the same
        arithmetic (masked logits at -1e8, normalised, softmax, first maximum),
        without building the distribution objects (about a sixth of a move's
        time at batch size one).

        :param action_masks: boolean (B, H*W), True where the action is valid.
        """
        normalised = _masked_log_probabilities(self.cell_logits(obs), action_masks)
        return th.argmax(th.softmax(normalised, dim=-1), dim=1)

    def cell_logits(self, obs: th.Tensor) -> th.Tensor:
        """The actor's logit of every cell (B, H*W), prior included, before any mask."""
        features = self.extract_features(obs, self.pi_features_extractor)
        return self.mlp_extractor.forward_actor(features)

    def log_probabilities_and_values(
        self, obs: th.Tensor, action_masks: th.Tensor
    ) -> tuple[th.Tensor, th.Tensor]:
        """Per observation, the log-probability of every action (B, H*W; masked
        actions at about -1e8) and the value (B,), from one pass of the trunk.

        Why: ``get_distribution`` and ``predict_values`` each run the trunk, so a
        fit that needs both (the imitation fits the actor and the critic together)
        paid for the convolutions, forward and backward, twice. The arithmetic is
        that of ``get_distribution(obs, action_masks).distribution.logits`` (masked
        logits at -1e8, normalised) and of ``predict_values``.

        :param action_masks: boolean (B, H*W), True where the action is valid.
        """
        features = self.extract_features(obs, self.pi_features_extractor)
        logits = self.mlp_extractor.forward_actor(features)
        if not self.share_features_extractor:
            features = self.extract_features(obs, self.vf_features_extractor)
        latent_vf = self.mlp_extractor.forward_critic(features)
        log_p = _masked_log_probabilities(logits, action_masks)
        return log_p, self.value_net(latent_vf).flatten()

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(value_hidden=self.value_hidden, prior_scale=self.initial_prior_scale)
        return data


def policy_for_board(policy: CellPolicy, observation_space: spaces.Box) -> CellPolicy:
    """Point ``policy`` at another board size so ``predict`` accepts its observations.

    The weights do not change (they are size-free); only the spaces SB3 checks
    observations against do. Returns the same policy object.

    :param observation_space: the new env's observation space (C, H, W); C must match.
    :raises ValueError: when the number of planes differs from the training env's.
    """
    trained = policy.observation_space.shape[0]
    if observation_space.shape[0] != trained:
        raise ValueError(
            f"the model reads {trained} observation planes, the env gives "
            f"{observation_space.shape[0]} (is obs_mode the one the model was trained with?)"
        )
    height, width = observation_space.shape[1:]
    policy.observation_space = observation_space
    policy.action_space = spaces.Discrete(height * width)
    return policy
