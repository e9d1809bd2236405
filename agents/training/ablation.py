"""Paired differences between models evaluated in separate runs on the same games.

``semiautomines evaluate --agents ppo`` takes one ``--model``, so each
snapshot of a training run (``evaluated/bc_*.pt``, ``dagger*``, ``final.pt``)
is its own evaluate run. Runs with the same ``--seed``, board and first-click
policy play the same layouts, so their ``games.csv`` files pair game by game;
this joins them and prints each one's paired difference in win rate against
a baseline, with the 95% interval of :mod:`..evaluation.paired`::

    python -m semiautomines_agents.training.ablation --baseline RUN:greedy \\
        bc=RUN_BC:ppo dagger=RUN_DAGGER:ppo final=RUN:ppo

Each argument is ``[LABEL=]RUN_FOLDER:AGENT``; the board is the one row of
``games.csv`` for that agent (``--board`` picks one when a run has several).
Several run folders joined by commas (``RUN_SEED0,RUN_SEED1:AGENT``) pool their
games: the k-th folder of a model pairs with the k-th folder of the baseline
(list the seeds in the same order), so games of different seeds never pair.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import sys
from pathlib import Path

from ..evaluation.paired import game_number, paired_difference
from ..evaluation.stats import GameRecord

POOLED_STRIDE = 1 << 32
"""Game index offset of the k-th of several pooled runs (k * stride): above any game count."""


def read_games(spec: str, board: str) -> tuple[str, list[GameRecord]]:
    """``[LABEL=]RUN[,RUN...]:AGENT`` -> its label and its games on ``board`` ('' = the
    only one); the games of the k-th run get index ``k * POOLED_STRIDE + index``."""
    label, _, target = spec.rpartition("=")
    runs, _, agent = target.rpartition(":")
    if not runs or not agent:
        raise ValueError(f"{spec!r}: expected [LABEL=]RUN_FOLDER:AGENT")
    games = []
    for k, run in enumerate(runs.split(",")):
        games += [
            dataclasses.replace(g, index=k * POOLED_STRIDE + g.index)
            for g in _run_games(Path(run), agent, board)
        ]
    return label or f"{Path(runs.split(',')[0]).name}:{agent}", games


def _run_games(run: Path, agent: str, board: str) -> list[GameRecord]:
    """One run folder's games of ``agent`` on ``board`` ('' = the only one)."""
    path = run / "games.csv"
    with path.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["agent"] == agent]
    boards = sorted({row["board"] for row in rows})
    chosen = board or (boards[0] if len(boards) == 1 else "")
    if chosen not in boards:
        raise ValueError(f"{path}: agent {agent!r} has boards {boards}; pick one with --board")
    return [
        GameRecord(
            game_number(row),
            row["won"] == "1",
            int(row["guesses"]),
            float(row["safe_opened"]),
            float(row["seconds"]),
        )
        for row in rows
        if row["board"] == chosen
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ablation", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--baseline", required=True, help="[LABEL=]RUN_FOLDER:AGENT")
    parser.add_argument("--board", default="", help="the board row, when a run has several")
    parser.add_argument("models", nargs="+", help="[LABEL=]RUN_FOLDER:AGENT, one per model")
    args = parser.parse_args(argv)
    try:
        base_label, base = read_games(args.baseline, args.board)
        compared = [read_games(spec, args.board) for spec in args.models]
    except (OSError, ValueError, KeyError) as error:
        print(f"ablation: error: {error}", file=sys.stderr)
        return 2
    print(f"| model | games | win rate | {base_label}, same games | paired difference (95%) |")
    print("|---|---:|---:|---:|---:|")
    theirs = {g.index: g.won for g in base}
    for label, games in compared:
        rate = sum(g.won for g in games) / max(1, len(games))
        same = [theirs[g.index] for g in games if g.index in theirs]
        d = paired_difference(games, base)
        print(
            f"| {label} | {len(games)} | {rate:.2%} | {sum(same) / max(1, len(same)):.2%} | "
            f"{d.difference * 100:+.2f} ({d.low * 100:+.2f} to {d.high * 100:+.2f}) points |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
