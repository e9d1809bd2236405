"""The learning curve of a run: training win rate and the periodic evaluations."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from minesweep_env.fileio import atomic_write

X_LABEL = "positions labelled (imitation), then PPO env steps (guesses)"
"""What a run's curve counts along its x axis (see ``offset``)."""

LABEL_OFFSETS = ((3, 4), (3, -10), (3, 14))
"""Where a stage's name goes, in points from its marker: above, below, higher above."""

LABEL_CHARACTERS = 40
"""Longest agent name a legend entry shows whole (``search:KEY=V:...`` grows long)."""
TITLE_CHARACTERS = 80
"""Longest title shown whole."""


def short_name(text: str, limit: int = LABEL_CHARACTERS) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plot_learning_curve(
    run_dir: Path, out: Path, title: str, offset: int = 0, x_label: str = X_LABEL
) -> None:
    """Training win rate (rolling, from the monitor CSVs), the periodic evaluations
    (``eval.csv``) and the baselines (``eval_baselines.csv``), saved to ``out``.

    ``offset``: the positions the imitation stages labelled; PPO's steps start
    there (a dotted line marks it), so one axis counts every phase.

    A bare :class:`~matplotlib.figure.Figure` draws without pyplot, so plotting
    never changes the caller's matplotlib backend.
    """
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    _plot_training(ax, run_dir, offset)
    _plot_evaluations(ax, run_dir / "eval.csv")
    if offset:
        ax.axvline(offset, ls=":", color="grey", lw=1, label="imitation | PPO")
    _plot_baselines(ax, run_dir / "eval_baselines.csv")
    ax.set_xlabel(x_label)
    ax.set_ylabel("win rate")
    ax.set_title(short_name(title, TITLE_CHARACTERS), fontsize=10)
    ax.grid(alpha=0.3)
    # Below the axes: beside the curve the legend hid points, and long agent names
    # pushed the axes out of the figure. A run stopped before its first episode has
    # nothing to label, and an empty legend only draws a warning.
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=7)
    with atomic_write(out, "wb") as handle:
        fig.savefig(handle, format="png", dpi=120, bbox_inches="tight")


def _plot_training(ax: Axes, run_dir: Path, offset: int) -> None:
    episodes = []
    for path in sorted((run_dir / "monitor").glob("*.monitor.csv")):
        with path.open() as handle:
            handle.readline()  # the JSON header line
            for row in csv.DictReader(handle):
                try:
                    episodes.append((float(row["t"]), row["state"], int(row["l"])))
                except (TypeError, ValueError):
                    # SB3's Monitor appends in place: a killed run can leave a torn line.
                    continue
    if not episodes:
        return
    episodes.sort()
    steps = offset + np.cumsum([length for _, _, length in episodes])
    won = np.array([state == "won" for _, state, _ in episodes], dtype=float)
    window = max(1, min(2000, len(won) // 20))
    rolling = np.convolve(won, np.ones(window) / window, mode="valid")
    ax.plot(
        steps[window - 1 :],
        rolling,
        lw=1,
        alpha=0.7,
        label=f"training (sampled actions, mean of {window} games)",
    )


def _plot_evaluations(ax: Axes, eval_path: Path) -> None:
    if not eval_path.exists():
        return
    with eval_path.open() as handle:
        rows = list(csv.DictReader(handle))
    steps = [int(r["timesteps"]) for r in rows]
    if rows and "ci_low" in rows[0]:
        ax.fill_between(
            steps,
            [float(r["ci_low"]) for r in rows],
            [float(r["ci_high"]) for r in rows],
            alpha=0.2,
            color="C1",
            label="95% Wilson interval",
        )
    ax.plot(
        steps,
        [float(r["win_rate"]) for r in rows],
        "o-",
        color="C1",
        label="evaluation (deterministic, same games each time)",
    )
    named = [(s, r) for s, r in zip(steps, rows, strict=True) if r.get("phase", "ppo") != "ppo"]
    for k, (step, row) in enumerate(named):  # the start or an imitation stage: name it
        ax.annotate(
            row["phase"],
            (step, float(row["win_rate"])),
            fontsize=7,
            textcoords="offset points",
            # Three heights in turn: stages close together (or at one step) keep their names apart.
            xytext=LABEL_OFFSETS[k % len(LABEL_OFFSETS)],
        )


def _plot_baselines(ax: Axes, baselines_path: Path) -> None:
    if not baselines_path.exists():
        return
    with baselines_path.open() as handle:
        for k, row in enumerate(csv.DictReader(handle)):
            ax.axhline(
                float(row["win_rate"]),
                ls="--",
                lw=1,
                color=f"C{k + 2}",
                label=f"{short_name(row['agent'])} on the evaluation games "
                f"({float(row['win_rate']):.1%})",
            )
