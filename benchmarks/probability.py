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

Run: ``.venv/bin/python benchmarks/probability.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
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
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per position")
    parser.add_argument(
        "--engines", nargs="+", default=list(ENGINES), choices=list(ENGINES),
        help="engines to time, interleaved position by position",
    )
    parser.add_argument(
        "--levels", nargs="+", default=["expert", "intermediate", "beginner"],
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
    args = parser.parse_args()
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
