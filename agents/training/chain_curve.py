"""The learning curve of a model trained over several runs, from its sidecar's record.

Why: the shipped expert model is the end of a chain of runs, each starting from
the previous run's file (``--init-model``). A run's own curve
(``learning_curve.png``) covers that run alone, on its 1,000 evaluation games;
the chain's stages were each measured afterwards on the same 20,000 games, and
those counts are kept in the model's sidecar under ``learning_curve``. This
draws them with the runs' own plotting code (:func:`.curve.plot_learning_curve`),
so both kinds of curve read alike::

    python -m semiautomines_agents.training.chain_curve agents/models/ppo_expert.json \\
        agents/models/ppo_expert_curve.png

The record: ``points``, in training order, each ``{"stage", "steps", "wins",
"games"}`` (``steps``: the training steps the chain had taken when that
snapshot was saved, in whatever unit ``x_label`` names), ``baselines``, each
``{"agent", "wins", "games"}`` (the reference lines), and optionally ``title``
and ``x_label``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from minesweep_env.fileio import atomic_write

from ..evaluation.stats import wilson_interval
from .curve import X_LABEL, plot_learning_curve

RECORD_KEY = "learning_curve"
"""Where a sidecar keeps the chain's stage evaluations."""


def write_curve_tables(record: dict[str, Any], folder: Path) -> None:
    """Write ``eval.csv`` (one row per point) and ``eval_baselines.csv`` into
    ``folder``: the two files a run's curve reads, with each win rate's Wilson
    interval computed from its counts.

    :raises ValueError: when the points' steps go backwards, a count is
        impossible (see :func:`~..evaluation.stats.wilson_interval`), or a
        point plays a different number of games than the first (the points of
        one curve are the same evaluation games, or they are not a curve).
    """
    points, baselines = record["points"], record["baselines"]
    if not points:
        raise ValueError("the learning curve record has no points")
    games = int(points[0]["games"])
    steps = [int(point["steps"]) for point in points]
    if any(later < earlier for earlier, later in zip(steps, steps[1:], strict=False)):
        raise ValueError(f"the points' steps must not go backwards: {steps}")
    with atomic_write(folder / "eval.csv", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["timesteps", "phase", "games", "win_rate", "ci_low", "ci_high"])
        for point in points:
            if int(point["games"]) != games:
                raise ValueError(f"{point['stage']}: {point['games']} games, the first {games}")
            writer.writerow([point["steps"], point["stage"], *_rate(point)])
    with atomic_write(folder / "eval_baselines.csv", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["agent", "games", "win_rate", "ci_low", "ci_high"])
        for baseline in baselines:
            writer.writerow([baseline["agent"], *_rate(baseline)])


def _rate(row: dict[str, Any]) -> tuple[int, float, float, float]:
    """Games, win rate and its 95% Wilson interval, from ``wins`` and ``games``."""
    wins, games = int(row["wins"]), int(row["games"])
    low, high = wilson_interval(wins, games)
    return games, wins / games, low, high


def plot_chain_curve(record: dict[str, Any], out: Path) -> None:
    """Draw the record's curve to ``out`` (PNG) with :func:`.curve.plot_learning_curve`."""
    with tempfile.TemporaryDirectory() as folder:
        write_curve_tables(record, Path(folder))
        plot_learning_curve(
            Path(folder),
            out,
            record.get("title", "learning curve"),
            x_label=record.get("x_label", X_LABEL),
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="chain_curve", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("sidecar", type=Path, help="a model's .json with a learning_curve record")
    parser.add_argument("out", type=Path, help="the PNG to write")
    args = parser.parse_args(argv)
    try:
        record = json.loads(args.sidecar.read_text())[RECORD_KEY]
        plot_chain_curve(record, args.out)
    except (OSError, ValueError, KeyError) as error:
        print(f"chain_curve: error: {error!r}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
