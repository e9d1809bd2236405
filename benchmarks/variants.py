"""Screen agent variants against stored per-game outcomes of the same games.

A variant of ``search`` plays games ``--first-game`` .. ``--first-game + --games - 1``
of the harness's seeded games (rule set ``complete``); each game's outcome is
paired by index with a ``games.csv`` or ``games_POLICY.csv`` written earlier
(``semiautomines evaluate``, ``benchmarks/strength.py --games-csv``), so the
baseline is not played again and any slice of its games can be screened: the
agents are deterministic, so a stored game is the game the baseline would play
now (as long as its code did not change). Prints, per variant, its win rate,
the paired difference against the stored agent with a 95% interval
(:mod:`semiautomines_agents.evaluation.paired`), the games won only by either,
and the CPU milliseconds per game of this process (env and agent).

Run: ``PYTHONPATH=. python benchmarks/variants.py --agents search:deep_width=8 --games 2000
--against DIR/games_safe.csv --baseline-agent search:depth=2``. A long screen can
run in slices, each with ``--out``; ``--played SLICE.csv ...`` then pairs the slices'
games, all together, without playing them again.
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


def stored(path: Path, agent: str, board: str) -> list[GameRecord]:
    """The outcomes ``agent`` had on ``board`` in a games CSV."""
    with path.open(newline="") as handle:
        return [
            GameRecord(game_number(row), row["won"] == "1", int(row["guesses"]), 0.0, 0.0)
            for row in csv.DictReader(handle)
            if row["agent"] == agent and row["board"] == board
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", required=True, help="comma-separated agent names")
    parser.add_argument("--against", required=True, type=Path, help="the stored games CSV")
    parser.add_argument("--baseline-agent", default="search", help="its agent column")
    parser.add_argument("--board", default="expert")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=None, help="write the variants' games CSV")
    parser.add_argument(
        "--played", type=Path, nargs="+", help="pair these games CSVs' games instead of playing"
    )
    args = parser.parse_args()
    baseline = stored(args.against, args.baseline_agent, args.board)
    if not baseline:
        parser.error(f"no games of {args.baseline_agent!r} on {args.board} in {args.against}")
    target = board_target(args.board)
    settings = Settings("complete", args.first_click, args.seed)
    indices = tuple(range(args.first_game, args.first_game + args.games))
    records: dict[tuple[str, str], list[GameRecord]] = {}
    print(
        f"| agent | games | win rate | vs {args.baseline_agent} (stored) | 95% CI (paired) "
        "| only agent won | only stored won | ms CPU/game |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for agent in args.agents.split(","):
        if args.played:
            played = [r for path in args.played for r in stored(path, agent, args.board)]
            ms = "-"  # not played here
        else:
            start = time.process_time()
            played = play_chunk(Chunk(agent, target, indices, settings))
            ms = f"{1000 * (time.process_time() - start) / len(played):.1f}"
        records[(agent, target.name)] = played
        paired = paired_difference(played, baseline)
        wins = sum(r.won for r in played) / len(played)
        print(
            f"| {agent} | {paired.games} | {100 * wins:.2f}% | {100 * paired.difference:+.2f} "
            f"| {100 * paired.low:+.2f} to {100 * paired.high:+.2f} | {paired.only_agent} "
            f"| {paired.only_baseline} | {ms} |",
            flush=True,
        )
    if args.out:
        write_games(records, args.out)


if __name__ == "__main__":
    main()
