"""Speed beside every public peer, in one run on this machine (the speed targets' table).

Each comparison runs the peer itself, interleaved with ours (A B A B ...), and
prints ours / peer; only such ratios count, never a figure taken elsewhere:

1. exact probabilities on the recorded positions of ``probability.py``
   (beginner, intermediate, expert): ms-toollib's ``cal_probability_onboard``
   and JSMinesweeper's engine under node, per position a warm-up pass then the
   median of 5 runs; the engines must agree to 1e-9 on a sample;
2. the greedy agent's time per expert game (safe first click, rule set
   ``complete``, one process) against minesolve's simulator at depth 1;
3. env games/s with ``complete`` and a random masked agent against
   gym-minesweeper 0.0.1 and Jumanji's ``Minesweeper-v0`` (``env_speed.py``);
4. no-guess expert maps from a corner against ms-toollib's ``laymine_solvable``;
5. cold start: a fresh process's first expert game, and a warm one.

It prints one markdown table (what, ours, peer in the same run, ours / peer,
target, met?) with the details below it, and writes it to
``benchmarks/results/speed_vs_peers.md`` with the command on top. A peer that is
absent is named with how to get it; ours is measured anyway.

    pip install -e '.[bench]'                      # ms-toollib, gym-minesweeper, jumanji
    python benchmarks/speed_vs_peers.py --jsminesweeper DIR --minesolve PATH   # minutes
    python benchmarks/speed_vs_peers.py --full --jsminesweeper DIR --minesolve PATH

``--minesolve`` takes the built binary or its source checkout (then it is built
with cmake in a temporary folder). The machine may be busy: the ratios of one
interleaved run are the figures to read, the absolute times are noisy.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import env_speed
import gymnasium as gym
import numpy as np
import probability
from peers import PeerMissing, minesolve, toollib

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env import STANDARD_BOARDS, compiled
from minesweep_env.fileio import write_text
from minesweep_env.generation import generate_no_guess
from semiautomines_agents import make_agent

RESULTS = Path(__file__).parent / "results" / "speed_vs_peers.md"


@dataclass
class Sizes:
    """How much each comparison measures: small by default, the full sizes with --full."""

    positions: dict[str, int]
    min_games: int
    sample: int
    greedy_rounds: int
    greedy_games: int
    env_rounds: int
    env_seconds: float
    maps: int
    cold_runs: int


# The greedy and no-guess rows use the full sizes even by default: a game or a map takes about
# a millisecond on either side, and 60 games or 10 maps left those rows to chance (greedy 2.47
# against 0.81-0.83 over 1,000 games; no-guess 1.32 and 0.57 in two 10-map runs).
QUICK = Sizes({"expert": 200, "intermediate": 200, "beginner": 100}, 10, 30, 5, 200, 2, 1.5, 60, 2)
FULL = Sizes(
    {"expert": 1000, "intermediate": 1000, "beginner": 300}, 50, 200, 5, 200, 3, 5.0, 60, 3
)


@dataclass
class Row:
    """One line of the table; ``ratio`` is ours / peer of the figure shown."""

    what: str
    ours: str
    peer: str
    ratio: float | None
    target: str
    met: str


def _ratio_row(what, ours, peer, unit, lower_is_better, bound, digits=3) -> Row:
    """A row comparing ``ours`` with ``peer`` (None: absent) against ``ours / peer`` ``bound``."""
    ours_text = f"{ours:,.{digits}f} {unit}"
    if peer is None:
        return Row(
            what, ours_text, "absent (see below)", None, _target(lower_is_better, bound), "-"
        )
    ratio = ours / peer
    if bound is None:
        met = "-"  # shown for scale, no target
    else:
        met = "yes" if (ratio <= bound if lower_is_better else ratio >= bound) else "NO"
    target = _target(lower_is_better, bound)
    return Row(what, ours_text, f"{peer:,.{digits}f} {unit}", ratio, target, met)


def _target(lower_is_better: bool | None, bound: float | None) -> str:
    if bound is None:
        return "-"
    return f"ours/peer {'<=' if lower_is_better else '>='} {bound:g}"


def probability_rows(sizes: Sizes, js_dir: str | None, notes: list[str]) -> list[Row]:
    """Comparison 1, per level (expert first)."""
    rows = []
    for level, count in sizes.positions.items():
        times, worst, missing = probability.peer_run(
            level, count, sizes.min_games, 5, sizes.sample, js_dir
        )
        ours = times["ours"]
        label = f"exact probabilities, {len(ours)} {level} positions"
        js, early = times.get("JSMinesweeper"), times.get(probability.EARLY_EXIT)
        tl = times.get("ms-toollib")
        median, p99 = np.median, lambda a: np.percentile(a, 99)
        if level == "expert":
            for stat, f in (("median", median), ("p99", p99)):
                peer = None if js is None else f(js)
                what = f"{label}, {stat} vs JSMinesweeper (node, every cell's probability)"
                rows.append(_ratio_row(what, f(ours), peer, "ms", True, 1.0, 4))
            if early is not None:
                what = f"{label}, median vs JSMinesweeper stopping at its first safe cell"
                rows.append(_ratio_row(what, median(ours), median(early), "ms", True, None, 4))
        what = f"{label}, median vs ms-toollib"
        rows.append(
            _ratio_row(what, median(ours), None if tl is None else median(tl), "ms", True, 1.0, 4)
        )
        lines = [
            f"{level}: "
            + ", ".join(
                f"{k} median {median(v):.4f} / p99 {p99(v):.4f} ms" for k, v in times.items()
            )
        ]
        lines += [f"{level}: largest difference, {pair}: {d:.1e}" for pair, d in worst.items()]
        for pair, d in worst.items():
            limit = 1e-8 if pair.startswith("JSMinesweeper's own") else probability.AGREEMENT
            if d > limit:
                lines.append(f"**{level}: DISAGREEMENT {pair}: {d:.2e} > {limit:g}**")
        lines += [f"{level}: {name} skipped: {why}" for name, why in missing.items()]
        notes.extend(lines)
    return rows


def greedy_games(env, agent, first_seed: int, games: int) -> tuple[int, float]:
    """Play ``games`` expert games with the agent; (wins, CPU seconds)."""
    wins = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        observation, info = env.reset(seed=seed)
        agent.reset(seed=seed)
        game = env.unwrapped.game
        done = False
        while not done:
            action = agent.act(observation, np.asarray(info["action_mask"], dtype=bool), game)
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += info["state"] == "won"
    return wins, time.process_time() - start


def greedy_row(sizes: Sizes, minesolve_path: str | None, notes: list[str]) -> Row:
    """Comparison 2: ms per expert game, greedy vs minesolve depth 1, blocks A B A B."""
    env = gym.make(
        "SemiAutoMines-v0",
        board="expert",
        rule_set="complete",
        first_click="safe",
        info_probability=False,
        disable_env_checker=True,
    )
    agent = make_agent("greedy")
    try:
        binary = minesolve.locate(minesolve_path)
    except PeerMissing as error:
        binary = None
        notes.append(f"minesolve skipped: {error}")
    greedy_games(env, agent, 10**6, 1)  # warm-up, outside the figures
    ours_wins = ours_cpu = their_wins = their_cpu = 0.0
    played = 0
    for block in range(sizes.greedy_rounds):
        wins, cpu = greedy_games(env, agent, block * sizes.greedy_games, sizes.greedy_games)
        ours_wins, ours_cpu, played = ours_wins + wins, ours_cpu + cpu, played + sizes.greedy_games
        if binary:
            # Its simulator needs at least one game: a 1-game run stands for start-up.
            run = minesolve.simulate(binary, sizes.greedy_games + 1)
            base = minesolve.simulate(binary, 1)
            their_wins += run.wins
            their_cpu += max(run.cpu - base.cpu, 0.0)
    ours_ms = 1e3 * ours_cpu / played
    peer_ms = 1e3 * their_cpu / played if binary else None
    notes.append(
        f"greedy: {played} expert games, won {100 * ours_wins / played:.1f}%"
        + (
            f"; minesolve depth 1: {played + sizes.greedy_rounds} games, "
            f"won {100 * their_wins / (played + sizes.greedy_rounds):.1f}%"
            if binary
            else ""
        )
        + " (CPU time per game; minesolve's: its N+1-game process less a 1-game one)"
    )
    what = "greedy agent, ms per expert game (safe first click) vs minesolve depth 1 (C)"
    return _ratio_row(what, ours_ms, peer_ms, "ms", True, 1.5, 2)


def env_rows(sizes: Sizes, notes: list[str]) -> list[Row]:
    """Comparison 3: games per CPU second, interleaved blocks, beginner then expert."""
    rows = []
    players = env_speed.peer_players(list(env_speed.PEERS))
    for board in ("beginner", "expert"):
        totals, missing = env_speed.interleaved_games(
            board, players, sizes.env_rounds, sizes.env_seconds
        )
        rate = {name: t["games"] / t["cpu"] for name, t in totals.items()}
        wall = {name: t["games"] / t["wall"] for name, t in totals.items()}
        ours = rate["ours"]
        what = f"env `complete`, random masked agent, {board}, games/s per core vs gym-minesweeper"
        rows.append(_ratio_row(what, ours, rate.get("gym-minesweeper"), "games/s", False, 2.0, 0))
        batched = "ours vector_entry_point" if "ours vector_entry_point" in rate else "ours sync"
        what = (
            f"batched env (`{batched.split()[1]}`, 64 boards), {board}, games/s per core "
            "vs Jumanji jit + vmap 64"
        )
        rows.append(_ratio_row(what, rate[batched], rate.get("jumanji"), "games/s", False, 1.0, 0))
        if board == "expert":
            vep = rate.get("ours vector_entry_point")
            what = "`vector_entry_point` vs `sync`, 64 boards, expert, games/s per core (ours both)"
            if vep is None:
                rows.append(
                    Row(
                        what,
                        "absent",
                        f"{rate['ours sync']:,.0f} games/s",
                        None,
                        "ours/peer >= 5",
                        "-",
                    )
                )
            else:
                rows.append(_ratio_row(what, vep, rate["ours sync"], "games/s", False, 5.0, 0))
            for name in (name for name in rate if name.startswith("ours vector_entry_point ")):
                threads = name.split()[-1].removeprefix("threads=")
                what = (
                    f"`vector_entry_point` on {threads} threads (`num_threads={threads}`) vs "
                    "`sync`, 64 boards, expert, games/s wall (threads on the cores free then)"
                )
                rows.append(
                    _ratio_row(what, wall[name], wall["ours sync"], "games/s", False, 5.0, 0)
                )
                what = f"same, games/s per core (CPU s of all {threads} threads)"
                rows.append(
                    _ratio_row(what, rate[name], rate["ours sync"], "games/s", False, None, 0)
                )
        notes.append(
            f"env {board}: "
            + ", ".join(
                f"{name} {rate[name]:,.0f} games/s per CPU s ({wall[name]:,.0f} per wall s, "
                f"{totals[name]['steps'] / max(totals[name]['games'], 1):.1f} steps/game)"
                for name in totals
            )
        )
        notes.extend(f"env {board}: {name} skipped: {why}" for name, why in missing.items())
    notes.extend(f"one env step, {side}: {text}" for side, text in env_speed.STEP.items())
    return rows


def generation_row(sizes: Sizes, notes: list[str]) -> Row:
    """Comparison 4: expert no-guess maps from the corner (0, 0), interleaved per map, CPU
    time (the machine may be shared)."""
    width, height, mines = STANDARD_BOARDS["expert"]
    try:
        tl = toollib.load()
    except PeerMissing as error:
        tl = None
        notes.append(f"no-guess generation: ms-toollib skipped: {error}")
    # Loaded before timing, as every row's kernels are: the load is the cold-start row's.
    # Without it a fresh process checks its first layouts in Python (see
    # minesweep_env.generation.compiled_check), the speed of a one-off `generate`.
    # One untimed map on each side (another seed) is the warm-up pass the probability
    # rows make too: numba loads each kernel's machine code at its first call.
    compiled.ready()
    generate_no_guess(width, height, mines, np.random.default_rng([1, 0]), (0, 0))
    if tl:
        toollib.laymine_solvable(tl, width, height, mines, (0, 0))
    # The earlier rows leave garbage behind: collected now, not by a full collection
    # timed inside one of our maps (one such pass measured 160 ms, 8x a map's mean).
    gc.collect()
    ours, theirs, found = [], [], 0
    for i in range(sizes.maps):
        start = time.process_time()
        generate_no_guess(width, height, mines, np.random.default_rng([0, i]), (0, 0))
        ours.append(time.process_time() - start)
        if tl:
            start = time.process_time()
            found += toollib.laymine_solvable(tl, width, height, mines, (0, 0))
            theirs.append(time.process_time() - start)
    notes.append(
        f"no-guess expert from (0, 0), {sizes.maps} maps each, CPU time: ours (rule set "
        f"substitution, the CLI default; kernels loaded and one untimed map before timing) "
        f"median {1e3 * np.median(ours):.1f} ms, "
        f"mean {1e3 * np.mean(ours):.1f} ms"
        + (
            f"; ms-toollib median {1e3 * np.median(theirs):.1f} ms, mean "
            f"{1e3 * np.mean(theirs):.1f} ms, found {found}/{sizes.maps} (its is_solvable "
            "ignores the mine count, so it accepts fewer layouts)"
            if tl
            else ""
        )
    )
    what = "no-guess expert map, corner start, mean ms per map vs ms-toollib laymine_solvable"
    peer = 1e3 * np.mean(theirs) if tl else None
    return _ratio_row(what, 1e3 * np.mean(ours), peer, "ms", True, 1.0, 1)


COLD_GAME = """
import json, time
began = time.perf_counter()
import gymnasium as gym
import minesweep_env
from semiautomines_agents import make_agent
imported = time.perf_counter()
env = gym.make("SemiAutoMines-v0", board="expert", rule_set="complete", first_click="safe",
               info_probability=False)
