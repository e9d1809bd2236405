"""Agents from other packages: the ``semiautomines.agents`` entry-point group.

A package registers a player by naming a factory in its metadata::

    [project.entry-points."semiautomines.agents"]
    mybot = "mypackage.players:make_mybot"

The factory is called with the agent's settings as keyword arguments
(``mybot:depth=2`` calls ``make_mybot(depth=2)``; a plain ``mybot`` calls it
with none) and returns either an :class:`~semiautomines_agents.base.Agent` or a
plain policy, a callable ``(observation, action_mask) -> action`` (wrapped by
:class:`PolicyAgent`). An :class:`Agent` subclass is itself a factory. Once
installed, ``semiautomines evaluate --agents mybot`` plays it like the
project's own agents, in worker processes and Ray workers too: every process
finds it by name through the installed metadata.

The project's own agents keep their names: a package that registers one of
them is ignored with one warning line. Agents registered at run time with
:func:`register_agent` (what :func:`~semiautomines_agents.evaluation.evaluate_policy`
does) live in this process only.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

import numpy as np

from .base import Agent

if TYPE_CHECKING:
    from minesweep_env import Game

GROUP = "semiautomines.agents"
"""The entry-point group third-party agents register in."""

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""A policy: ``(observation, action_mask) -> action`` (a flat cell index)."""

_RUNTIME: dict[str, Callable[..., Any]] = {}
"""Agents registered in this process by :func:`register_agent`."""
_FOUND: dict[str, Callable[..., Any]] | None = None
"""The entry-point group, read once per process."""
_WARNED: set[str] = set()
"""Names whose clash with the project's own agents was already reported."""


class PolicyAgent(Agent):
    """A policy callable seen as an agent: it gets the env's observation and mask.

    :param policy: ``(observation, action_mask) -> action``; the observation is
        the env's in ``obs_mode``, the mask a boolean array, one entry per cell.
    :param name: the agent's name in reports.
    :param obs_mode: the observation the policy reads (``planes``, ``grid`` or
        ``planes+probabilities``).
    :param deterministic: whether the policy always answers a position the same
        way (then a fixed map is played once, not ``--games`` times).
    """

    name = "policy"
    deterministic = False

    def __init__(
        self,
        policy: Policy,
        name: str = "policy",
        obs_mode: str = "planes",
        deterministic: bool = False,
    ):
        self.policy = policy
        self.name = name  # type: ignore[misc]  (per instance: each policy has its own name)
        self.obs_mode = obs_mode
        self.deterministic = deterministic  # type: ignore[misc]

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game) -> int:
        return int(self.policy(observation, action_mask))


def _read_group() -> dict[str, Callable[..., Any]]:
    global _FOUND
    if _FOUND is None:
        found: dict[str, Callable[..., Any]] = {}
        for point in entry_points(group=GROUP):
            try:
                found[point.name] = point.load()
            except Exception as error:  # a broken package must not break the project's agents
                print(
                    f"semiautomines: warning: agent {point.name!r} ({point.value}) cannot be "
                    f"loaded: {type(error).__name__}: {error}",
                    file=sys.stderr,
                )
        _FOUND = found
    return _FOUND


def forget_found() -> None:
    """Read the entry-point group again on the next lookup (after installing a package)."""
    global _FOUND
    _FOUND = None


def third_party_agents(
    ours: set[str] | frozenset[str] = frozenset(),
) -> dict[str, Callable[..., Any]]:
    """The factories of the installed and run-time agents by name, ``ours`` left out.

    A registered name in ``ours`` (the project's own agents) is skipped with one
    warning line on stderr, once per process.
    """
    agents: dict[str, Callable[..., Any]] = {}
    for name, factory in {**_read_group(), **_RUNTIME}.items():
        if name in ours:
            if name not in _WARNED:
                _WARNED.add(name)
                print(
                    f"semiautomines: warning: a package registers an agent named {name!r}; "
                    "the project's own agent keeps that name",
                    file=sys.stderr,
                )
            continue
        agents[name] = factory
    return agents


def register_agent(name: str, factory: Callable[..., Any]) -> None:
    """Make ``factory`` an agent named ``name`` in this process (worker processes
    started later do not see it: install an entry point for those).

    :raises ValueError: for a name with a colon or comma (they separate settings
        and agents on the command line).
    """
    if not name or any(c in name for c in ":, "):
        raise ValueError(f"agent name {name!r}: give a name without ':', ',' or spaces")
    _RUNTIME[name] = factory


def registered_factory(name: str) -> Callable[..., Any] | None:
    """The factory :func:`register_agent` gave ``name`` in this process, if any: part of
    what identifies an agent, since a name may be registered again for another policy."""
    return _RUNTIME.get(name)


def unregister_agent(name: str) -> None:
    """Drop an agent registered by :func:`register_agent` (nothing if it is not)."""
    _RUNTIME.pop(name, None)


def build(name: str, factory: Callable[..., Any], options: dict[str, Any]) -> Agent:
    """The agent a factory makes: an :class:`Agent`, or a policy wrapped as one.

    :raises ValueError: when the factory refuses the settings or returns neither.
    """
    try:
        made = factory(**options)
    except Exception as error:  # a package's bug is one line naming the agent
        raise ValueError(
            f"agent {name!r} cannot be made: {type(error).__name__}: {error}"
        ) from None
    if isinstance(made, Agent):
        return made
    if callable(made):
        return PolicyAgent(made, name=name)
    raise ValueError(
        f"agent {name!r}: its factory returned a {type(made).__name__}, "
        "not an Agent or a policy callable (observation, action_mask) -> action"
    )


def is_deterministic(factory: Callable[..., Any]) -> bool:
    """Whether a factory's agents play a position the same way every time: only
    when it says so (an :class:`Agent` subclass, or a ``deterministic`` attribute)."""
    return bool(getattr(factory, "deterministic", False))
