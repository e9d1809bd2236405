"""Rank first clicks for ``search`` on paired games: the opening table's source.

For each candidate first cell (by default one of each orbit of the board's
symmetries, :func:`semiautomines_agents.search.opening.symmetric_cells`), the
default ``search`` opens there (``search:first_x=X:first_y=Y``) and plays games
``--first-game`` .. ``--first-game + --games - 1`` of seed ``--seed`` (rule set
``complete``). Every cell meets the same seeded layouts, only the mines of the
first click's protected zone moved elsewhere (common random numbers), so the
differences between cells are paired by game index. Prints the cells ranked by
win rate, each with the paired difference against ``--reference`` (default: the
cell ``search`` opens at by default) and a 95% interval
(:mod:`semiautomines_agents.evaluation.paired`), the games won only by either,
and the CPU milliseconds per game of this process.

Use a seed range of its own for the screen and for the confirmation, and keep
the final check (``semiautomines evaluate --seed 0``) for the cell chosen on them.

Run: ``PYTHONPATH=. python benchmarks/openings.py --board beginner --first-click zero
--games 2000 --seed 1 --out screen.csv``; ``--cells 3,3 2,2`` plays only those;
``--played A.csv B.csv`` ranks stored games (slices of one screen) without playing.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from semiautomines_agents.evaluation import Settings, board_target, write_games
from semiautomines_agents.evaluation.paired import game_number, paired_difference
from semiautomines_agents.evaluation.play import Chunk, play_chunk
from semiautomines_agents.evaluation.stats import GameRecord
from semiautomines_agents.search.opening import opening_cell, symmetric_cells


def agent_name(cell: tuple[int, int]) -> str:
    """The ``search`` variant that opens at ``cell``."""
    return f"search:first_x={cell[0]}:first_y={cell[1]}"


def parse_cell(text: str) -> tuple[int, int]:
    """``"X,Y"`` as a cell."""
    x, _, y = text.partition(",")
    return int(x), int(y)


def stored(paths: list[Path], board: str) -> dict[tuple[int, int], list[GameRecord]]:
    """The games of every first cell in games CSVs written by ``--out`` (a game stored
    twice, as a reference cell replayed in two slices, counted once)."""
    games: dict[tuple[int, int], dict[int, GameRecord]] = {}
    for path in paths:
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                if row["board"] != board or not row["agent"].startswith("search:first_x="):
                    continue
                settings = dict(item.split("=") for item in row["agent"].split(":")[1:])
                cell = int(settings["first_x"]), int(settings["first_y"])
                record = GameRecord(game_number(row), row["won"] == "1", int(row["guesses"]), 0, 0)
                games.setdefault(cell, {})[record.index] = record
    return {cell: list(played.values()) for cell, played in games.items()}


def ranked_table(
    games: dict[str, list[GameRecord]], reference: str, ms: dict[str, float]
) -> list[str]:
    """A markdown table of the cells (by name) ranked by win rate, each paired against
    ``reference``'s games, with the CPU milliseconds per game where played here."""
    lines = [
        "| rank | cell | games | win rate | vs reference | 95% CI (paired) "
        "| only cell won | only reference won | ms CPU/game |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    ranked = sorted(games, key=lambda n: (-sum(r.won for r in games[n]) / len(games[n]), n))
    for rank, name in enumerate(ranked, 1):
        played = games[name]
        paired = paired_difference(played, games[reference])
        wins = 100 * sum(r.won for r in played) / len(played)
        low, high, mean = 100 * paired.low, 100 * paired.high, 100 * paired.difference
        mark = " (reference)" if name == reference else ""
        cpu = f"{ms[name]:.1f}" if name in ms else "-"
        lines.append(
            f"| {rank} | {name}{mark} | {len(played)} | {wins:.2f}% | {mean:+.2f} "
            f"| {low:+.2f} to {high:+.2f} | {paired.only_agent} | {paired.only_baseline} | {cpu} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="beginner")
    parser.add_argument("--first-click", default="zero")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--cells", nargs="+", type=parse_cell, help="X,Y ... (default: all)")
    parser.add_argument("--reference", type=parse_cell, help="X,Y (default: search's opening)")
    parser.add_argument("--out", type=Path, help="write every cell's games CSV (after each cell)")
    parser.add_argument("--played", type=Path, nargs="+", help="rank these CSVs' games instead")
    args = parser.parse_args()
    target = board_target(args.board)
    reference = args.reference or opening_cell(
        target.width, target.height, target.mines, args.first_click
    )
    if args.played:
        games = stored(args.played, target.name)
        ms: dict[tuple[int, int], float] = {}
    else:
        cells = list(args.cells or symmetric_cells(target.width, target.height))
        if reference not in cells:
            cells.append(reference)
        settings = Settings("complete", args.first_click, args.seed)
        indices = tuple(range(args.first_game, args.first_game + args.games))
        games, ms = {}, {}
        for cell in cells:
            start = time.process_time()
            games[cell] = play_chunk(Chunk(agent_name(cell), target, indices, settings))
            ms[cell] = 1000 * (time.process_time() - start) / len(indices)
            wins = sum(r.won for r in games[cell])
            print(
                f"played {cell}: {wins} wins of {len(indices)}, {ms[cell]:.1f} ms/game", flush=True
            )
            if args.out:
                records = {(agent_name(c), target.name): g for c, g in games.items()}
                write_games(records, args.out)
    if reference not in games:
        parser.error(f"no games of the reference cell {reference}")
    print(
        f"\n{args.board}, first click {args.first_click}: cells ranked by win rate, "
        f"paired against {reference}\n"
    )
    names = {cell: f"({cell[0]}, {cell[1]})" for cell in games}
    by_name = {names[cell]: played for cell, played in games.items()}
    ms_by_name = {names[cell]: value for cell, value in ms.items()}
    print("\n".join(ranked_table(by_name, names[reference], ms_by_name)))


if __name__ == "__main__":
    main()
