"""Speed of the exact probability engine on positions from real play.

Positions come from games played by lowest-probability guessing, from fixed
seeds: the player (no auto-solver) flags every cell that is a mine in every
consistent layout and probes the covered cell with the lowest exact mine
probability (ties broken by a seeded draw), asking the engine once per move.
Every position the player asked about is kept, until each level has at least
``--positions`` of them. Each position is then timed as JSMinesweeper's
positions were: one warm-up call, then the median of ``--repeat`` calls, with
the total mine count known. Two engines are timed interleaved, position by
position, so both see the same machine load: ``fast``, the public
:func:`minesweep_env.mine_probabilities` (the compiled float path), and
``exact``, :func:`minesweep_env.analyse_position` (exact integers, the
reference). Both the wall-clock time and the thread CPU time are printed.

The second part measures the engine's main client, the ``complete`` rule set:
whole games with its auto-solver and a random prober, in games per CPU second.

With ``--peers`` it times instead, per level, ``--positions`` of these
positions (spread evenly over the games played) the way JSMinesweeper's engine
was timed: a warm-up pass over all positions, then per position the median of
``--repeat`` runs, interleaved per position with the peers run live in the same
run: ``ms-toollib``'s ``cal_probability_onboard`` in this process (a regular dependency)
and JSMinesweeper's engine under node (``--jsminesweeper DIR``, a checkout). It
prints the median and p99 per engine and checks on a sample that the three
agree on every covered cell's probability.

Run: ``.venv/bin/python benchmarks/probability.py`` (``--help`` for options);
``benchmarks/speed_vs_peers.py`` runs the peer comparison with the others.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from peers import PeerMissing, toollib
from peers.jsminesweeper import JSMinesweeperEngine
from tqdm import tqdm

from minesweep_env import (
    STANDARD_BOARDS,
    Board,
    Game,
    Minefield,
    MineLayout,
    analyse_position,
    mine_probabilities,
)
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability.frontier import read_frontier

EARLY_EXIT = "JSMinesweeper, early exit"
"""JSMinesweeper's engine as its solver runs it by default: it stops at the first part of
the frontier with a certain safe cell, so it does not give every cell's probability."""

AGREEMENT = 1e-9
"""Largest difference in a cell's mine probability the engines may show."""


