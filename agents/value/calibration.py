"""How well a value network's P(win) matches how often games were won, on held-out games.

The held-out positions are those training kept out (the last tenth of the log's games,
:func:`.train.held_out_games`). They are put in bins by predicted value; per bin, the mean
prediction is plotted against the share of those games won, with a 95% interval. A
calibrated network lies on the diagonal; one that knows little bunches its
predictions near the mean win rate.

Run: ``python -m semiautomines_agents.value.calibration --guesses LOG
--weights agents/models/value_expert.pt --out agents/models/value_expert_calibration.png``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from .network import ValueFileError, load
from .train import examples_or_exit, held_out_games, predict

BINS = 10


def calibration(
    predicted: np.ndarray, labels: np.ndarray, bins: int = BINS
) -> list[tuple[float, float, float, int]]:
    """Per bin of equal count: mean prediction, share won, its 95% half-width, positions."""
    order = np.argsort(predicted, kind="stable")
    rows = []
    for part in np.array_split(order, bins):
        if not len(part):
            continue
        won = float(labels[part].mean())
        half = 1.96 * np.sqrt(max(won * (1 - won), 1e-12) / len(part))
        rows.append((float(predicted[part].mean()), won, float(half), len(part)))
    return rows


def plot(rows: list[tuple[float, float, float, int]], out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5, 5))
    mean, won, half, _ = (np.array(c) for c in zip(*rows, strict=True))
    axes.plot([0, 1], [0, 1], color="grey", linewidth=1, label="calibrated")
    axes.errorbar(mean, won, yerr=half, fmt="o", capsize=3, label="held-out positions")
    axes.set_xlabel("predicted P(win)")
    axes.set_ylabel("share of games won")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(out, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guesses", type=Path, required=True, help="the training log")
    parser.add_argument("--weights", type=Path, required=True, help="NAME.pt")
    parser.add_argument("--out", type=Path, required=True, help="the plot (.png)")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.out.suffix != ".png":
        parser.error("--out must name a .png file")
    try:
        net = load(args.weights)
    except ValueFileError as error:
        parser.error(f"--weights: {error}")
    inputs, labels, games = examples_or_exit(parser, args.guesses, None, not args.no_progress)
    held = held_out_games(games)
    rows = calibration(predict(net, inputs[held]), labels[held])
    for mean, won, half, count in rows:
        print(f"predicted {mean:.3f}  won {won:.3f} ± {half:.3f}  ({count} positions)")
    plot(rows, args.out, f"{args.weights.stem}: {int(held.sum()):,} held-out positions")
    print(f"plot written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
