"""How long agents think: CPU time per move and per game, agents interleaved game by game.

The targets: the learned agent <= 2 ms per move (batch of one) and fewer ms per game
than ``search``; ``search`` <= 150 ms per expert game and no move over 2 s. This plays
the same seeded games (the harness's seeds, rule set ``complete``) with each agent in
turn, game by game, so machine load hits them alike, and times every ``act`` call and
every whole game (env included) in CPU seconds of this one process:

    python benchmarks/agent_speed.py                                  # ppo and search, expert
    python benchmarks/agent_speed.py --agents ppo,greedy --games 500 --model runs/x/final.pt

A move is one ``act`` call: for ``ppo`` the network on the observation the env
already computed (planes and exact probabilities), for ``search`` its whole search.
The first game of each agent is played before the clock starts (it loads models
and compiled kernels).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from semiautomines_agents import make_agent
from semiautomines_agents.base import Agent
from semiautomines_agents.evaluation.play import Chunk, Settings, make_env, play_game
from semiautomines_agents.evaluation.targets import board_target


@dataclass
class Clock:
    """One agent's timings: CPU seconds of every move and every game."""

    moves: list[float] = field(default_factory=list)
    games: list[float] = field(default_factory=list)
    wins: int = 0


class TimedAgent:
    """Wraps an agent so each ``act`` call's CPU time lands in a :class:`Clock`."""

    def __init__(self, agent: Agent, clock: Clock) -> None:
        self.agent, self.clock = agent, clock

    def __getattr__(self, name: str):
        return getattr(self.agent, name)

    def act(self, observation, action_mask, game) -> int:
        start = time.process_time()
        action = self.agent.act(observation, action_mask, game)
        self.clock.moves.append(time.process_time() - start)
        return action


def summary(name: str, clock: Clock) -> str:
    """One table row: per game and per move figures, in ms."""
    moves = np.asarray(clock.moves) * 1e3
    games = np.asarray(clock.games) * 1e3
    return (
        f"| {name} | {len(games)} | {clock.wins / len(games):.1%} | {games.mean():.1f} | "
        f"{1e3 / games.mean():.1f} | {len(moves)} | {moves.mean():.2f} | {np.median(moves):.2f} | "
        f"{np.percentile(moves, 95):.2f} | {moves.max():.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", default="ppo,search", help="comma-separated agent names")
    parser.add_argument("--board", default="expert")
    parser.add_argument("--games", type=int, default=200, help="timed games per agent")
    parser.add_argument("--first-game", type=int, default=1, help="index of the first timed game")
    parser.add_argument("--seed", type=int, default=0, help="run seed (the harness's games)")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--model", default=None, help="ppo model file (default: the shipped one)")
    args = parser.parse_args()

    settings = Settings(rule_set="complete", first_click=args.first_click, seed=args.seed)
    target = board_target(args.board)
    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    players = {}
    for name in names:
        clock = Clock()
        agent = TimedAgent(make_agent(name, model=args.model), clock)
        env = make_env(target, settings, agent.obs_mode)
        warm_up = Chunk(name, target, (0,), settings)
        play_game(env, agent, warm_up, 0)  # loads the model and the compiled kernels
        clock.moves.clear()
        players[name] = (agent, env, clock)

    indices = range(args.first_game, args.first_game + args.games)
    for done, index in enumerate(indices, 1):
        for name, (agent, env, clock) in players.items():
            start = time.process_time()
            record = play_game(env, agent, Chunk(name, target, (index,), settings), index)
            clock.games.append(time.process_time() - start)
            clock.wins += record.won
        if done % max(1, args.games // 10) == 0:
            print(f"  {done}/{args.games} games each", flush=True)

    print(
        f"\n{args.board}, first click {args.first_click}, seed {args.seed}, games "
        f"{indices.start}-{indices.stop - 1}, one process, CPU time, agents interleaved\n"
    )
    print(
        "| agent | games | win rate | ms per game | games/s | moves | ms per move, mean | "
        "median | 95th pct | max |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, (_, _, clock) in players.items():
        print(summary(name, clock))


if __name__ == "__main__":
    main()
