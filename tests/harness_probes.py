"""The cells an agent probes in one game of the evaluation harness (a test helper)."""

from __future__ import annotations

from semiautomines_agents import make_agent
from semiautomines_agents.evaluation.play import Chunk, Settings, make_env, play_game
from semiautomines_agents.evaluation.targets import board_target


def harness_probes(agent_name: str, board: str, index: int, first_click: str = "safe") -> list[int]:
    """The flat cells ``agent_name`` probes in game ``index`` of the harness on ``board``."""
    settings = Settings(first_click=first_click)
    chunk = Chunk(agent_name, board_target(board), (index,), settings)
    agent = make_agent(agent_name)
    env = make_env(chunk.target, settings, agent.obs_mode)
    probes: list[int] = []
    act = agent.act

    def recording(observation, mask, game):
        probes.append(act(observation, mask, game))
        return probes[-1]

    agent.act = recording  # type: ignore[method-assign]
    play_game(env, agent, chunk, index)
    return probes
