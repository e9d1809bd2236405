"""Reportable protocols: fixed boards, starts, seed and game counts, and the
reference rows a table is read against.

``standard`` is the table a paper cites: beginner, intermediate and expert,
each with the two starts the published solvers report (``safe``: the first
probe is never a mine; ``zero``: it always opens an area, the agent choosing
where), rule set ``complete``, seed 0, :data:`STANDARD_GAMES` games per board
and start, every agent paired against ``greedy`` on the same games. The
reference rows (ours measured by the same protocol, and the public solvers'
published figures with their sources) ship as data in
``standard_reference.json``, each with the command or source it comes from.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .backends import Backend
from .harness import evaluate
from .paired import add_paired_columns
from .records import Run, Settings
from .targets import board_target

STANDARD_GAMES = 5000
"""Games per board and start: a 95% interval of at most +-1.4 points on a win rate,
and paired differences against greedy several times tighter (most games end alike).
Cost, one process of a shared 2-core machine: random and greedy played the zero
start's 30,000 games (3 boards x 2 agents) in 296 s; an agent as slow as the shipped
ppo on expert (about 55 games/s) adds about 90 s per expert row."""

REFERENCE_FILE = Path(__file__).with_name("standard_reference.json")
"""The reference rows of the standard protocol (measured and published)."""


@dataclass(frozen=True)
class Protocol:
    """What a protocol fixes: every setting that changes a reported figure."""

    name: str
    boards: tuple[str, ...]
    first_clicks: tuple[str, ...]
    games: int
    seed: int
    rule_set: str
    baseline: str
    """The agent every row is paired against (played in the same run)."""

    def command(self, agents: list[str], games: int | None = None) -> str:
        """The command that plays this protocol for ``agents``."""
        parts = ["semiautomines", "evaluate", "--protocol", self.name]
        parts += ["--agents", ",".join(agents)]
        if games is not None and games != self.games:
            parts += ["--games", str(games)]
        return shlex.join(parts)


STANDARD = Protocol(
    name="standard",
    boards=("beginner", "intermediate", "expert"),
    first_clicks=("safe", "zero"),
    games=STANDARD_GAMES,
    seed=0,
    rule_set="complete",
    baseline="greedy",
)
PROTOCOLS = {STANDARD.name: STANDARD}
"""The protocols ``evaluate --protocol`` knows, by name."""


def get_protocol(name: str) -> Protocol:
    """:raises ValueError: naming the known protocols."""
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol {name!r}; known: {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]


def protocol_agents(agents: list[str], protocol: Protocol) -> list[str]:
    """The agents a protocol run plays: those asked for, then its baseline."""
    names = list(dict.fromkeys(agents))
    return names if protocol.baseline in names else [*names, protocol.baseline]


def run_protocol(
    agents: list[str],
    protocol: Protocol = STANDARD,
    games: int | None = None,
    workers: int = 1,
    progress: bool = True,
    backend: Backend | None = None,
    descriptions: dict[str, str] | None = None,
    model: str | None = None,
    trust_model: bool = False,
    save_games: bool = False,
) -> dict[str, Run]:
    """Play ``agents`` (and the baseline) by the protocol: one run per start.

    Rows carry the paired difference against the baseline. A run stopped by
    Ctrl-C or an agent's error ends the protocol there; what was played is kept.

    :param games: fewer games for a quick look (the table then says it is not
        the protocol's); ``None``: the protocol's count.
    :returns: the run of each start played, by first-click policy.
    """
    names = protocol_agents(agents, protocol)
    targets = [board_target(board) for board in protocol.boards]
    runs: dict[str, Run] = {}
    for first_click in protocol.first_clicks:
        settings = Settings(
            protocol.rule_set,
            first_click,
            protocol.seed,
            model,
            trust_model,
            save_games=save_games,
        )
        run = evaluate(
            names,
            targets,
            settings,
            games or protocol.games,
            workers=workers,
            progress=progress,
            descriptions=descriptions,
            backend=backend,
        )
        add_paired_columns(run.rows, run.records, protocol.baseline)
        runs[first_click] = run
        if run.interrupted or run.error:
            break
    return runs


@cache
def reference(path: Path = REFERENCE_FILE) -> dict[str, Any]:
    """The reference rows: ``measured`` (ours, by the protocol) and ``published``."""
    return json.loads(path.read_text(encoding="utf-8"))


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.2f}%"


def _paired(row: dict[str, Any]) -> str:
    if row.get("win_diff") is None or row.get("diff_ci_low") is None:
        return ""
    return (
        f"{100 * row['win_diff']:+.2f} ({100 * row['diff_ci_low']:+.2f} to "
        f"{100 * row['diff_ci_high']:+.2f})"
    )


def protocol_table(
    runs: dict[str, Run], protocol: Protocol = STANDARD, games: int | None = None
) -> str:
    """The reportable table: per board and start, the agents played, then the
    reference rows (ours measured by this protocol, the published solvers')."""
    data = reference()
    lines = []
    if games is not None and games != protocol.games:
        lines.append(
            f"**Not the {protocol.name} protocol's figures**: {games} games per row "
            f"(the protocol plays {protocol.games}); the reference rows below do.\n"
        )
    lines += [
        f"| board | start | player | games | win rate | 95% CI | vs {protocol.baseline} "
        "(paired, 95% CI) | source |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for board in protocol.boards:
        for start in protocol.first_clicks:
            for row in runs[start].rows if start in runs else []:
                if row["board"] == board:
                    ci = f"{_percent(row['ci_low'])}-{_percent(row['ci_high'])}"
                    lines.append(
                        f"| {board} | {start} | **{row['agent']}** | {row['games']} "
                        f"| {_percent(row['win_rate'])} | {ci} | {_paired(row)} | this run |"
                    )
            for ref in data["measured"]:
                if ref["board"] == board and ref["first_click"] == start:
                    ci = f"{_percent(ref.get('ci_low'))}-{_percent(ref.get('ci_high'))}"
                    lines.append(
                        f"| {board} | {start} | {ref['agent']} (reference) | {ref['games']} "
                        f"| {_percent(ref['win_rate'])} | {ci} | {ref.get('paired', '')} "
                        f"| {ref['source']} |"
                    )
            for ref in data["published"]:
                if ref["board"] == board and ref["first_click"] == start:
                    lines.append(
                        f"| {board} | {start} | {ref['player']} (published) "
                        f"| {ref['games']} | {ref['win_rate']} | | | {ref['source']} |"
                    )
    return "\n".join(lines)


def protocol_json(
    runs: dict[str, Run], protocol: Protocol, command: str, games: int | None = None
) -> dict[str, Any]:
    """protocol.json: the protocol, the command, this run's rows and the references."""
    return {
        "protocol": protocol.name,
        "reportable": games is None or games == protocol.games,
        "command": command,
        "boards": list(protocol.boards),
        "first_clicks": list(protocol.first_clicks),
        "games": games or protocol.games,
        "seed": protocol.seed,
        "rule_set": protocol.rule_set,
        "baseline": protocol.baseline,
        "rows": [row for run in runs.values() for row in run.rows],
        "reference": reference(),
    }
