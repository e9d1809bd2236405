"""How fast SemiAutoMines-v0 runs: steps/s and games/s for a random masked agent, one process.

For every standard board and rule set it plays whole games with a uniformly
random valid action (the mask from ``info``) for a fixed time and prints a
table, then where the time went: the game core and auto-solver
(``Game.probe``), the probability engine behind ``info["mine_probability"]``,
new games (``reset``), and the env's own work (observation, mask, info) as
the rest. Targets on one core (issue 6): beginner >= 1,000 games/s and expert
>= 100 games/s with ``complete``.

    python benchmarks/env_speed.py                      # all boards, endoh and complete
    python benchmarks/env_speed.py --seconds 10 --rule-sets complete --boards expert
    python benchmarks/env_speed.py --no-info-probability  # the fastest setting

Rates are per CPU second of this process, so they stand for one core even
when other work shares the machine (cache and memory contention still add
noise); the wall-clock rate is printed beside them.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager

import gymnasium as gym
import numpy as np

import minesweep_env
from minesweep_env.envs import probabilities as probability_module
from minesweep_env.game import Game


class Timers:
    """CPU time of this process spent inside a few wrapped functions."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def wrap(self, name: str, function: Callable) -> Callable:
        seconds = self.seconds

        def timed(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                seconds[name] += time.process_time() - start

        return timed


@contextmanager
def instrumented(timers: Timers):
    """Time Game.probe and the probability plane while the block runs."""
    probe = Game.probe
    plane = probability_module.ProbabilityPlane.__call__
    Game.probe = timers.wrap("game.probe (core + auto-solver)", probe)
    probability_module.ProbabilityPlane.__call__ = timers.wrap("probability engine", plane)
    try:
        yield
    finally:
        Game.probe = probe
        probability_module.ProbabilityPlane.__call__ = plane


def run(board: str, rule_set: str, seconds: float, info_probability: bool, obs_mode: str) -> dict:
    """Play random masked games for about ``seconds``; return counts and the time split."""
    env = gym.make(
        "SemiAutoMines-v0",
        board=board,
        rule_set=rule_set,
        obs_mode=obs_mode,
        info_probability=info_probability,
    )
    rng = np.random.default_rng(0)
    timers = Timers()
    games = steps = wins = 0
    reset_time = 0.0
    with instrumented(timers):
        start = time.perf_counter()
        cpu_start = time.process_time()
        deadline = cpu_start + seconds
        while time.process_time() < deadline:
            t = time.process_time()
            _, info = env.reset(seed=games)
            reset_time += time.process_time() - t
            done = False
            while not done:
                valid = np.flatnonzero(info["action_mask"])
                action = valid[rng.integers(len(valid))]
                _, _, terminated, truncated, info = env.step(action)
                steps += 1
                done = terminated or truncated
            games += 1
            wins += info["state"] == "won"
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
    env.close()
    split = dict(timers.seconds)
    split["reset (new layout, new game)"] = reset_time
    return {
        "games": games,
        "steps": steps,
        "wins": wins,
        "elapsed": elapsed,
        "cpu": cpu,
        "split": split,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default="beginner,intermediate,expert")
    parser.add_argument("--rule-sets", default="endoh,complete")
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="CPU seconds per board and rule set"
    )
    parser.add_argument("--obs-mode", default="planes")
    parser.add_argument(
        "--no-info-probability",
        action="store_true",
        help='skip info["mine_probability"] (env argument info_probability=False)',
    )
    args = parser.parse_args()
    minesweep_env.get_rule_set("complete")  # loads the built-in rule sets
    available = set(minesweep_env.RULE_SETS)

    print(
        f"obs_mode={args.obs_mode}  info_probability={not args.no_info_probability}  "
        f"random masked agent, one process, {args.seconds:g} CPU s per row\n"
        "games/s and steps/s per CPU second of this process (one core, fair on a busy "
        "machine); wall g/s per wall-clock second"
    )
    header = f"{'board':<13} {'rule set':<10} {'games':>7} {'games/s':>9} {'steps/s':>9} "
    header += f"{'wall g/s':>9} {'steps/game':>10} {'win %':>6}   where the CPU time went"
    print(header)
    print("-" * len(header))
    for rule_set in args.rule_sets.split(","):
        if rule_set not in available:
            print(f"{'':<13} {rule_set:<10} (not registered yet: skipped)")
            continue
        for board in args.boards.split(","):
            result = run(
                board, rule_set, args.seconds, not args.no_info_probability, args.obs_mode
            )
            elapsed, cpu = result["elapsed"], result["cpu"]
            inside = sum(result["split"].values())
            split = {**result["split"], "env overhead + agent": max(0.0, cpu - inside)}
            shares = ", ".join(f"{name} {100 * t / cpu:.0f}%" for name, t in split.items())
            games = result["games"]
            print(
                f"{board:<13} {rule_set:<10} {games:>7} {games / cpu:>9.1f} "
                f"{result['steps'] / cpu:>9.1f} {games / elapsed:>9.1f} "
                f"{result['steps'] / max(games, 1):>10.2f} "
                f"{100 * result['wins'] / max(games, 1):>6.1f}   {shares}",
                flush=True,
            )


if __name__ == "__main__":
    main()
