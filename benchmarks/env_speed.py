"""How fast SemiAutoMines-v0 runs: steps/s and games/s for a random masked agent, one process.

For every standard board and rule set it plays whole games with a uniformly
random valid action (the mask from ``info``) for a fixed time and prints a
table, then where the time went: the game core and auto-solver
(``Game.probe``), the probability engine behind ``info["mine_probability"]``,
new games (``reset``), and the env's own work (observation, mask, info) as
the rest. Targets on one core: beginner >= 1,000 games/s and expert
>= 100 games/s with ``complete``.

    python benchmarks/env_speed.py                      # all boards, endoh and complete
    python benchmarks/env_speed.py --seconds 10 --rule-sets complete --boards expert
    python benchmarks/env_speed.py --no-info-probability  # the fastest setting
    python benchmarks/env_speed.py --peer gym-minesweeper --peer jumanji  # beside the peers

With ``--peer`` it measures games/s of the same random masked agent, rule set
``complete``, beside public peers in one interleaved run (A B A B ... blocks of
``--seconds`` each): ours in one env, ours as ``make_vec(..., num_envs=64)``
in ``sync`` mode and, when the env has one, ``vector_entry_point`` mode, on one
thread and on ``--threads`` threads (``num_threads``: shards of the 64 boards
stepped at once, see ``minesweep_env.envs.threaded``), PyPI
gym-minesweeper 0.0.1 and Jumanji 1.1.2's ``Minesweeper-v0`` (jit + vmap over
64 boards, CPU; both from the ``bench`` extra). What one step does differs: see
:data:`STEP`.

Rates are per CPU second of this process, so they stand for one core even
when other work shares the machine (cache and memory contention still add
noise); the wall-clock rate is printed beside them, and each row's ratio to
``sync`` in both. A block lasts ``--seconds`` of this process's CPU time, which
threads spend faster than the clock: the threaded row's wall rate is what its
threads give on the cores free at the time, its CPU rate what one core gives.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager

import gymnasium as gym
import numpy as np
from peers import PeerMissing, gym_ms, jumanji_ms

import minesweep_env
from minesweep_env.envs import probabilities as probability_module
from minesweep_env.game import Game

PEERS = ("gym-minesweeper", "jumanji")

STEP = {
    "ours": "probe one cell, flood-fill its zero area, then the auto-solver (rule set "
    "complete: exact inference) makes every move it can prove; "
    "observation planes, mask and info (mine probability of the probed cell by default)",
    "gym-minesweeper": "probe one cell and flood-fill its zero area; no inference, no safe "
    "first click",
    "jumanji": "reveal one cell: no flood fill, no inference, no safe first click; 64 boards "
    "per compiled step",
}
"""What one env step does on each side, printed beside the figures."""


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


class RandomGames:
    """Ours, one env: the random masked agent of :func:`run`, without the timers.

    Seeded once (``reset(seed=0)``), then plain ``reset()`` per game, as a training
    loop and the peer's loop reset; the first game (it loads the compiled kernels, a
    one-time cost the cold-start row of ``speed_vs_peers.py`` measures, as Jumanji's
    compile is left out of its figure) is played here, outside the timed blocks.
    """

    def __init__(self, board: str, rule_set: str = "complete", info_probability: bool = True):
        self.env = gym.make(
            "SemiAutoMines-v0", board=board, rule_set=rule_set, info_probability=info_probability
        )
        self.rng = np.random.default_rng(0)
        self.env.reset(seed=0)
        self._game()

    def _game(self) -> tuple[int, bool]:
        """One whole game from a plain ``reset()``: (steps, won)."""
        _, info = self.env.reset()
        steps = 0
        done = False
        while not done:
            valid = np.flatnonzero(info["action_mask"])
            action = valid[self.rng.integers(len(valid))]
            _, _, terminated, truncated, info = self.env.step(action)
            steps += 1
            done = terminated or truncated
        return steps, info["state"] == "won"

    def play(self, cpu_seconds: float) -> tuple[int, int, int]:
        """Whole games until ``cpu_seconds`` of process time pass: (games, steps, wins)."""
        games = steps = wins = 0
        deadline = time.process_time() + cpu_seconds
        while time.process_time() < deadline:
            game_steps, won = self._game()
            games += 1
            steps += game_steps
            wins += won
        return games, steps, wins


class VectorRandomGames:
    """Ours, ``gymnasium.make_vec`` over ``num_envs`` boards in one process.

    :raises PeerMissing: when ``mode`` is ``"vector_entry_point"`` and the env has none yet.
    """

    def __init__(
        self,
        board: str,
        num_envs: int,
        mode: str,
        rule_set: str = "complete",
        info_probability: bool = True,
        num_threads: int = 1,
    ):
        threads = {"num_threads": num_threads} if num_threads > 1 else {}
        try:
            self.envs = gym.make_vec(
                "SemiAutoMines-v0",
                num_envs=num_envs,
                vectorization_mode=mode,
                board=board,
                rule_set=rule_set,
                info_probability=info_probability,
                **threads,
            )
        except gym.error.Error as error:
            raise PeerMissing(f"no {mode} mode in this version ({error})") from None
        self.rng = np.random.default_rng(0)
        _, self.info = self.envs.reset(seed=0)
        self._step()  # loads the compiled kernels, outside the timed blocks (see RandomGames)

    def _step(self) -> tuple[int, int, int]:
        """One batched step: (boards, games ended, games won)."""
        masks = np.asarray(self.info["action_mask"], dtype=bool)
        # Per board the valid cell with the highest random score: uniform over valid cells.
        scores = self.rng.random(masks.shape) * masks
        actions = scores.argmax(axis=1)
        _, _, terminated, truncated, self.info = self.envs.step(actions)
        ended = np.asarray(terminated) | np.asarray(truncated)
        won = ended & (np.asarray(self.info["state"]) == "won")
        return len(actions), int(ended.sum()), int(won.sum())

    def play(self, cpu_seconds: float) -> tuple[int, int, int]:
        """Batched steps until ``cpu_seconds`` of process time pass: (games, steps, wins)."""
        games = steps = wins = 0
        deadline = time.process_time() + cpu_seconds
        while time.process_time() < deadline:
            boards, ended, won = self._step()
            steps += boards
            games += ended
            wins += won
        return games, steps, wins


def _make_runner(name: str, board: str, info_probability: bool):
    """A player by row name; may raise :class:`PeerMissing`."""
    if name == "ours":
        return RandomGames(board, info_probability=info_probability)
    if name.startswith("ours "):
        mode, *threads = name.split()[1:]  # "ours vector_entry_point threads=2"
        num_threads = int(threads[0].removeprefix("threads=")) if threads else 1
        return VectorRandomGames(
            board, 64, mode, info_probability=info_probability, num_threads=num_threads
        )
    if name == "gym-minesweeper":
        return gym_ms.RandomGames(board)
    if name == "jumanji":
        return jumanji_ms.RandomGames(board, num_envs=64)
    raise ValueError(f"unknown player {name!r}")


def interleaved_games(
    board: str, names: list[str], rounds: int, seconds: float, info_probability: bool = True
) -> tuple[dict[str, dict], dict[str, str]]:
    """Each player plays ``rounds`` blocks of ``seconds`` CPU s, A B A B ... in one process.

    Returns per player the totals (games, steps, wins, cpu, wall) and, for players
    that could not start, why (the rest are still measured).
    """
    runners, missing = {}, {}
    for name in names:
        try:
            runners[name] = _make_runner(name, board, info_probability)
        except PeerMissing as error:
            missing[name] = str(error)
    fields = ("games", "steps", "wins", "cpu", "wall")
    totals = {name: dict.fromkeys(fields, 0.0) for name in runners}
    for _ in range(rounds):
        for name, runner in runners.items():
            cpu, wall = time.process_time(), time.perf_counter()
            games, steps, wins = runner.play(seconds)
            total = totals[name]
            total["cpu"] += time.process_time() - cpu
            total["wall"] += time.perf_counter() - wall
            total["games"] += games
            total["steps"] += steps
            total["wins"] += wins
    return totals, missing


def peer_players(peers: list[str], threads: int = 2) -> list[str]:
    """The players of a peer run: ours in its three shapes (and the native vector env on
    ``threads`` threads, if more than one), then the peers asked for."""
    threaded = [f"ours vector_entry_point threads={threads}"] if threads > 1 else []
    return ["ours", "ours sync", "ours vector_entry_point", *threaded, *peers]


def print_peer_run(board: str, totals: dict[str, dict], missing: dict[str, str]) -> None:
    """One board's interleaved run as a table, games/s per CPU second and per wall second."""
    print(f"\n{board}: random masked agent, rule set complete for ours, interleaved blocks")
    print(
        f"{'player':<38}{'games':>8}{'games/s CPU':>13}{'games/s wall':>14}{'steps/game':>12}"
        f"{'CPU/wall':>10}{'x sync CPU':>12}{'x sync wall':>13}"
    )
    sync = totals.get("ours sync")
    for name, total in totals.items():
        cpu_rate, wall_rate = total["games"] / total["cpu"], total["games"] / total["wall"]
        ratios = ""
        if sync is not None:
            ratios = (
                f"{cpu_rate / (sync['games'] / sync['cpu']):>12.2f}"
                f"{wall_rate / (sync['games'] / sync['wall']):>13.2f}"
            )
        print(
            f"{name:<38}{int(total['games']):>8}{cpu_rate:>13.0f}{wall_rate:>14.0f}"
            f"{total['steps'] / max(total['games'], 1):>12.1f}"
            f"{total['cpu'] / total['wall']:>10.2f}{ratios}"
        )
    for name, why in missing.items():
        print(f"{name:<38}skipped: {why}")


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
    parser.add_argument(
        "--peer",
        action="append",
        choices=PEERS,
        default=[],
        help="measure beside this peer, interleaved (repeatable; needs the bench extra)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="A B A B rounds with --peer")
    parser.add_argument(
        "--threads",
        type=int,
        default=2,
        help="with --peer, also the native vector env on this many threads (1: no such row)",
    )
    args = parser.parse_args()
    if args.peer:
        for side, step in STEP.items():
            print(f"one step, {side}: {step}")
        for board in args.boards.split(","):
            totals, missing = interleaved_games(
                board,
                peer_players(args.peer, args.threads),
                args.rounds,
                args.seconds,
                not args.no_info_probability,
            )
            print_peer_run(board, totals, missing)
        return
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
