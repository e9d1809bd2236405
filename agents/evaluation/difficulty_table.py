"""Win rate by board difficulty: every run folder's table and plot by 3BV.

A win rate alone hides whether an agent loses the hard layouts or the easy ones.
Every agent of a run plays the same seeded layouts, so cutting each board's games
into 3BV bins (the same bins for every agent on that board) compares agents on
the easy and the hard layouts of the same games. Bins are deciles of the board's
3BV when every agent played at least 1,000 games there; with fewer, as many
quantile bins as keep at least 100 games each (one bin below 200 games, which
the table says). 3BV is that of the layout after the first-click policy.

The table has a section per board and map. The plot has a panel per standard
board and one panel shared by the maps, leaving out (and counting in its caption)
the maps too few games were played on to draw.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


Binned = dict[str, tuple[list[tuple[int, int]], list[BinRate]]]
"""Per board name: its 3BV bins and each agent's wins in each (:func:`rates_by_bbbv`)."""


def rates_by_bbbv(records: dict[tuple[str, str], list[GameRecord]]) -> Binned:
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
            lines.append(f"| {_bin_label(low, high)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _few_games_note(bins: int, fewest: int) -> str:
    if bins == MOST_BINS:
        return ": deciles"
    if bins == 1:
        return f": one bin, too few games to cut ({fewest} per agent, {2 * MIN_BIN_GAMES} needed)"
    return f": {bins} bins ({fewest} games per agent: deciles need {MOST_BINS * MIN_BIN_GAMES})"


def _bin_label(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def _wilson_bars(rates: list[BinRate]) -> tuple[list[float], list[list[float]]]:
    """Win rates in percent and their 95% Wilson bars (below, above)."""
    intervals = [wilson_interval(r.wins, r.games) for r in rates]
    centre = [100 * r.rate for r in rates]
    below = [100 * (r.rate - lo) for r, (lo, _) in zip(rates, intervals, strict=True)]
    above = [100 * (hi - r.rate) for r, (_, hi) in zip(rates, intervals, strict=True)]
    return centre, [below, above]


def _fewest_games(rates: list[BinRate]) -> int:
    """The games of the agent that played the fewest on the board."""
    agents = dict.fromkeys(r.agent for r in rates)
    return min(sum(r.games for r in rates if r.agent == agent) for agent in agents)


def _label_axes(panel: Any, title: str) -> None:
    panel.set_ylim(0, 102)
    panel.set_title(title if len(title) <= 40 else "..." + title[-37:], fontsize=8)
    panel.set_xlabel("3BV (after the first click)", fontsize=7)
    panel.set_ylabel("win rate (%)", fontsize=7)
    panel.grid(alpha=0.3)


def _board_panel(
    panel: Any, board: str, bins: list[tuple[int, int]], rates: list[BinRate], legend: bool
) -> None:
    """A standard board's panel: its 3BV bins side by side, one line per agent."""
    for agent in dict.fromkeys(r.agent for r in rates):
        centre, bars = _wilson_bars([r for r in rates if r.agent == agent])
        panel.errorbar(
            range(len(bins)), centre, yerr=bars, capsize=2, marker="o", markersize=3,
            label=agent,
        )  # fmt: skip
    panel.set_xticks(range(len(bins)))
    panel.set_xticklabels([_bin_label(*b) for b in bins], rotation=45, ha="right", fontsize=7)
    _label_axes(panel, board)
    if legend:
        panel.legend(fontsize=7, frameon=False)


def _maps_panel(panel: Any, maps: Binned) -> None:
    """The maps' shared panel: one line per agent and map, each bin at its mean 3BV
    (the maps' bins differ, so the axis is 3BV itself)."""
    for board, (bins, rates) in maps.items():
        name = board if len(board) <= 24 else "..." + board[-21:]
        for agent in dict.fromkeys(r.agent for r in rates):
            centre, bars = _wilson_bars([r for r in rates if r.agent == agent])
            middles = [(low + high) / 2 for low, high in bins]
            panel.errorbar(
                middles, centre, yerr=bars, capsize=2, marker="o", markersize=3,
                label=f"{agent}, {name}",
            )  # fmt: skip
    panel.tick_params(axis="x", labelsize=7)
    _label_axes(panel, f"maps ({len(maps)} plotted)")
    panel.legend(fontsize=6, frameon=False)


@dataclass(frozen=True)
class BbbvPanels:
    """What ``win_rate_by_bbbv.png`` shows: a panel per standard board, one shared
    panel for the maps that enough games were played on, and a caption on the rest."""

    boards: Binned
    maps: Binned
    left_out: tuple[str, ...]
    """Maps some agent played fewer than :data:`MIN_BIN_GAMES` times: not plotted."""

    @property
    def count(self) -> int:
        return len(self.boards) + (1 if self.maps else 0)

    @property
    def caption(self) -> str:
        if not self.left_out:
            return ""
        played = len(self.left_out) + len(self.maps)
        return (
            f"{len(self.left_out)} of {played} maps left out: played fewer than "
            f"{MIN_BIN_GAMES} times by an agent (results.md's table lists them)"
        )


def bbbv_panels(
    records: dict[tuple[str, str], list[GameRecord]], maps: Collection[str] = ()
) -> BbbvPanels:
    """Sort the run's boards into the plot's panels (see :func:`plot_bbbv`).

    :param maps: the names in ``records`` that are maps (the rest are standard boards).
    """
    by_board = rates_by_bbbv(records)
    boards = {b: v for b, v in by_board.items() if b not in maps}
    played = {b: v for b, v in by_board.items() if b in maps}
    shared = {b: v for b, v in played.items() if _fewest_games(v[1]) >= MIN_BIN_GAMES}
    left_out = tuple(b for b in played if b not in shared)
    return BbbvPanels(boards, shared, left_out)


def plot_bbbv(
    records: dict[tuple[str, str], list[GameRecord]],
    path: Path,
    title: str,
    maps: Collection[str] = (),
) -> bool:
    """``win_rate_by_bbbv.png``: win rate against 3BV bin, one line per agent with 95%
    Wilson bars; one panel per standard board, and one shared panel for the maps.

    A map enters the shared panel when every agent played it at least
    :data:`MIN_BIN_GAMES` times. One played less (a single file played once has a bar
    from about 20% to 100%) is left out, and the figure's caption says how many were;
    a panel per map made the figure grow with every map file of a run.
    Returns whether anything was plotted.

    :param maps: the names in ``records`` that are maps (the rest are standard boards).
    """
    panels = bbbv_panels(records, maps)
    if panels.count == 0:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(3, panels.count)
    rows = -(-panels.count // columns)
    figure, axes = plt.subplots(
        rows, columns, figsize=(4.2 * columns, 3.0 * rows + 0.8), squeeze=False
    )
    cells = list(axes.flat)
    for number, (board, (bins, rates)) in enumerate(panels.boards.items()):
        _board_panel(cells[number], board, bins, rates, legend=number == 0)
    if panels.maps:
        _maps_panel(cells[len(panels.boards)], panels.maps)
    for panel in cells[panels.count :]:
        panel.set_visible(False)
    figure.suptitle(title, fontsize=9)
    if panels.caption:
        figure.text(0.5, 0.005, panels.caption, ha="center", va="bottom", fontsize=7)
    figure.tight_layout(rect=(0, 0.04 if panels.caption else 0, 1, 1))
    with atomic_write(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=110)
    plt.close(figure)
    return True
