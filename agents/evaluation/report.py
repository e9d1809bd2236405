"""Writing a run down: results.json, results.csv, results.md, win_rates.png,
win_rate_by_bbbv.png and games.csv (every game's outcome and its layout's
difficulty) in a new folder, so no run ever overwrites another."""

from __future__ import annotations

import csv
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from minesweep_env.fileio import atomic_write, write_text

from .difficulty_table import bbbv_table, plot_bbbv
from .paired import PAIRED_KEYS, write_games
from .records import Run

RECORD_KEYS = (
    "agent",
    "board",
    "games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_guesses",
    "mean_safe_opened",
    "games_per_s",
    "invalid_actions",
    "exact",
    "kind",
    "width",
    "height",
    "mines",
    "maps",
    "fixed_starts",
    "rule_set",
    "first_click",
    "seed",
    "agent_detail",
    "mean_bbbv",
)
"""Column order of results.csv (results.json records carry the same keys);
``mean_bbbv`` is the mean 3BV of the layouts played, after the first click."""


def new_run_folder(out: str | Path) -> Path:
    """A fresh folder ``OUT/run-YYYYmmdd-HHMMSS`` (UTC), suffixed ``-2``, ``-3``...
    when that name is taken; never an existing one."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("run-%Y%m%d-%H%M%S")
    for attempt in range(1, 1000):
        folder = out / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"{out}: no free run folder name for {stamp}")


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """The results as a GitHub markdown table (win rates in percent)."""
    lines = [
        "| agent | board | size | games | win rate | 95% CI "
        "| guesses/game | safe opened | games/s | mean 3BV |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        size = f"{row['width']}x{row['height']}/{row['mines']}"
        bbbv = "-" if row.get("mean_bbbv") is None else f"{row['mean_bbbv']:.1f}"
        lines.append(
            f"| {row['agent']} | {row['board']} | {size} | {row['games']} "
            f"| {100 * row['win_rate']:.1f}% "
            f"| {_interval(row)} "
            f"| {row['mean_guesses']:.2f} | {100 * row['mean_safe_opened']:.1f}% "
            f"| {row['games_per_s']:.1f} | {bbbv} |"
        )
    return "\n".join(lines)


def paired_table(rows: list[dict[str, Any]]) -> str:
    """Each agent's paired difference in win rate against the baseline, per board
    (rows of a run with ``--baseline``; see :mod:`.paired`)."""
    lines = [
        "| agent | board | vs | paired games | win rate diff | 95% CI (paired) "
        "| only agent won | only baseline won |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        if row.get("win_diff") is None or row["agent"] == row["baseline"]:
            continue
        lines.append(
            f"| {row['agent']} | {row['board']} | {row['baseline']} | {row['paired_games']} "
            f"| {100 * row['win_diff']:+.2f} "
            f"| {100 * row['diff_ci_low']:+.2f} to {100 * row['diff_ci_high']:+.2f} "
            f"| {row['only_agent_won']} | {row['only_baseline_won']} |"
        )
    return "\n".join(lines)


def run_speed(run: Run) -> str:
    """The whole run's speed, every worker together, beside the per-process
    ``games_per_s`` of the rows: what a cluster adds shows here."""
    rate = run.played_games / run.seconds if run.seconds > 0 else 0.0
    return (
        f"{run.played_games:,} games in {run.seconds:,.1f} s: {rate:,.1f} games/s over the "
        f"run ({run.backend})"
    )


def _interval(row: dict[str, Any]) -> str:
    if row.get("exact"):
        return "exact (one fixed game)"
    return f"{100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%"


def maps_section(rows: list[dict[str, Any]]) -> str:
    """The maps of a run: each map row's size and files, for the report."""
    seen: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row.get("kind") == "map":
            seen.setdefault(row["board"], row)
    if not seen:
        return ""
    lines = [
        "Maps (a folder of same-size maps is one row; the first click is the agent's "
        "unless the map fixes it in NAME.start):",
        "",
    ]
    for name, row in seen.items():
        size = f"{row['width']}x{row['height']}, {row['mines']} mines"
        count = row.get("maps") or 1
        line = f"- `{name}`: {size}" + (f", {count} layouts" if count > 1 else "")
        fixed = row.get("fixed_starts") or 0
        if fixed:
            line += (
                ", fixed first click (NAME.start)"
                if count == 1
                else f", {fixed} with a fixed first click"
            )
        lines.append(line)
    return "\n".join(lines)


def _label(board: str) -> str:
    """A plot label: a board name, a map's file name, a suite's last two folders."""
    if "/" not in board:
        return board
    parts = Path(board.rstrip("/")).parts
    if board.endswith("/"):
        return "/".join(parts[-2:]) + "/"
    return Path(board).stem


