"""Paired comparison of two agents on the same games, and the per-game outcomes file.

Every agent plays the same seeded layouts, so two agents' results on a board
are paired game by game. The difference in win rate is then measured far more
tightly than two separate Wilson intervals suggest: games both win or both
lose (most of them) cancel, and only the discordant games carry the
difference. With ``d_i = won_a - won_b`` per game (each -1, 0 or 1), the
difference is the mean of ``d`` and its 95% interval the normal one on that
mean, ``mean +- z * s / sqrt(n)`` with ``s`` the sample standard deviation of
``d``: the usual interval for paired proportions (McNemar's setting).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minesweep_env.fileio import atomic_write

from .difficulty_table import DIFFICULTY_KEYS, difficulty_cells
from .stats import Z_95, GameRecord

PAIRED_KEYS = (
    "baseline",
    "paired_games",
    "win_diff",
    "diff_ci_low",
    "diff_ci_high",
    "only_agent_won",
    "only_baseline_won",
)
"""Columns a run with ``--baseline`` adds to results.csv and results.json."""

GAME_KEYS = (
    "agent",
    "board",
    "game",
    "won",
    "guesses",
    "safe_opened",
    "seconds",
    "invalid",
    *DIFFICULTY_KEYS,
)
"""Columns of games.csv, one row per game played; ``game`` is the game's number in the
run, the same key as in games.jsonl (``replay --game K``). The difficulty columns come
last (3BV, ZiNi, openings, islands of the layout after the first click; empty when not
measured), so readers of the earlier columns are unaffected."""


def game_number(row: Mapping[str, str]) -> int:
    """The game number of a games.csv row; files written before the column was named
    ``game`` call it ``index``."""
    return int(row["game"] if "game" in row else row["index"])


@dataclass(frozen=True)
class PairedDifference:
    """Agent minus baseline, in win rate, over the games both played."""

    games: int
    difference: float
    low: float
    high: float
    only_agent: int
    """Games the agent won and the baseline lost."""
    only_baseline: int
    """Games the baseline won and the agent lost."""


def paired_difference(
    agent: list[GameRecord], baseline: list[GameRecord], z: float = Z_95
) -> PairedDifference:
    """The paired difference in win rate (agent minus baseline) with its interval.

    Games are matched by index; games only one of them played are left out.
    With fewer than two common games the interval is the widest, [-1, 1].
    """
    theirs = {r.index: r.won for r in baseline}
    pairs = [(r.won, theirs[r.index]) for r in agent if r.index in theirs]
    n = len(pairs)
    only_agent = sum(1 for a, b in pairs if a and not b)
    only_baseline = sum(1 for a, b in pairs if b and not a)
    if n == 0:
        return PairedDifference(0, 0.0, -1.0, 1.0, 0, 0)
    mean = (only_agent - only_baseline) / n
    if n < 2:
        return PairedDifference(n, mean, -1.0, 1.0, only_agent, only_baseline)
    # Sum of squared deviations of d from its mean: d is +1 or -1 on the discordant games.
    squares = (only_agent + only_baseline) - n * mean * mean
    half = z * math.sqrt(max(squares, 0.0) / (n - 1) / n)
    return PairedDifference(
        n, mean, max(-1.0, mean - half), min(1.0, mean + half), only_agent, only_baseline
    )


def add_paired_columns(
    rows: list[dict[str, Any]],
    records: dict[tuple[str, str], list[GameRecord]],
    baseline: str,
) -> None:
    """Give every row its paired difference against ``baseline`` on the same board
    (the baseline's own rows get zero difference; boards it did not play, none)."""
    for row in rows:
        theirs = records.get((baseline, row["board"]))
        row["baseline"] = baseline
        if theirs is None:
            row.update(dict.fromkeys(PAIRED_KEYS[1:]))
            continue
        paired = paired_difference(records[(row["agent"], row["board"])], theirs)
        row.update(
            paired_games=paired.games,
            win_diff=paired.difference,
            diff_ci_low=paired.low,
            diff_ci_high=paired.high,
            only_agent_won=paired.only_agent,
            only_baseline_won=paired.only_baseline,
        )


def write_games(records: dict[tuple[str, str], list[GameRecord]], path: Path) -> None:
    """Every game's outcome, one row each, so anyone can redo the paired test."""
    with atomic_write(path, newline="") as handle:  # whole or not at all
        writer = csv.writer(handle)
        writer.writerow(GAME_KEYS)
        for (agent, board), played in records.items():
            for r in played:
                writer.writerow(
                    [
                        agent,
                        board,
                        r.index,
                        int(r.won),
                        r.guesses,
                        f"{r.safe_opened:.6f}",
                        f"{r.seconds:.6f}",
                        int(r.invalid),
                        *difficulty_cells(r.difficulty),
                    ]
                )
