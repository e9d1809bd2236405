"""Native vector env against the sync vector env: games/s of random masked play, one process.

Both are ``gymnasium.make_vec("SemiAutoMines-v0", num_envs=N, ...)``, one with
``vectorization_mode="vector_entry_point"`` (the batched core), one with
``"sync"`` (N single envs in a loop). They run interleaved (sync, native,
sync, native, ...) for a few CPU seconds each, so machine load hits both
alike; each side's figure is the median of its rounds. Actions are drawn
uniformly from each board's mask by one vectorised sampler shared by both.
The target: native >= 5x sync at N=64 on expert with ``complete``.

    python benchmarks/vector_env_speed.py                        # beginner and expert, N=64
    python benchmarks/vector_env_speed.py --boards expert --rounds 5 --seconds 5
    python benchmarks/vector_env_speed.py --profile expert       # where the native env's time goes

Rates are per CPU second of this process (one core), the wall-clock rate beside.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from statistics import median

import gymnasium as gym
import numpy as np

import minesweep_env  # noqa: F401  (registers the env)

MODES = {"sync": "sync", "native": "vector_entry_point"}


def masked_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random valid action per board."""
    scores = rng.random(masks.shape)
    scores[~masks] = -1.0
    return scores.argmax(axis=1)


class Runner:
    """One vector env kept running across rounds (autoresets start the new games)."""

    def __init__(self, mode: str, num_envs: int, env_kwargs: dict) -> None:
        self.envs = gym.make_vec(
            "SemiAutoMines-v0", num_envs=num_envs, vectorization_mode=MODES[mode], **env_kwargs
        )
        _, self.infos = self.envs.reset(seed=0)
        self.rng = np.random.default_rng(0)

    def play(self, seconds: float) -> tuple[int, int, float, float]:
        """Step for about ``seconds`` of CPU; (games finished, board steps, cpu s, wall s)."""
        games = steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.process_time() - cpu < seconds:
            actions = masked_actions(self.infos["action_mask"], self.rng)
            _, _, terminated, truncated, self.infos = self.envs.step(actions)
            games += int((terminated | truncated).sum())
            steps += len(actions)
        return games, steps, time.process_time() - cpu, time.perf_counter() - wall


def compare(board: str, args: argparse.Namespace) -> None:
    env_kwargs = {
        "board": board,
        "rule_set": args.rule_set,
        "info_probability": args.info_probability,
    }
    runners = {mode: Runner(mode, args.num_envs, env_kwargs) for mode in MODES}
    for runner in runners.values():  # warm-up: caches, first games
        runner.play(min(1.0, args.seconds))
    rates: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in MODES}
    for _ in range(args.rounds):
        for mode, runner in runners.items():
            games, steps, cpu, wall = runner.play(args.seconds)
            rates[mode].append((games / cpu, steps / cpu, games / wall))
    line = f"{board:<12} N={args.num_envs:<4}"
    for mode in MODES:
        games_cpu = median(rate[0] for rate in rates[mode])
        steps_cpu = median(rate[1] for rate in rates[mode])
        games_wall = median(rate[2] for rate in rates[mode])
        line += f" | {mode} {games_cpu:8,.0f} games/s {steps_cpu:8,.0f} steps/s"
        line += f" ({games_wall:,.0f} wall)"
    ratios = [n[0] / s[0] for n, s in zip(rates["native"], rates["sync"], strict=True)]
    print(f"{line} | native/sync {median(ratios):.2f}x", flush=True)


def profile(board: str, args: argparse.Namespace) -> None:
    env_kwargs = {
        "board": board,
        "rule_set": args.rule_set,
        "info_probability": args.info_probability,
    }
    runner = Runner("native", args.num_envs, env_kwargs)
    runner.play(1.0)
    profiler = cProfile.Profile()
    profiler.enable()
    games, steps, cpu, _ = runner.play(args.seconds)
    profiler.disable()
    print(f"native {board}: {games} games, {steps} board steps in {cpu:.1f} CPU s (profiled)")
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(25)
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", nargs="+", default=["beginner", "expert"])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--rule-set", default="complete")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per round")
    parser.add_argument(
        "--no-info-probability",
        dest="info_probability",
        action="store_false",
        help='skip info["mine_probability"] (on by default, as in the env)',
    )
    parser.add_argument("--profile", metavar="BOARD", help="cProfile the native env instead")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args)
        return
    print(f"rule set {args.rule_set}, info_probability={args.info_probability}, medians")
    for board in args.boards:
        compare(board, args)


if __name__ == "__main__":
    main()
