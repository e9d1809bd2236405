"""Agents for SemiAutoMines and the harness that compares them.

Agents are made by name from :data:`AGENTS` (``--agents`` on the command
line): ``random``, ``greedy`` (lowest exact mine probability with a strong
tie-break), ``greedy-plain`` (the same with random tie-breaks, first click
included), ``greedy-opening`` (the known-best first click, then random
tie-breaks), ``greedy-zero`` (the known-best first click, ties to the
likeliest zero without the look-ahead) and ``ppo``
(a saved MaskablePPO policy, weights only).

The repository keeps this package in ``agents/``; it installs as
``semiautomines_agents``, an import name no other package uses.
"""

from __future__ import annotations

from pathlib import Path

from .base import Agent
from .greedy import GreedyAgent, OpeningGreedyAgent, PlainGreedyAgent, ZeroGreedyAgent
from .ppo import ModelNotFoundError, PPOAgent, UntrustedModelError, default_model_path
from .random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {
    RandomAgent.name: RandomAgent,
    GreedyAgent.name: GreedyAgent,
    PlainGreedyAgent.name: PlainGreedyAgent,
    OpeningGreedyAgent.name: OpeningGreedyAgent,
    ZeroGreedyAgent.name: ZeroGreedyAgent,
    PPOAgent.name: PPOAgent,
}
"""Agent classes by registry name."""


def make_agent(
    name: str,
    model: str | Path | None = None,
    seed: int | None = None,
    trust_model: bool = False,
) -> Agent:
    """An agent by registry name.

    :param model: the model file of a learned agent (``None``: the shipped one).
    :param trust_model: let a learned agent load a stable-baselines3 zip (which
        unpickles: a crafted file runs code); weights-only files need no trust.
    :param seed: seeds an agent's randomness (the harness reseeds every game).
    :raises ValueError: naming the known agents when ``name`` is unknown.
    :raises ModelNotFoundError: when a learned agent has no model file.
    """
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(AGENTS)}")
    if name == PPOAgent.name:
        return PPOAgent(model, trust_model=trust_model)
    if seed is None:
        return AGENTS[name]()
    return AGENTS[name](seed=seed)  # type: ignore[call-arg]


__all__ = [
    "AGENTS",
    "Agent",
    "GreedyAgent",
    "ModelNotFoundError",
    "OpeningGreedyAgent",
    "PPOAgent",
    "PlainGreedyAgent",
    "RandomAgent",
    "UntrustedModelError",
    "ZeroGreedyAgent",
    "default_model_path",
    "make_agent",
]
