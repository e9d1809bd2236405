"""Agents for SemiAutoMines and the harness that compares them.

Agents are made by name from :data:`AGENTS` (``--agents`` on the command
line): ``random``, ``greedy`` (lowest exact mine probability with a strong
tie-break), ``greedy-plain`` (the same with random tie-breaks, first click
included), ``greedy-opening`` (the known-best first click, then random
tie-breaks), ``greedy-zero`` (the known-best first click, ties to the
likeliest zero without the look-ahead), ``search`` (exact look-ahead over the
next guesses, forced guesses first, exact endgame) and ``ppo``
(a saved MaskablePPO policy, weights only).

Other packages add agents through the ``semiautomines.agents`` entry-point
group (:mod:`.third_party`); the names above keep priority.

A name may carry settings of the agent's constructor: ``search:depth=3`` or
``search:depth=1:width=4`` (see :func:`parse_agent_name`).

The repository keeps this package in ``agents/``; it installs as
``semiautomines_agents``, an import name no other package uses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import Agent
from .greedy import GreedyAgent, OpeningGreedyAgent, PlainGreedyAgent, ZeroGreedyAgent
from .ppo import ModelNotFoundError, PPOAgent, UntrustedModelError, default_model_path
from .random_agent import RandomAgent
from .search import SearchAgent, SearchSettings
from .settings import GreedySettings, NoSettings, settings_from
from .third_party import (
    GROUP,
    PolicyAgent,
    build,
    register_agent,
    third_party_agents,
    unregister_agent,
)

AGENTS: dict[str, type[Agent]] = {
    RandomAgent.name: RandomAgent,
    GreedyAgent.name: GreedyAgent,
    PlainGreedyAgent.name: PlainGreedyAgent,
    OpeningGreedyAgent.name: OpeningGreedyAgent,
    ZeroGreedyAgent.name: ZeroGreedyAgent,
    PPOAgent.name: PPOAgent,
    SearchAgent.name: SearchAgent,
}
"""Agent classes by registry name."""

SETTINGS: dict[str, type] = {
    RandomAgent.name: NoSettings,
    GreedyAgent.name: GreedySettings,
    PlainGreedyAgent.name: NoSettings,
    OpeningGreedyAgent.name: NoSettings,
    ZeroGreedyAgent.name: NoSettings,
    PPOAgent.name: NoSettings,
    SearchAgent.name: SearchSettings,
}
"""The settings each agent takes by name, with their ranges (:mod:`.settings`)."""


def parse_agent_name(name: str) -> tuple[Any, dict[str, int | float]]:
    """The class and constructor settings a name stands for: ``search:depth=3:width=4``
    is :class:`SearchAgent` with ``depth=3, width=4``. Values are numbers; settings
    are separated by colons, since commas separate agents on the command line.
    A third-party agent (:mod:`.third_party`) gives its factory and the settings
    it is to be called with.

    :raises ValueError: for an unknown agent, a malformed setting, a setting the
        agent does not take (the message lists those it takes) or a value out of its
        range (the message names the range).
    """
    base, *settings = name.split(":")
    others = third_party_agents(set(AGENTS)) if base not in AGENTS else {}
    if base not in AGENTS and base not in others:
        known = ", ".join([*AGENTS, *sorted(third_party_agents(set(AGENTS)))])
        raise ValueError(f"unknown agent {base!r}; known: {known}")
    options: dict[str, int | float] = {}
    for item in filter(None, (s.strip() for s in settings)):
        key, equals, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = None
        if not equals or not key.strip() or number is None:
            raise ValueError(f"{name!r}: settings are KEY=NUMBER, got {item!r}")
        options[key.strip()] = int(number) if number.is_integer() and "." not in value else number
    if base in others:
        return others[base], options
    if options and base == PPOAgent.name:
        raise ValueError(f"{name!r}: the ppo agent takes no settings (use --model)")
    settings_from(SETTINGS[base], options, base)  # one line when unknown or out of range
    return AGENTS[base], options


def make_agent(
    name: str,
    model: str | Path | None = None,
    seed: int | None = None,
    trust_model: bool = False,
) -> Agent:
    """An agent by registry name, settings included (``search:depth=3``).

    :param model: the model file of a learned agent (``None``: the shipped one).
    :param trust_model: let a learned agent load a stable-baselines3 zip (which
        unpickles: a crafted file runs code); weights-only files need no trust.
    :param seed: seeds an agent's randomness (the harness reseeds every game).
    :raises ValueError: naming the known agents when ``name`` is unknown, or for a
        setting the agent does not take.
    :raises ModelNotFoundError: when a learned agent has no model file.
    """
    cls, options = parse_agent_name(name)
    if name.split(":")[0] not in AGENTS:
        return build(name.split(":")[0], cls, options)
    if cls is PPOAgent:
        return PPOAgent(model, trust_model=trust_model)
    if seed is not None:
        options = {**options, "seed": seed}
    try:
        return cls(**options)  # type: ignore[arg-type]
    except TypeError as error:
        raise ValueError(f"{name!r}: {error}") from None


__all__ = [
    "AGENTS",
    "GROUP",
    "Agent",
    "GreedyAgent",
    "ModelNotFoundError",
    "OpeningGreedyAgent",
    "PPOAgent",
    "PlainGreedyAgent",
    "PolicyAgent",
    "RandomAgent",
    "SETTINGS",
    "SearchAgent",
    "SearchSettings",
    "UntrustedModelError",
    "ZeroGreedyAgent",
    "default_model_path",
    "make_agent",
    "parse_agent_name",
    "register_agent",
    "third_party_agents",
    "unregister_agent",
]
