"""Strength of the search agent against greedy and the published solvers (the strength targets).

Plays ``--games`` paired games (the same seeded layouts for every agent) per
board and first-click policy with the evaluation harness, rule set
``complete``: ``greedy`` beside ``search`` at each look-ahead depth of
``--depths``. Prints per policy each agent's win rate with its 95% Wilson
interval, its paired difference against greedy with the paired 95% interval
(:mod:`semiautomines_agents.evaluation.paired`) and its mean milliseconds per
game (play time of one process: env steps and decisions), then the table of
published results and the targets beside ours.

Run (the targets' scale is ``--games 20000``: with ``--depths 2`` one expert policy took
about 45 minutes in one process on a shared 2-core machine; depth 3 is 5x slower):
``PYTHONPATH=. .venv/bin/python benchmarks/strength.py --games 2000 --workers 2``.
``--games-csv DIR`` also writes every game's outcome there, one file per policy.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from semiautomines_agents.evaluation import (
    Settings,
    add_paired_columns,
    board_target,
    evaluate,
    write_games,
)

BASELINE = "greedy"

PUBLISHED = {
    ("safe", "expert"): "JSMinesweeper ~41% (Java, 10M games: 41.13%); minesolve depth "
    "1/2/3/4: 39.00/40.27/40.68/40.80%; PSEQ-D256: 40.05%; plain greedy: 38.3%",
    ("zero", "expert"): "JSMinesweeper at (3, 3): 54.3%; PSEQ-D256: 53.45%; "
    "plain greedy: 51.2%",
    ("safe", "intermediate"): "PSEQ-D256: 78.23%; plain greedy: 77.3%",
    ("zero", "intermediate"): "PSEQ-D256: 89.08%; plain greedy: 88.8%",
    ("safe", "beginner"): "PSEQ: 91.7%; plain greedy: 92.2%",
    ("zero", "beginner"): "PSEQ: 97.2%; plain greedy: 97.3%",
}
"""Published win rates (theirs, not ours), per policy and board."""

TARGETS = {
    ("safe", "expert"): 0.415,
    ("zero", "expert"): 0.55,
    ("safe", "intermediate"): 0.79,
    ("zero", "intermediate"): 0.90,
    ("safe", "beginner"): 0.93,
    ("zero", "beginner"): 0.975,
}
"""The targets for ``search`` (20,000 paired games, seed 0)."""


def agent_names(depths: list[int]) -> list[str]:
    """greedy, then search at each depth (the default depth under its plain name)."""
    return [BASELINE, *(f"search:depth={d}" for d in depths)]


def table(rows: list[dict], policy: str) -> str:
    """Our rows beside the target and the published figures."""
    lines = [
        "| board | agent | games | win rate | 95% CI | vs greedy (paired) | 95% CI (paired) "
        "| ms/game | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        target = TARGETS.get((policy, row["board"]))
        verdict = ""
        if target is not None and row["agent"] != BASELINE:
            verdict = f"{100 * target:.1f}% " + ("met" if row["win_rate"] >= target else "missed")
        ms = 1000 / row["games_per_s"] if row["games_per_s"] else float("nan")
        lines.append(
            f"| {row['board']} | {row['agent']} | {row['games']} | {100 * row['win_rate']:.2f}% "
            f"| {100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}% "
            f"| {100 * row['win_diff']:+.2f} "
            f"| {100 * row['diff_ci_low']:+.2f} to {100 * row['diff_ci_high']:+.2f} "
            f"| {ms:.0f} | {verdict} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="games per agent and board")
    parser.add_argument("--depths", default="1,2,3", help="comma-separated search depths")
    parser.add_argument("--boards", default="beginner,intermediate,expert")
    parser.add_argument("--first-clicks", default="safe,zero", help="comma-separated policies")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games-csv", default=None, metavar="DIR", help="write games_POLICY.csv")
    args = parser.parse_args()
    agents = agent_names([int(d) for d in args.depths.split(",")])
    targets = [board_target(name) for name in args.boards.split(",")]
    for policy in args.first_clicks.split(","):
        settings = Settings("complete", policy, args.seed)
        start = time.perf_counter()
        run = evaluate(agents, targets, settings, args.games, workers=args.workers)
        wall = time.perf_counter() - start
        add_paired_columns(run.rows, run.records, BASELINE)
        print(f"\n## rule set complete, first click {policy}, seed {args.seed}")
        print(f"{run.played_games} games in {wall:.0f} s wall, {args.workers} workers")
        print(table(run.rows, policy))
        for board in args.boards.split(","):
            print(f"published, {board}: {PUBLISHED.get((policy, board), 'none')}")
        if args.games_csv:
            folder = Path(args.games_csv)
            folder.mkdir(parents=True, exist_ok=True)
            write_games(run.records, folder / f"games_{policy}.csv")
        if run.interrupted:
            print("interrupted: the figures above are partial")
            break


if __name__ == "__main__":
    main()