agent = make_agent("greedy")
def game(seed):
    start = time.perf_counter()
    observation, info = env.reset(seed=seed)
    agent.reset(seed=seed)
    done = False
    while not done:
        action = agent.act(observation, info["action_mask"], env.unwrapped.game)
        observation, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return time.perf_counter() - start
first = game(0)
cpu = time.process_time()  # this process's CPU, from its start to the end of its first game
warm = sorted(game(0) for _ in range(3))[1]  # the same game again, warm
print(json.dumps({"imports": imported - began, "first": first, "warm": warm, "cpu": cpu}))
"""


def cold_start_row(sizes: Sizes, notes: list[str]) -> Row:
    """Comparison 5: launch a fresh interpreter, time its first expert game (greedy)."""
    runs = []
    for _ in range(sizes.cold_runs):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", COLD_GAME], capture_output=True, text=True, check=True
        ).stdout
        total = time.perf_counter() - start
        runs.append({**json.loads(out.strip().splitlines()[-1]), "total": total})
    middle = sorted(runs, key=lambda r: r["total"])[len(runs) // 2]
    notes.append(
        f"cold start (median of {len(runs)} fresh processes): launch to end of the first expert "
        f"game {middle['total']:.2f} s (imports {middle['imports']:.2f} s, first game "
        f"{middle['first']:.3f} s; {middle['cpu']:.2f} s of CPU in all: the wall time grows "
        f"with the machine's load, the CPU does not); a warm game {middle['warm']:.3f} s"
    )
    met = "yes" if middle["total"] <= 3.0 else "NO"
    return Row(
        "cold start: fresh process to the end of its first expert game (greedy)",
        f"{middle['total']:.2f} s (warm game {1e3 * middle['warm']:.0f} ms)",
        "-",
        None,
        "<= 3 s",
        met,
    )


def markdown(rows: list[Row], notes: list[str], command: str) -> str:
    """The report: command, machine, table, details."""
    lines = [
        "# Speed beside the public peers, one interleaved run",
        "",
        "```sh",
        command,
        "```",
        "",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores "
        f"(shared; load average {os.getloadavg()[0]:.1f} at the end), Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}. Only the ratios "
        "count; the absolute figures are this run's.",
        "",
        "| what | ours | peer, same run | ours / peer | target | met? |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for row in rows:
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}"
        lines.append(
            f"| {row.what} | {row.ours} | {row.peer} | {ratio} | {row.target} | {row.met} |"
        )
    lines += ["", "## Details", ""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the full sizes (slower)")
    parser.add_argument("--jsminesweeper", metavar="DIR", help="a JSMinesweeper checkout")
    parser.add_argument("--minesolve", metavar="PATH", help="minesolve binary or source checkout")
    parser.add_argument(
        "--only",
        default="probability,greedy,env,generation,cold",
        help="comma-separated parts to run",
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the table is written")
    args = parser.parse_args()
    sizes = FULL if args.full else QUICK
    parts = args.only.split(",")
    rows: list[Row] = []
    notes: list[str] = []
    if "probability" in parts:
        rows += probability_rows(sizes, args.jsminesweeper, notes)
    if "greedy" in parts:
        rows.append(greedy_row(sizes, args.minesolve, notes))
    if "env" in parts:
        rows += env_rows(sizes, notes)
    if "generation" in parts:
        rows.append(generation_row(sizes, notes))
    if "cold" in parts:
        rows.append(cold_start_row(sizes, notes))
    command = "python benchmarks/speed_vs_peers.py " + shlex.join(sys.argv[1:])
    report = markdown(rows, notes, command.strip())
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text(args.out, report)  # a killed run leaves the previous table whole
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
