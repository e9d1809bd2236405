"""The from-scratch learning curves as a figure: win rate against env steps.

One panel per board; per observation mode the mean over seeds as a line and
the band from the worst to the best seed at each checkpoint all seeds reached,
and each seed's own curve as a thin line; random, greedy
and search on the same evaluation games as horizontal lines. Reads
``curves.csv`` and ``baselines.csv`` written by :mod:`.from_scratch`, and
``cleanrl_eval.csv`` when ``benchmarks/cleanrl_vs_sb3_curve.py`` has written one
there: the single-file trainer's seeds (beginner, ``planes``) as one more band, so
the figure shows whether it lies within the SB3 path's.

    python -m semiautomines_agents.training.from_scratch_plot runs/scratch
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

CLEANRL_SERIES = "planes, CleanRL-style file"
"""The legend's name for the single-file trainer's seeds."""
BASELINE_STYLES = {"random": ":", "greedy": "--", "search": "-."}
"""Line style of each horizontal line."""


def read_curves(path: Path) -> dict[str, dict[str, dict[int, list[tuple[int, float]]]]]:
    """board -> obs mode -> seed -> [(env steps, win rate)], steps in order."""
    curves: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            points = curves[row["board"]][row["obs_mode"]][int(row["seed"])]
            points.append((int(row["timesteps"]), float(row["win_rate"])))
    for modes in curves.values():
        for seeds in modes.values():
            for points in seeds.values():
                points.sort()
    return curves


def add_cleanrl(curves: dict, path: Path) -> None:
    """The single-file trainer's evaluated checkpoints (all on beginner, ``planes``)."""
    if not path.is_file():
        return
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            points = curves["beginner"][CLEANRL_SERIES][int(row["seed"])]
            points.append((int(row["timesteps"]), float(row["win_rate"])))
    for points in curves["beginner"][CLEANRL_SERIES].values():
        points.sort()


def seed_band(seeds: dict[int, list[tuple[int, float]]]) -> tuple[np.ndarray, ...]:
    """Steps every seed reached, and the mean, lowest and highest win rate there."""
    common = sorted(set.intersection(*(set(s for s, _ in points) for points in seeds.values())))
    rates = np.array([[dict(points)[step] for step in common] for points in seeds.values()])
    return np.array(common), rates.mean(axis=0), rates.min(axis=0), rates.max(axis=0)


def plot(runs_dir: Path, out: Path) -> Path:
    """Draw ``runs_dir``'s curves into ``out`` (PNG)."""
    curves = read_curves(runs_dir / "curves.csv")
    add_cleanrl(curves, runs_dir / "cleanrl_eval.csv")
    baselines: dict[str, dict[str, float]] = defaultdict(dict)
    if (runs_dir / "baselines.csv").is_file():
        with open(runs_dir / "baselines.csv", newline="") as handle:
            for row in csv.DictReader(handle):
                baselines[row["board"]][row["agent"]] = float(row["win_rate"])
    boards = list(curves)
    figure = Figure(figsize=(6 * max(1, len(boards)), 4.5))
    axes = figure.subplots(1, max(1, len(boards)), squeeze=False)[0]
    for ax, board in zip(axes, boards, strict=False):
        for k, (mode, seeds) in enumerate(sorted(curves[board].items())):
            steps, mean, low, high = seed_band(seeds)
            ax.fill_between(steps, low, high, color=f"C{k}", alpha=0.2)
            seeds_label = f"{len(seeds)} seed" + ("" if len(seeds) == 1 else "s")
            ax.plot(steps, mean, "o-", ms=3, color=f"C{k}", label=f"{mode} ({seeds_label})")
            # Each seed thin as well: a run still training shows how far it got.
            for points in seeds.values():
                ax.plot(*zip(*points, strict=True), "-", lw=0.6, alpha=0.5, color=f"C{k}")
        for agent, rate in baselines.get(board, {}).items():
            style = BASELINE_STYLES.get(agent, "--")
            ax.axhline(rate, ls=style, lw=1, color="grey", label=f"{agent} ({rate:.1%})")
        ax.set_title(f"{board}: MaskablePPO from scratch")
        ax.set_xlabel("env steps (guesses)")
        ax.set_ylabel("win rate (evaluation games)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(out, dpi=120)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m semiautomines_agents.training.from_scratch_plot",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("runs_dir", help="the --runs-dir of the from-scratch runs")
    parser.add_argument("--out", default=None, help="PNG to write (default RUNS_DIR/curves.png)")
    options = parser.parse_args(argv)
    runs_dir = Path(options.runs_dir)
    if not (runs_dir / "curves.csv").is_file():
        print(
            f"{parser.prog}: error: {runs_dir}: no curves.csv (run from_scratch first)",
            file=sys.stderr,
        )
        return 2
    print(plot(runs_dir, Path(options.out) if options.out else runs_dir / "curves.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
