"""Summaries of a batch of games: win rate with its Wilson interval and means."""

from __future__ import annotations

import math

from .records import GameRecord

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at
    0 and ``games`` wins, which matters for near-certain boards and small runs.
    ``(0.0, 1.0)`` when no game was played.
    """
    if games <= 0:
        return 0.0, 1.0
    if not 0 <= wins <= games:
        raise ValueError(f"wins must be in 0..{games}, got {wins}")
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    # Clamp rounding at the ends: 0 wins gives exactly 0, all wins exactly 1.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


def summarise(records: list[GameRecord]) -> dict[str, float | int]:
    """Win count and rate with the interval, mean guesses, mean share opened,
    games per second (of one process: games over their total play time)."""
    games = len(records)
    wins = sum(r.won for r in records)
    low, high = wilson_interval(wins, games)
    seconds = sum(r.seconds for r in records)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci_low": low,
        "ci_high": high,
        "mean_guesses": sum(r.guesses for r in records) / games if games else 0.0,
        "mean_safe_opened": sum(r.safe_opened for r in records) / games if games else 0.0,
        "games_per_s": games / seconds if seconds > 0 else 0.0,
        "invalid_actions": sum(r.invalid for r in records),
        "mean_bbbv": mean_bbbv(records),
    }


def mean_bbbv(records: list[GameRecord]) -> float | None:
    """Mean 3BV of the games' layouts (after the first click); ``None`` when no game
    carries its difficulty."""
    values = [r.difficulty.bbbv for r in records if r.difficulty is not None]
    return sum(values) / len(values) if values else None