def plot(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    """Win rates per target (one row each), one bar per agent, with 95% interval bars.

    Horizontal bars, so that many maps stay readable; a deterministic agent's
    result on one fixed map is exact and gets no interval bar.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    boards = list(dict.fromkeys(row["board"] for row in rows))
    agents = list(dict.fromkeys(row["agent"] for row in rows))
    thickness = 0.8 / max(1, len(agents))
    height = 1.6 + len(boards) * (0.22 * len(agents) + 0.15)
    figure, axes = plt.subplots(figsize=(8.0, height))
    for a, agent in enumerate(agents):
        ys, rates, below, above = [], [], [], []
        for b, board in enumerate(boards):
            row = next((r for r in rows if r["agent"] == agent and r["board"] == board), None)
            if row is None:
                continue
            ys.append(b - 0.4 + thickness * (a + 0.5))
            rates.append(100 * row["win_rate"])
            exact = bool(row.get("exact"))
            below.append(0.0 if exact else 100 * (row["win_rate"] - row["ci_low"]))
            above.append(0.0 if exact else 100 * (row["ci_high"] - row["win_rate"]))
        axes.barh(ys, rates, thickness, xerr=[below, above], capsize=2, label=agent)
    axes.set_yticks(range(len(boards)))
    axes.set_yticklabels([_label(b) for b in boards])
    axes.invert_yaxis()  # the first target on top, as in the table
    axes.set_xlabel("win rate (%)")
    axes.set_xlim(0, 102)
    axes.set_title(title, fontsize=9)
    axes.grid(axis="x", alpha=0.3)
    axes.legend(loc="lower left", bbox_to_anchor=(1.01, 0.0), fontsize=8, frameon=False)
    figure.tight_layout()
    with atomic_write(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=120)
    plt.close(figure)


def write_run(run: Run, folder: Path, command: str) -> dict[str, Path]:
    """Write every output of ``run`` into ``folder``; returns the paths by kind.

    Rows with a paired comparison (``--baseline``) carry :data:`PAIRED_KEYS` too,
    and results.md gets their table. Each file is written whole or not at all
    (:mod:`minesweep_env.fileio`): a run killed while writing leaves no half JSON.
    """
    paired = any("baseline" in row for row in run.rows)
    keys = RECORD_KEYS + PAIRED_KEYS if paired else RECORD_KEYS
    rows = [{key: row.get(key) for key in keys} for row in run.rows]
    paths = {
        "json": folder / "results.json",
        "csv": folder / "results.csv",
        "markdown": folder / "results.md",
        "plot": folder / "win_rates.png",
        "bbbv_plot": folder / "win_rate_by_bbbv.png",
        "games": folder / "games.csv",
        "run": folder / "run.json",
    }
    write_text(paths["json"], json.dumps(rows, indent=2) + "\n")
    write_games(run.records, paths["games"])
    with atomic_write(paths["csv"], newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    settings = run.settings
    title = (
        f"Win rate, rule set {settings.rule_set}, first click {settings.first_click}, "
        f"seed {settings.seed} (bars: 95% Wilson interval)"
    )
    status = ""
    if run.interrupted or run.error:
        status = (
            f"\n\n**Partial results**: {run.played_games} of {run.planned_games} games played "
            f"({'interrupted' if run.interrupted else run.error}).\n"
        )
    maps = maps_section(rows)
    maps = f"\n{maps}\n" if maps else ""
    versus = f"\n{paired_table(rows)}\n" if paired else ""
    by_bbbv = bbbv_table(run.records)
    by_bbbv = f"\n{by_bbbv}\n" if by_bbbv else ""
    write_text(
        paths["markdown"],
        f"{title}\n\n{markdown_table(rows)}\n{versus}{status}{maps}{by_bbbv}\n`{command}`\n",
    )
    if rows:
        plot(rows, paths["plot"], title if not status else title + " (partial)")
    else:
        paths.pop("plot")
    by_bbbv_title = (
        f"Win rate by 3BV (bars: 95% Wilson interval)\nrule set {settings.rule_set}, "
        f"first click {settings.first_click}, seed {settings.seed}"
    )
    map_names = {row["board"] for row in rows if row.get("kind") == "map"}
    if not plot_bbbv(run.records, paths["bbbv_plot"], by_bbbv_title, map_names):
        paths.pop("bbbv_plot")
    write_text(
        paths["run"],
        json.dumps(
            {
                "command": command,
                "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "rule_set": settings.rule_set,
                "first_click": settings.first_click,
                "seed": settings.seed,
                "model": settings.model,
                "planned_games": run.planned_games,
                "played_games": run.played_games,
                "backend": run.backend,
                "seconds": round(run.seconds, 3),
                "games_per_s": round(run.played_games / run.seconds, 3) if run.seconds else 0.0,
                "interrupted": run.interrupted,
                "error": run.error,
            },
            indent=2,
        )
        + "\n",
    )
    return paths
