"""Does the threaded vector env run its shards at once? Threads against the same shards in turn.

Three players step ``num_envs`` boards with a random masked agent (as
``env_speed.py``'s vector rows), in interleaved blocks (A B C A B C ...) of
``--seconds`` wall seconds each:

- ``one thread``: ``make_vec(..., num_envs=N)``, the plain env;
- ``K shards in turn``: ``make_vec(..., num_threads=K)`` with its pool taken away,
  so the shards step one after the other in this thread (the same work as the
  threaded player, none of it at once);
- ``K threads``: ``make_vec(..., num_threads=K)``.

Printed per player: games per wall second, games per CPU second of the process
(all threads), and CPU/wall (near K when K threads each had a core). If the
compiled step released the GIL, ``K threads`` takes about ``1/K`` to ``1`` of the
in-turn player's wall time per game (less the Python each shard runs holding the
GIL); if it did not, the same. The machine's other load shows in CPU/wall.

    python benchmarks/threaded_env_check.py --board expert --threads 2 --seconds 3 --rounds 3
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.envs.threaded import ThreadedVectorEnv


class Player:
    """A random masked agent on one vector env."""

    def __init__(self, envs: gym.vector.VectorEnv) -> None:
        self.envs = envs
        self.rng = np.random.default_rng(0)
        _, self.info = envs.reset(seed=0)
        self.play(0.2)  # kernels loaded, threads started

    def play(self, seconds: float) -> tuple[int, float, float]:
        """Steps for ``seconds`` wall seconds: (games, wall s, CPU s)."""
        games = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            masks = self.info["action_mask"]
            actions = (self.rng.random(masks.shape) * masks).argmax(axis=1)
            _, _, terminated, truncated, self.info = self.envs.step(actions)
            games += int(np.count_nonzero(terminated | truncated))
        return games, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="expert")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0, help="wall seconds per block")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    def make(threads: int) -> gym.vector.VectorEnv:
        extra = {"num_threads": threads} if threads > 1 else {}
        return gym.make_vec("SemiAutoMines-v0", num_envs=args.num_envs, board=args.board, **extra)

    in_turn = make(args.threads)
    assert isinstance(in_turn, ThreadedVectorEnv)
    in_turn.close()  # no pool: the shards step one after the other
    players = {
        "one thread": Player(make(1)),
        f"{args.threads} shards in turn": Player(in_turn),
        f"{args.threads} threads": Player(make(args.threads)),
    }
    totals = {name: np.zeros(3) for name in players}
    for _ in range(args.rounds):
        for name, player in players.items():
            totals[name] += player.play(args.seconds)
    print(
        f"{args.board}, {args.num_envs} boards, rule set complete, random masked agent, "
        f"{args.rounds} interleaved rounds of {args.seconds:g} s wall per player"
    )
    print(f"{'player':<22}{'games':>8}{'games/s wall':>14}{'games/s CPU':>13}{'CPU/wall':>10}")
    for name, (games, wall, cpu) in totals.items():
        print(
            f"{name:<22}{games:>8.0f}{games / wall:>14.0f}{games / cpu:>13.0f}{cpu / wall:>10.2f}"
        )


if __name__ == "__main__":
    main()
