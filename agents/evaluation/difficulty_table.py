"""Win rate by board difficulty: every run folder's table and plot by 3BV.

A win rate alone hides whether an agent loses the hard layouts or the easy ones.
Every agent of a run plays the same seeded layouts, so cutting each board's games
into 3BV bins (the same bins for every agent on that board) compares agents on
the easy and the hard layouts of the same games. Bins are deciles of the board's
3BV when every agent played at least 1,000 games there; with fewer, as many
quantile bins as keep at least 100 games each (one bin below 200 games, which
the table says). 3BV is that of the layout after the first-click policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from minesweep_env.core.difficulty import Difficulty
from minesweep_env.fileio import atomic_write

from .records import GameRecord
from .stats import wilson_interval

DIFFICULTY_KEYS = ("bbbv", "zini", "openings", "islands")
"""The difficulty columns of games.csv, in order."""
MOST_BINS = 10
"""Deciles at most."""
MIN_BIN_GAMES = 100
"""Fewest games per agent a bin is cut for (fewer: fewer, wider bins)."""


def difficulty_cells(difficulty: Difficulty | None) -> list[int | str]:
    """The games.csv cells of :data:`DIFFICULTY_KEYS` (empty when not measured)."""
    if difficulty is None:
        return [""] * len(DIFFICULTY_KEYS)
    values = (difficulty.bbbv, difficulty.zini, difficulty.openings, difficulty.islands)
    return ["" if v is None else v for v in values]


def bbbv_bins(values: list[int], games_per_agent: int) -> list[tuple[int, int]]:
    """Inclusive 3BV ranges covering ``values``: quantile bins, at most
    :data:`MOST_BINS`, each about ``games_per_agent / bins >= MIN_BIN_GAMES`` games."""
    low, high = min(values), max(values)
    count = min(MOST_BINS, games_per_agent // MIN_BIN_GAMES)
    if count <= 1 or low == high:
        return [(low, high)]
    quantiles = np.quantile(values, np.linspace(0, 1, count + 1)[1:-1], method="higher")
    cuts = sorted({int(q) for q in quantiles if low < q <= high})
    starts = [low, *cuts]
    ends = [c - 1 for c in cuts] + [high]
    return list(zip(starts, ends, strict=True))


@dataclass(frozen=True)
class BinRate:
    """One agent's games in one 3BV bin of one board."""

    agent: str
    board: str
    low: int
    high: int
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def rates_by_bbbv(
    records: dict[tuple[str, str], list[GameRecord]],
) -> dict[str, tuple[list[tuple[int, int]], list[BinRate]]]:
    """Per board: its 3BV bins and each agent's wins in each (boards without
    measured games are left out)."""
    boards: dict[str, dict[str, list[GameRecord]]] = {}
    for (agent, board), played in records.items():
        measured = [r for r in played if r.difficulty is not None]
        if measured:
            boards.setdefault(board, {})[agent] = measured
    result = {}
    for board, by_agent in boards.items():
        values = [r.difficulty.bbbv for games in by_agent.values() for r in games if r.difficulty]
        fewest = min(len(games) for games in by_agent.values())
        bins = bbbv_bins(values, fewest)
        rates = []
        for agent, games in by_agent.items():
            for low, high in bins:
                inside = [r for r in games if r.difficulty and low <= r.difficulty.bbbv <= high]
                wins = sum(r.won for r in inside)
                rates.append(BinRate(agent, board, low, high, len(inside), wins))
        result[board] = (bins, rates)
    return result


def bbbv_table(records: dict[tuple[str, str], list[GameRecord]]) -> str:
    """The markdown section: per board, one row per 3BV bin, one column per agent
    (win rate and games)."""
    by_board = rates_by_bbbv(records)
    if not by_board:
        return ""
    lines = [
        "Win rate by 3BV (3BV of the layout after the first-click policy; the same bins "
        "for every agent on a board: deciles, or fewer bins of at least "
        f"{MIN_BIN_GAMES} games each):",
    ]
    for board, (bins, rates) in by_board.items():
        agents = list(dict.fromkeys(r.agent for r in rates))
        fewest = min(sum(r.games for r in rates if r.agent == a) for a in agents)
        lines += ["", f"`{board}`" + _few_games_note(len(bins), fewest), ""]
        lines.append("| 3BV | " + " | ".join(agents) + " |")
        lines.append("|---|" + "---:|" * len(agents))
        for low, high in bins:
            cells = []
            for agent in agents:
                rate = next(r for r in rates if r.agent == agent and r.low == low)
                cells.append(f"{100 * rate.rate:.1f}% ({rate.games})" if rate.games else "-")
            label = str(low) if low == high else f"{low}-{high}"
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _few_games_note(bins: int, fewest: int) -> str:
    if bins == MOST_BINS:
        return ": deciles"
    if bins == 1:
        return f": one bin, too few games to cut ({fewest} per agent, {2 * MIN_BIN_GAMES} needed)"
    return f": {bins} bins ({fewest} games per agent: deciles need {MOST_BINS * MIN_BIN_GAMES})"


def plot_bbbv(records: dict[tuple[str, str], list[GameRecord]], path: Path, title: str) -> bool:
    """``win_rate_by_bbbv.png``: one panel per board, win rate against 3BV bin, one
    line per agent with 95% Wilson bars. Returns whether anything was plotted."""
    by_board = rates_by_bbbv(records)
    if not by_board:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(3, len(by_board))
    rows = -(-len(by_board) // columns)
    figure, axes = plt.subplots(
        rows, columns, figsize=(4.2 * columns, 3.0 * rows + 0.6), squeeze=False
    )
    for panel, (board, (bins, rates)) in zip(axes.flat, by_board.items(), strict=False):
        labels = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in bins]
        for agent in dict.fromkeys(r.agent for r in rates):
            mine = [r for r in rates if r.agent == agent]
            intervals = [wilson_interval(r.wins, r.games) for r in mine]
            centre = [100 * r.rate for r in mine]
            below = [100 * (r.rate - lo) for r, (lo, _) in zip(mine, intervals, strict=True)]
            above = [100 * (hi - r.rate) for r, (_, hi) in zip(mine, intervals, strict=True)]
            panel.errorbar(
                range(len(bins)), centre, yerr=[below, above], capsize=2, marker="o",
                markersize=3, label=agent,
            )  # fmt: skip
        panel.set_xticks(range(len(bins)))
        panel.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
        panel.set_ylim(0, 102)
        panel.set_title(board if len(board) <= 40 else "..." + board[-37:], fontsize=8)
        panel.set_xlabel("3BV (after the first click)", fontsize=7)
        panel.set_ylabel("win rate (%)", fontsize=7)
        panel.grid(alpha=0.3)
    for panel in list(axes.flat)[len(by_board) :]:
        panel.set_visible(False)
    axes.flat[0].legend(fontsize=7, frameon=False)
    figure.suptitle(title, fontsize=9)
    figure.tight_layout()
    with atomic_write(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=110)
    plt.close(figure)
    return True
