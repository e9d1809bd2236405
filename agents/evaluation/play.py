"""Playing games: one game, and a chunk of games as a worker process runs it.

Every game's randomness comes from seeds derived from (run seed, target,
game number) and, for the agent, the agent's name too. So a game is the
same whichever process plays it and in whatever order: ``--workers`` changes
the speed, never the results, and every agent meets the same layouts.
"""

from __future__ import annotations

import zlib
from time import perf_counter
from typing import Any

import numpy as np

from minesweep_env import STANDARD_BOARDS
from minesweep_env.core.difficulty import layout_difficulty
from minesweep_env.envs import ENV_ID

from ..base import Agent
from ..third_party import registered_factory
from .records import AgentFailure, Chunk, GameRecord, Settings
from .saved_games import record_games
from .targets import Target


def _key(text: str) -> int:
    """A stable 32-bit number for a name (Python's ``hash`` varies per process)."""
    return zlib.crc32(text.encode())


def game_seed(seed: int, target: str, index: int) -> int:
    """The env reset seed of game ``index`` on ``target``: the same for every agent."""
    return int(np.random.SeedSequence([seed, _key(target), index]).generate_state(1)[0])


def agent_seed(seed: int, target: str, index: int, agent: str) -> int:
    """The seed of the agent's own randomness in that game."""
    sequence = np.random.SeedSequence([seed, _key(target), index, _key(agent)])
    return int(sequence.generate_state(1)[0])


def make_env(target: Target, settings: Settings, obs_mode: str) -> Any:
    """The ``SemiAutoMines-v0`` env for a target (maps are chosen per reset)."""
    import gymnasium

    import minesweep_env  # noqa: F401  (registers the env)

    options: dict[str, Any] = {
        "rule_set": settings.rule_set,
        "first_click": settings.first_click,
        "obs_mode": obs_mode,
        "info_probability": False,  # the harness does not read it; it costs a solve per step
    }
    if target.kind == "map":
        options["maps"] = list(target.maps)
    elif target.name in STANDARD_BOARDS:
        options["board"] = target.name
    else:
        options.update(width=target.width, height=target.height, mines=target.mines)
    return gymnasium.make(ENV_ID, disable_env_checker=True, **options)


def play_game(env: Any, agent: Agent, chunk: Chunk, index: int) -> GameRecord:
    """Play game ``index`` of ``chunk``'s target to its end and describe it.

    An invalid action ends the game as a loss (the env would ignore it, and an
    agent that repeats it would never finish). An agent that raises stops the
    chunk with :class:`AgentFailure` naming the agent and the game.
    """
    target, settings = chunk.target, chunk.settings
    options = {"map": target.maps[index % len(target.maps)]} if target.kind == "map" else None
    begin = perf_counter()
    observation, info = env.reset(
        seed=game_seed(settings.seed, target.name, index), options=options
    )
    agent.reset(seed=agent_seed(settings.seed, target.name, index, chunk.agent))
    game = env.unwrapped.game
    invalid = False
    start = target.starts[index % len(target.maps)] if target.starts else None
    if start is not None:  # the map's fixed first click, the same for every agent
        observation, _, terminated, truncated, info = env.step(start[1] * game.width + start[0])
        if terminated or truncated:
            return _record(index, info, game, perf_counter() - begin, invalid)
    for _ in range(game.width * game.height + 1):
        mask = np.asarray(info["action_mask"], dtype=bool)
        try:
            action = int(agent.act(observation, mask, game))
        except Exception as error:  # one line naming the agent and the game, not a traceback
            reason = f"{type(error).__name__}: {error}".strip().splitlines()[0]
            raise AgentFailure(chunk.agent, target.name, index, reason) from None
        if not 0 <= action < mask.size or not mask[action]:
            invalid = True
            break
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return _record(index, info, game, perf_counter() - begin, invalid)


def _record(index: int, info: dict, game: Any, seconds: float, invalid: bool) -> GameRecord:
    minefield = game.minefield
    safe_cells = minefield.width * minefield.height - minefield.mine_count
    opened = int(np.count_nonzero(minefield.view >= 0))
    return GameRecord(
        index=index,
        won=info["state"] == "won",  # game.state, the one verdict (see the env's Episode End)
        guesses=int(game.guesses),
        safe_opened=opened / safe_cells if safe_cells else 1.0,
        seconds=seconds,
        invalid=invalid,
        # After the first click: the layout the game was played on (measured after the
        # clock stops, so a game's speed is the agent's and the env's alone).
        difficulty=layout_difficulty(game.layout.mines),
    )


_AGENTS: dict[tuple[str, str | None, Any], Agent] = {}
"""Per worker process: each agent made once (a PPO model is loaded once). The key
holds the factory a name was registered with in this process, so a name registered
again for another policy (``evaluate_policy`` twice) makes a new agent."""
_ENVS: dict[tuple[str, str, Settings], Any] = {}
"""Per worker process: one env per (target, observation mode)."""


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play a chunk's games in order (the function worker processes run)."""
    from .. import make_agent

    agent_key = (chunk.agent, chunk.settings.model, registered_factory(chunk.agent))
    if agent_key not in _AGENTS:
        for stale in [key for key in _AGENTS if key[:2] == agent_key[:2]]:
            del _AGENTS[stale]  # made by a factory no longer registered under this name
        _AGENTS[agent_key] = make_agent(
            chunk.agent, model=chunk.settings.model, trust_model=chunk.settings.trust_model
        )
    agent = _AGENTS[agent_key]
    env_key = (chunk.target.name, agent.obs_mode, chunk.settings)
    if env_key not in _ENVS:
        _ENVS[env_key] = make_env(chunk.target, chunk.settings, agent.obs_mode)
    records: list[GameRecord] = []
    try:
        if chunk.settings.save_games:
            record_games(_ENVS[env_key], agent, chunk, play_game, into=records)
        else:
            for index in chunk.indices:
                records.append(play_game(_ENVS[env_key], agent, chunk, index))
    except AgentFailure as failure:
        raise failure.with_records(records) from None
    return records
