"""The strength ladder of the rule sets: how much of the game each one plays alone.

For every registered rule set and each standard board (beginner, intermediate,
expert), the same ``--games`` seeded layouts are played. The first probe is in
the centre cell under the ``safe`` first-click policy, with the same random
draws for every rule set, so every rule set starts from the same position.
After every probe the rule set's auto-solver runs to its fixed point; when it
is stuck, the player guesses the covered cell with the lowest exact mine
probability (:func:`minesweep_env.mine_probabilities`, total mine count known;
ties go to the first cell of a seeded per-game order, so the same position gets
the same guess under every rule set), until the game is won or lost. A game is won by
the win rule of the program the rule set reproduces
(:func:`minesweep_env.game.program_win_rule`): the IOCCC rule sets need every
cell probed or flagged, so ``endoh-alt`` must guess (into a mine) when a mine
that no number touches is all that is left.

Printed per rule set and board:

- **no-guess wins**: share of games won with no guess after the first click;
- **guesses/game**: mean guesses per game (each a probe the rule set did not
  make), and how many of those had a mine probability above 0 (**risky**: the
  others were cells a stronger rule set would have opened);
- **win rate** when guessing that way;
- on expert, the cost of one auto-solve after a probe (the first click or a
  guess): median and 99th percentile, wall clock.

Writes the table (markdown) and a plot into ``--out`` (default
``benchmarks/results``), refusing to overwrite without ``--force``.

Run: ``.venv/bin/python benchmarks/ladder.py`` (full: 1,000 games per board);
``--games 20`` for a quick look.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from minesweep_env import STANDARD_BOARDS, Minefield, MineLayout, get_rule_set, mine_probabilities
from minesweep_env.core.cells import COVERED
from minesweep_env.core.minefield import GameState
from minesweep_env.fileio import atomic_write, write_text
from minesweep_env.game import program_win_rule
from minesweep_env.solver import RULE_SETS
from minesweep_env.solver.autosolve import autosolve

EXPECTED_ORDER = ("endoh-alt", "endoh", "mysweeper", "groups", "substitution", "complete")
"""Weakest first, the expected order; other registered rule sets follow by name."""
BOARDS = ("beginner", "intermediate", "expert")
TIMED_BOARD = "expert"


@dataclass
class GameResult:
    won: bool
    guesses: int
    risky_guesses: int
    solve_seconds: list[float] = field(default_factory=list)


def play(board_name: str, rule_set_name: str, game: int, seed: int) -> GameResult:
    """One game: safe first click in the centre, then auto-solve and lowest-probability guesses."""
    width, height, mines = STANDARD_BOARDS[board_name]
    board_index = BOARDS.index(board_name)
    layout_rng = np.random.default_rng([seed, board_index, game])
    layout = MineLayout.random(width, height, mines, layout_rng)
    # The first-click policy draws from this generator: the same draws for every rule set.
    click_rng = np.random.default_rng([seed, board_index, game, 1])
    # Ties between equally safe cells go to the cell drawn first in a fixed per-game
    # order, so two rule sets that reach the same position make the same guess.
    tie_order = np.random.default_rng([seed, board_index, game, 2]).permutation(width * height)
    rule_set = get_rule_set(rule_set_name)
    win_rule = program_win_rule(rule_set_name)
    minefield = Minefield(layout, first_click="safe", rng=click_rng, win_rule=win_rule)
    result = GameResult(won=False, guesses=0, risky_guesses=0)
    x, y = width // 2, height // 2
    while True:
        minefield.probe(x, y)
        if minefield.state is GameState.PLAYING:
            start = time.perf_counter()
            autosolve(minefield, rule_set)
            result.solve_seconds.append(time.perf_counter() - start)
        if minefield.state is not GameState.PLAYING:
            break
        probabilities = mine_probabilities(minefield.board()).reshape(-1)
        covered = np.flatnonzero(minefield.view.reshape(-1) == COVERED)
        lowest = probabilities[covered].min()
        candidates = covered[probabilities[covered] == lowest]
        choice = int(candidates[np.argmin(tie_order[candidates])])
        result.guesses += 1
        result.risky_guesses += bool(lowest > 0)
        x, y = choice % width, choice // width
    result.won = minefield.state is GameState.WON
    return result


@dataclass
class Row:
    board: str
    rule_set: str
    games: int
    no_guess_wins: float
    guesses: float
    risky_guesses: float
    win_rate: float
    solve_median_ms: float | None
    solve_p99_ms: float | None


def _play_batch(task: tuple[str, str, int, int, int]) -> list[GameResult]:
    board, rule_set, first, count, seed = task
    return [play(board, rule_set, game, seed) for game in range(first, first + count)]


def run_ladder(
    rule_sets: list[str], games: int, seed: int, jobs: int, batch: int = 25
) -> list[Row]:
    """Play every (board, rule set) pair on the same ``games`` layouts."""
    tasks = [
        (board, name, first, min(batch, games - first), seed)
        for board in BOARDS
        for name in rule_sets
        for first in range(0, games, batch)
    ]
    results: dict[tuple[str, str], list[GameResult]] = {}
    with tqdm(total=sum(task[3] for task in tasks), unit="game", desc="ladder") as bar:
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                for task, batch_results in zip(tasks, pool.map(_play_batch, tasks), strict=True):
                    results.setdefault(task[:2], []).extend(batch_results)
                    bar.update(len(batch_results))
        else:
            for task in tasks:
                batch_results = _play_batch(task)
                results.setdefault(task[:2], []).extend(batch_results)
                bar.update(len(batch_results))
    rows = []
    for board in BOARDS:
        for name in rule_sets:
            played = results[(board, name)]
            times = [t for r in played for t in r.solve_seconds]
            timed = board == TIMED_BOARD and times
            rows.append(
                Row(
                    board=board,
                    rule_set=name,
                    games=len(played),
                    no_guess_wins=float(np.mean([r.won and r.guesses == 0 for r in played])),
                    guesses=float(np.mean([r.guesses for r in played])),
                    risky_guesses=float(np.mean([r.risky_guesses for r in played])),
                    win_rate=float(np.mean([r.won for r in played])),
                    solve_median_ms=float(np.median(times) * 1e3) if timed else None,
                    solve_p99_ms=float(np.percentile(times, 99) * 1e3) if timed else None,
                )
            )
    return rows


def markdown_table(rows: list[Row]) -> str:
    lines = [
        "| board | rule set | no-guess wins | guesses/game | risky guesses/game | win rate "
        "| auto-solve median (ms) | auto-solve p99 (ms) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        timing = (
            (f"{row.solve_median_ms:.2f}", f"{row.solve_p99_ms:.1f}")
            if row.solve_median_ms is not None
            else ("", "")
        )
        lines.append(
            f"| {row.board} | {row.rule_set} | {row.no_guess_wins:.1%} | {row.guesses:.2f} "
            f"| {row.risky_guesses:.2f} | {row.win_rate:.1%} | {timing[0]} | {timing[1]} |"
        )
    return "\n".join(lines) + "\n"


def plot(rows: list[Row], path: Path, games: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(row.rule_set for row in rows))
    by = {(row.board, row.rule_set): row for row in rows}
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    offsets = (np.arange(len(names)) - (len(names) - 1) / 2) * 0.8 / len(names)
    for k, name in enumerate(names):
        xs = np.arange(len(BOARDS)) + offsets[k]
        axes[0].bar(
            xs, [100 * by[(b, name)].no_guess_wins for b in BOARDS], 0.8 / len(names), label=name
        )
        axes[1].bar(xs, [by[(b, name)].guesses for b in BOARDS], 0.8 / len(names), label=name)
    titles = ("games won without a guess (%)", "guesses per game (lowest probability)")
    for ax, title in zip(axes[:2], titles, strict=True):
        ax.set_xticks(range(len(BOARDS)), BOARDS)
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8)
    timed = [by[(TIMED_BOARD, name)] for name in names]
    xs = np.arange(len(names))
    axes[2].bar(xs - 0.2, [r.solve_median_ms for r in timed], 0.4, label="median")
    axes[2].bar(xs + 0.2, [r.solve_p99_ms for r in timed], 0.4, label="p99")
    axes[2].set_yscale("log")
    axes[2].set_xticks(xs, names, rotation=30, ha="right")
    axes[2].set_title("one auto-solve after a probe, expert (ms)")
    axes[2].legend(fontsize=8)
    axes[2].grid(axis="y", alpha=0.3)
    fig.suptitle(f"Rule-set strength ladder ({games} seeded games per board, safe first click)")
    fig.tight_layout()
    with atomic_write(path, "wb") as handle:  # a killed run leaves the old plot
        fig.savefig(handle, format="png", dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="example: .venv/bin/python benchmarks/ladder.py --games 20 --out /tmp/ladder",
    )
    parser.add_argument("--games", type=int, default=1000, help="layouts per board (default 1000)")
    parser.add_argument("--seed", type=int, default=2020, help="seed of the layouts (default 2020)")
    parser.add_argument(
        "--rule-sets", nargs="+", metavar="NAME", help="rule sets to play (default: all registered)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--out", type=Path, default=Path("benchmarks/results"), help="directory for ladder.md/png"
    )
    parser.add_argument("--force", action="store_true", help="overwrite existing results")
    args = parser.parse_args(argv)
    known = [name for name in EXPECTED_ORDER if name in RULE_SETS]
    known += sorted(set(RULE_SETS) - set(known))
    names = args.rule_sets or known
    unknown = [name for name in names if name not in RULE_SETS]
    if unknown or args.games < 1 or args.jobs < 1:
        problem = (
            f"unknown rule set {unknown[0]!r}" if unknown else "--games and --jobs must be >= 1"
        )
        print(f"ladder.py: error: {problem}", file=sys.stderr)
        return 2
    table_path, plot_path = args.out / "ladder.md", args.out / "ladder.png"
    existing = [p for p in (table_path, plot_path) if p.exists()]
    if existing and not args.force:
        print(f"ladder.py: error: {existing[0]} exists; use --force to overwrite", file=sys.stderr)
        return 2
    started = time.perf_counter()
    rows = run_ladder(names, args.games, args.seed, args.jobs)
    table = markdown_table(rows)
    print(table)
    command = "benchmarks/ladder.py " + " ".join(sys.argv[1:] if argv is None else argv)
    args.out.mkdir(parents=True, exist_ok=True)
    write_text(
        table_path,
        f"# Strength ladder of the rule sets\n\n```sh\npython {command.strip()}\n```\n\n"
        f"{time.perf_counter() - started:.0f} s, {args.jobs} job(s).\n\n{table}"
    )
    plot(rows, plot_path, args.games)
    print(f"wrote {table_path} and {plot_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