def play_greedy(width: int, height: int, mines: int, seed: int) -> list[Board]:
    """One game by lowest-probability guessing; the positions the player asked about."""
    rng = np.random.default_rng(seed)
    field = Minefield(MineLayout.random(width, height, mines, rng), first_click="safe", rng=rng)
    field.probe(width // 2, height // 2)
    positions = []
    while field.state == "playing":
        board = field.board()
        positions.append(board.copy())
        analysis = analyse_position(board)
        flat = board.grid.reshape(-1)
        weights = analysis.mine_weights.reshape(-1)
        covered = np.flatnonzero(flat == COVERED)
        for index in covered:
            if weights[index] == analysis.layouts:
                field.set_flag(int(index) % width, int(index) // width)
        probabilities = analysis.probabilities.reshape(-1)
        safest = [i for i in covered if weights[i] != analysis.layouts]
        lowest = min(probabilities[i] for i in safest)
        choice = int(rng.choice([i for i in safest if probabilities[i] == lowest]))
        field.probe(choice % width, choice // width)
    return positions


def collect(level: str, target: int, min_games: int) -> tuple[list[Board], int]:
    """Positions from games with seeds 0, 1, 2, ... until both minimums are met."""
    width, height, mines = STANDARD_BOARDS[level]
    positions: list[Board] = []
    seed = 0
    with tqdm(total=min_games, desc=f"{level}: playing", leave=False) as bar:
        while len(positions) < target or seed < min_games:
            positions.extend(play_greedy(width, height, mines, seed))
            seed += 1
            bar.update(1)
    return positions, seed


ENGINES: dict[str, Callable[[Board], object]] = {
    "fast": mine_probabilities,
    "exact": analyse_position,
}
"""What each engine name times."""


def time_positions(
    positions: list[Board], repeat: int, engines: list[str]
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per engine, per position: the median wall time and thread CPU time, in ms,
    of ``repeat`` calls after a warm-up call; engines interleaved per position."""
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in engines}
    for board in tqdm(positions, desc="timing", leave=False):
        for name in engines:
            engine = ENGINES[name]
            engine(board)
            walls, cpus = [], []
            for _ in range(repeat):
                c0, w0 = time.thread_time(), time.perf_counter()
                engine(board)
                w1, c1 = time.perf_counter(), time.thread_time()
                walls.append(w1 - w0)
                cpus.append(c1 - c0)
            times[name][0].append(float(np.median(walls)) * 1e3)
            times[name][1].append(float(np.median(cpus)) * 1e3)
    return {name: (np.array(wall), np.array(cpu)) for name, (wall, cpu) in times.items()}


def largest_component(positions: list[Board]) -> tuple[int, int, int]:
    """(cells, groups, numbers) of the largest frontier component seen."""
    best = (0, 0, 0)
    for board in positions:
        for component in read_frontier(board).components:
            best = max(best, (component.cell_count, len(component.groups), len(component.needs)))
    return best


def scattered_positions(count: int) -> list[Board]:
    """Harder than play: expert layouts with 10-45% of the safe cells shown at random
    (no flood fill), which makes frontier components of hundreds of cells."""
    width, height, mines = STANDARD_BOARDS["expert"]
    positions = []
    for seed in range(count):
        rng = np.random.default_rng(seed)
        layout = MineLayout.random(width, height, mines, rng)
        shown = ~layout.mines & (rng.random((height, width)) < rng.uniform(0.1, 0.45))
        grid = np.full((height, width), COVERED, dtype=np.int8)
        grid[shown] = layout.numbers[shown]
        positions.append(Board(grid, mines))
    return positions


def recorded_positions(level: str, count: int, min_games: int) -> list[Board]:
    """``count`` positions spread evenly over those of :func:`collect` (fixed seeds)."""
    positions, _ = collect(level, count, min_games)
    picks = np.linspace(0, len(positions) - 1, min(count, len(positions))).round().astype(int)
    return [positions[i] for i in picks]


def _ms(start: int) -> float:
    return (time.perf_counter_ns() - start) / 1e6


def time_with_peers(
    positions: list[Board], repeat: int, js: JSMinesweeperEngine | None, tl
) -> dict[str, np.ndarray]:
    """Per engine, per position: the median of ``repeat`` wall times in ms, after a warm-up
    pass; the engines take turns per run (ours, ms-toollib, JSMinesweeper, ours, ...).

    :param js: the node engine holding ``positions`` (``None``: not measured).
    :param tl: the ``ms_toollib`` module (``None``: not measured).
    """
    cells = [toollib.to_toollib(board) for board in positions] if tl else []

    def ours(i: int) -> float:
        start = time.perf_counter_ns()
        mine_probabilities(positions[i], positions[i].total_mines)
        return _ms(start)

    def theirs(i: int) -> float:
        start = time.perf_counter_ns()
        tl.cal_probability_onboard(cells[i], positions[i].total_mines)
        return _ms(start)

    engines = {"ours": ours}
    if tl:
        engines["ms-toollib"] = theirs
    if js:
        engines["JSMinesweeper"] = lambda i: js.time(i)[0]
        engines[EARLY_EXIT] = lambda i: js.time(i, full=False)[0]
    for i in tqdm(range(len(positions)), desc="warm-up", leave=False):
        for run in engines.values():
            run(i)
    medians: dict[str, list[float]] = {name: [] for name in engines}
    for i in tqdm(range(len(positions)), desc="timing", leave=False):
        runs: dict[str, list[float]] = {name: [] for name in engines}
        for _ in range(repeat):
            for name, run in engines.items():
                runs[name].append(run(i))
        for name, times in runs.items():
            medians[name].append(float(np.median(times)))
    return {name: np.array(times) for name, times in medians.items()}


def disagreements(
    positions: list[Board], sample: int, js: JSMinesweeperEngine | None, tl
) -> dict[str, float]:
    """On ``sample`` positions spread evenly, the largest difference over covered cells
    between engines: ours and ms-toollib against JSMinesweeper's exact integer tallies when
    it runs (else ms-toollib against ours), and JSMinesweeper's own rounded floats."""
    worst: dict[str, float] = {}

    def note(name: str, difference: float) -> None:
        worst[name] = max(worst.get(name, 0.0), difference)

    picks = np.linspace(0, len(positions) - 1, min(sample, len(positions))).round().astype(int)
    for i in picks:
        board = positions[i]
        covered = board.grid == COVERED
        ours = mine_probabilities(board, board.total_mines)[covered]
        exact = None
        if js:
            tallies = js.exact(int(i), board.grid.shape)[covered]
            exact = np.array([float(Fraction(t)) for t in tallies])
            note("ours vs JSMinesweeper (exact tallies)", float(np.max(abs(ours - exact))))
            rounded = js.rounded(int(i), board.grid.shape)[covered]
            note("JSMinesweeper's own floats vs its tallies", float(np.max(abs(rounded - exact))))
        if tl:
            theirs = toollib.mine_probabilities(tl, toollib.to_toollib(board), board.total_mines)
            reference, against = (exact, "JSMinesweeper (exact tallies)") if js else (ours, "ours")
            note(f"ms-toollib vs {against}", float(np.max(abs(theirs[covered] - reference))))
    return worst


def peer_run(
    level: str, count: int, min_games: int, repeat: int, sample: int, jsminesweeper: str | None
) -> tuple[dict[str, np.ndarray], dict[str, float], dict[str, str]]:
    """One level: per-position medians per engine, the disagreements, and the peers missing."""
    positions = recorded_positions(level, count, min_games)
    missing: dict[str, str] = {}
    try:
        tl = toollib.load()
    except PeerMissing as error:
        tl, missing["ms-toollib"] = None, str(error)
    try:
        js = JSMinesweeperEngine(jsminesweeper)
        js.load(positions)
    except PeerMissing as error:
        js, missing["JSMinesweeper"] = None, str(error)
    try:
        times = time_with_peers(positions, repeat, js, tl)
        worst = disagreements(positions, sample, js, tl)
    finally:
        if js:
            js.close()
    return times, worst, missing


def print_peer_run(level: str, times: dict, worst: dict, missing: dict) -> None:
    """One level's peer run as lines of text."""
    count = len(times["ours"])
    print(f"\n{level}: {count} positions, median of runs per position, wall ms")
    print(f"{'engine':<26}{'median':>10}{'p99':>10}{'ours/peer (median)':>20}")
    for name, ms in times.items():
        ratio = np.median(times["ours"]) / np.median(ms)
        print(f"{name:<26}{np.median(ms):>10.4f}{np.percentile(ms, 99):>10.4f}{ratio:>20.2f}")
    for name, why in missing.items():
        print(f"{name:<26}skipped: {why}")
    for pair, difference in worst.items():
        limit = 1e-8 if pair.startswith("JSMinesweeper's own") else AGREEMENT
        verdict = "agree" if difference <= limit else "DISAGREE"
        print(f"largest difference, {pair}: {difference:.2e} ({verdict}, limit {limit:g})")


def complete_games_per_second(level: str, games: int) -> tuple[float, float]:
    """Whole games with the ``complete`` auto-solver and a random prober: games and
    steps per CPU second."""
    width, height, mines = STANDARD_BOARDS[level]
    rng = np.random.default_rng(12345)
    layouts = [MineLayout.random(width, height, mines, rng) for _ in range(games)]
    steps = 0
    start = time.process_time()
    for seed, layout in enumerate(layouts):
        game = Game(layout, rule_set="complete", first_click="safe", seed=seed)
        while game.state == "playing":
            covered = np.argwhere(game.view == COVERED)
            y, x = covered[rng.integers(len(covered))]
            game.probe(int(x), int(y))
            steps += 1
    spent = time.process_time() - start
    return games / spent, steps / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000, help="positions per level, at least")
    parser.add_argument("--min-games", type=int, default=50, help="games per level (at least)")
    parser.add_argument(
        "--engines", nargs="+", default=list(ENGINES), choices=list(ENGINES),
        help="engines to time, interleaved position by position (without --peers)",
    )
    parser.add_argument("--repeat", type=int, help="timed runs per position (default 5)")
    parser.add_argument(
        "--levels",
        nargs="+",
        default=["expert", "intermediate", "beginner"],
        choices=list(STANDARD_BOARDS),
    )
    parser.add_argument(
        "--games", type=int, default=300, help="games per level for the complete rule set"
    )
    parser.add_argument(
        "--scattered",
        type=int,
        default=0,
        metavar="N",
        help="also time N expert positions with cells shown at random (a stress test)",
    )
    parser.add_argument(
        "--peers",
        action="store_true",
        help="time beside ms-toollib and JSMinesweeper instead (median of --repeat, default 5)",
    )
    parser.add_argument("--jsminesweeper", metavar="DIR", help="a JSMinesweeper checkout")
    parser.add_argument(
        "--sample", type=int, default=100, help="positions per level checked for agreement"
    )
    args = parser.parse_args()
    if args.peers:
        for level in args.levels:
            run = peer_run(
                level,
                args.positions,
                args.min_games,
                args.repeat or 5,
                args.sample,
                args.jsminesweeper,
            )
            print_peer_run(level, *run)
        return
    args.repeat = args.repeat or 5
    print("probabilities per call, positions from lowest-probability play, total known")
    print(f"(warm-up, then median of {args.repeat} runs per position; wall / thread CPU, ms)")
    header = (
        f"{'level':<13}{'engine':<7}{'games':>6}{'positions':>10}{'median':>16}{'p99':>16}"
        f"{'worst':>16}   largest component"
    )
    print(header)

    def report(level: str, games: str, positions: list[Board], repeat: int) -> None:
        cells, groups, numbers = largest_component(positions)
        for name, (wall, cpu) in time_positions(positions, repeat, args.engines).items():

            def pair(q: float, wall=wall, cpu=cpu) -> str:
                return f"{np.percentile(wall, q):.3f}/{np.percentile(cpu, q):.3f}"

            print(
                f"{level:<13}{name:<7}{games:>6}{len(positions):>10}{pair(50):>16}{pair(99):>16}"
                f"{pair(100):>16}   {cells} cells, {groups} groups, {numbers} numbers"
            )

    for level in args.levels:
        positions, games = collect(level, args.positions, args.min_games)
        report(level, str(games), positions, args.repeat)
    if args.scattered:
        report("scattered", "-", scattered_positions(args.scattered), 1)
    print()
    print(f"complete rule set: {args.games} whole games, random prober, safe first click")
    for level in args.levels:
        games, steps = complete_games_per_second(level, args.games)
        print(f"{level:<13}{games:>10.0f} games/s {steps:>10.0f} steps/s (CPU time)")


if __name__ == "__main__":
    main()
