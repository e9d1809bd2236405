"""The evaluation harness: every agent plays the same seeded games on every target.

Games are cut into chunks and spread over worker processes or a Ray cluster
(:mod:`.backends`); results are put back in game order, so the figures depend
neither on ``workers`` nor on the backend. A Ctrl-C stops the run and returns
what finished, marked as interrupted.
"""

from __future__ import annotations

import math
from contextlib import closing
from time import perf_counter
from typing import Any

from tqdm import tqdm

from .backends import LOCAL_CHUNK_GAMES, Backend, LocalBackend
from .records import AgentFailure, Chunk, GameRecord, Run, Settings
from .stats import summarise
from .targets import Target

CHUNK_GAMES = LOCAL_CHUNK_GAMES
"""Games per unit of work of the local backend (see :mod:`.backends`)."""


def games_for(target: Target, games: int, deterministic: bool) -> int:
    """How many games an agent plays on a target.

    A board gets ``games`` fresh layouts. On maps a deterministic agent plays
    each map once (a replay would be the very same game); any other agent
    plays ``games`` games, rounded up to whole passes over the maps.
    """
    if target.kind != "map":
        return games
    count = len(target.maps)
    return count if deterministic else math.ceil(games / count) * count


def plan(
    agents: list[str],
    deterministic: dict[str, bool],
    targets: list[Target],
    settings: Settings,
    games: int,
    chunk_games: int = CHUNK_GAMES,
) -> list[Chunk]:
    """The chunks of a run, interleaved across targets and agents so that a run
    cut short has played every pair about equally far."""
    queues = []
    for target in targets:
        for agent in agents:
            total = games_for(target, games, deterministic[agent])
            queues.append(
                [
                    Chunk(
                        agent,
                        target,
                        tuple(range(start, min(start + chunk_games, total))),
                        settings,
                    )
                    for start in range(0, total, chunk_games)
                ]
            )
    longest = max((len(q) for q in queues), default=0)
    return [q[k] for k in range(longest) for q in queues if k < len(q)]


def evaluate(
    agents: list[str],
    targets: list[Target],
    settings: Settings,
    games: int,
    workers: int = 1,
    progress: bool = True,
    descriptions: dict[str, str] | None = None,
    backend: Backend | None = None,
) -> Run:
    """Play every agent on every target and summarise.

    :param agents: registry names (see :data:`semiautomines_agents.AGENTS`), settings
        included (``search:depth=3``).
    :param games: games per agent and board (maps: see :func:`games_for`).
    :param workers: processes; 1 plays in this process.
    :param progress: show a tqdm bar on stderr.
    :param descriptions: agent name -> text for the report (e.g. the model file).
    :param backend: where to play, started by the caller (:mod:`.backends`);
        ``None``: ``workers`` local processes.
    """
    from .. import parse_agent_name
    from ..third_party import is_deterministic

    deterministic = {name: is_deterministic(parse_agent_name(name)[0]) for name in agents}
    if backend is None:
        backend = LocalBackend(workers)
    chunks = plan(agents, deterministic, targets, settings, games, backend.chunk_games)
    planned = sum(len(c.indices) for c in chunks)
    done: dict[int, list[GameRecord]] = {}
    interrupted, error = False, None
    bar = tqdm(total=planned, unit="game", desc="evaluate", disable=not progress, smoothing=0.05)
    begin = perf_counter()
    try:
        with closing(backend.play(chunks)) as finished:
            for number, chunk_records in finished:
                done[number] = chunk_records
                bar.update(len(chunk_records))
    except KeyboardInterrupt:
        interrupted = True
    except AgentFailure as failure:  # an agent raised: keep every game it finished
        error = str(failure)
        number = _chunk_of(chunks, failure)
        if number is not None and failure.records:
            done[number] = list(failure.records)
    except Exception as failure:  # an agent or env bug: keep what finished, say what broke
        error = f"{type(failure).__name__}: {failure}"
    finally:
        seconds = perf_counter() - begin
        bar.close()
    records: dict[tuple[str, str], list[GameRecord]] = {}
    for number in sorted(done):
        chunk = chunks[number]
        records.setdefault((chunk.agent, chunk.target.name), []).extend(done[number])
    rows = []
    for target in targets:
        for agent in agents:
            played = sorted(records.get((agent, target.name), []), key=lambda r: r.index)
            if not played:
                continue
            records[(agent, target.name)] = played
            exact = deterministic[agent] and target.kind == "map" and len(target.maps) == 1
            rows.append(_row(agent, target, settings, played, descriptions, exact))
    return Run(
        rows=rows,
        settings=settings,
        planned_games=planned,
        played_games=sum(len(r) for r in done.values()),
        interrupted=interrupted,
        error=error,
        records=records,
        seconds=seconds,
        backend=backend.describe(),
    )


def _chunk_of(chunks: list[Chunk], failure: AgentFailure) -> int | None:
    """The number of the chunk that failed (it holds the failing game)."""
    for number, chunk in enumerate(chunks):
        if (
            chunk.agent == failure.agent
            and chunk.target.name == failure.target
            and failure.game in chunk.indices
        ):
            return number
    return None


def invalid_action_notes(run: Run) -> list[str]:
    """One line per agent and target where the agent chose an invalid action:
    the first such game and how many more (each counts as a lost game)."""
    notes = []
    for (agent, target), records in run.records.items():
        invalid = [r.index for r in records if r.invalid]
        if invalid:
            more = f" (and {len(invalid) - 1} more games)" if len(invalid) > 1 else ""
            notes.append(
                f"agent {agent!r} chose an invalid action in game {invalid[0]} on {target}"
                f"{more}; such a game counts as lost"
            )
    return notes


def _row(
    agent: str,
    target: Target,
    settings: Settings,
    played: list[GameRecord],
    descriptions: dict[str, str] | None,
    exact: bool,
) -> dict[str, Any]:
    row: dict[str, Any] = {"agent": agent, "board": target.name}
    row.update(summarise(played))
    # A deterministic agent on one fixed map plays one game that every replay
    # would repeat: its result is exact, and an interval around it means nothing.
    row["exact"] = exact
    row.update(
        kind=target.kind,
        width=target.width,
        height=target.height,
        mines=target.mines,
        maps=len(target.maps),
        fixed_starts=sum(start is not None for start in target.starts),
        rule_set=settings.rule_set,
        first_click=settings.first_click,
        seed=settings.seed,
        agent_detail=(descriptions or {}).get(agent, agent),
    )
    return row
