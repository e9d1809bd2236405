"""The Python route onto a protocol: a policy callable, evaluated like any agent.

A researcher's policy need not be packaged: :func:`evaluate_policy` takes a
function ``(observation, action_mask) -> action`` that reads the env's
observation (``obs_mode``) and plays it by a protocol's games, paired against
the baseline, in this process. For worker processes or Ray, register the
policy's factory in the ``semiautomines.agents`` entry-point group instead
(:mod:`semiautomines_agents.third_party`) and name it on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..third_party import Policy, PolicyAgent, register_agent, unregister_agent
from .backends import LocalBackend
from .protocol import get_protocol, protocol_table, run_protocol
from .records import Run


@dataclass
class PolicyReport:
    """What :func:`evaluate_policy` returns: the runs, the table and the command."""

    runs: dict[str, Run]
    """One run per start (first-click policy), rows paired against the baseline."""
    table: str
    """The protocol's markdown table, reference rows included."""
    reportable: bool
    """Whether it played the protocol's full game count (a figure to report)."""
    error: str | None = None
    """Why it stopped early: the policy raised (one line naming it and the game).
    The games finished before are kept in :attr:`runs`."""

    @property
    def rows(self) -> list[dict]:
        """Every row of every run (agents, boards, starts)."""
        return [row for run in self.runs.values() for row in run.rows]


def evaluate_policy(
    policy: Policy,
    protocol: str = "standard",
    obs_mode: str = "planes",
    name: str = "policy",
    games: int | None = None,
    deterministic: bool = False,
    progress: bool = False,
) -> PolicyReport:
    """Play ``policy`` by a protocol and report it beside the reference rows.

    >>> import numpy as np
    >>> first = lambda observation, mask: int(np.flatnonzero(mask)[0])
    >>> report = evaluate_policy(first, games=20)  # doctest: +SKIP
    >>> print(report.table)  # doctest: +SKIP

    :param policy: ``(observation, action_mask) -> action``, a flat cell index
        ``y * width + x`` where ``action_mask`` is ``True``.
    :param protocol: the protocol's name (``standard``: see
        :mod:`semiautomines_agents.evaluation.protocol`).
    :param obs_mode: the observation the policy reads: ``planes``, ``grid`` or
        ``planes+probabilities`` (the env's observation modes).
    :param name: the policy's name in the table (not one of the project's agents).
    :param games: games per row for a quick look (``None``: the protocol's count,
        the only one to report).
    :param deterministic: whether the policy answers a position the same way every time.
    :param progress: show a progress bar on stderr.
    :returns: the runs and the table; when the policy raised, :attr:`PolicyReport.error`
        says where in one line, and the games played before it are kept.
    :raises ValueError: for an unknown protocol or a name already taken by an agent.
    """
    from .. import AGENTS

    chosen = get_protocol(protocol)
    if name in AGENTS:
        raise ValueError(f"name {name!r} is one of the project's agents; choose another")
    register_agent(name, lambda: PolicyAgent(policy, name, obs_mode, deterministic))
    try:
        runs = run_protocol([name], chosen, games=games, progress=progress, backend=LocalBackend(1))
    finally:
        unregister_agent(name)
    failed = [run.error for run in runs.values() if run.error]
    return PolicyReport(
        runs,
        protocol_table(runs, chosen, games),
        games is None or games == chosen.games,
        failed[0] if failed else None,
    )
