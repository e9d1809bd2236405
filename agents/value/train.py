"""Train the value network on the positions of ``search``'s own games.

Every position where ``search`` had to guess in a guess log
(``benchmarks/guess_log.py``) is one example, labelled 1 when that game was won.
The last tenth of the games (by number) is held out, so the figures in the sidecar
come from games the network never saw: log-loss and Brier score, beside those of
the constant guess (the mean win rate), which is what the network must beat to
know anything about a position, and the log-loss it saves over that guess with a
95% interval by game. Each batch is flipped at random across both axes,
which leave a position's value unchanged.

Run: ``python -m semiautomines_agents.value.train --guesses runs/value_guesses.jsonl
--out agents/models/value_expert.pt``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from minesweep_env.core.board import Board

from .network import ValueNet, save
from .planes import PLANES, planes

HELD_OUT = 0.1
"""The share of the games (the last by number) kept out of training."""


def read_examples(
    path: Path, limit: int | None = None, progress: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The planes, labels and game numbers of every guessed position in a guess log."""
    inputs, labels, games = [], [], []
    with path.open() as handle:
        for line in tqdm(handle, "positions", disable=not progress, unit=" lines"):
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if "grid" not in row or row.get("reason") == "safe":
                continue
            board = Board(np.array(row["grid"], dtype=np.int8), int(row["mines"]))
            inputs.append(planes(board))
            labels.append(float(row["won"]))
            games.append(int(row["game"]))
            if limit is not None and len(labels) >= limit:
                break
    if not inputs:
        return np.zeros((0, PLANES, 1, 1), np.float32), np.zeros(0, np.float32), np.zeros(0, int)
    return np.stack(inputs), np.array(labels, dtype=np.float32), np.array(games)


def examples_or_exit(
    parser: argparse.ArgumentParser, path: Path, limit: int | None, progress: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`read_examples` of ``--guesses``; one line and exit 2 when the log is
    missing or holds no guessed position."""
    if not path.is_file():
        parser.error(f"--guesses {path}: no such file")
    inputs, labels, games = read_examples(path, limit, progress)
    if not len(labels):
        parser.error(f"--guesses {path}: no guessed position in it")
    return inputs, labels, games


def held_out_games(games: np.ndarray) -> np.ndarray:
    """Which examples are of the held-out games (the last :data:`HELD_OUT` of them by
    number): training and its calibration split a log alike."""
    return games >= np.quantile(np.unique(games), 1 - HELD_OUT)


def scores(probabilities: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Log-loss and Brier score of ``probabilities`` against the 0/1 ``labels``."""
    p = np.clip(probabilities, 1e-6, 1 - 1e-6)
    log_loss = -np.mean(labels * np.log(p) + (1 - labels) * np.log(1 - p))
    return {
        "log_loss": round(float(log_loss), 5),
        "brier": round(float(np.mean((p - labels) ** 2)), 5),
    }


def log_loss_gain(
    probabilities: np.ndarray, baseline: np.ndarray, labels: np.ndarray, games: np.ndarray
) -> dict[str, float]:
    """The log-loss per position ``probabilities`` save over ``baseline``, with a 95%
    interval that takes the game as the unit (a game's positions share its ending)."""

    def losses(p: np.ndarray) -> np.ndarray:
        p = np.clip(p, 1e-6, 1 - 1e-6)
        return -(labels * np.log(p) + (1 - labels) * np.log(1 - p))

    saved = losses(baseline) - losses(probabilities)
    _, index = np.unique(games, return_inverse=True)
    per_game = np.bincount(index, weights=saved)
    mean = saved.sum() / len(saved)
    count = len(per_game)
    spread = per_game.std(ddof=1) * np.sqrt(count) / len(saved) if count > 1 else float("nan")
    return {
        "mean": round(float(mean), 5),
        "low": round(float(mean - 1.96 * spread), 5),
        "high": round(float(mean + 1.96 * spread), 5),
    }


def predict(net: ValueNet, inputs: np.ndarray, batch: int = 512) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        parts = [
            torch.sigmoid(net(torch.from_numpy(inputs[i : i + batch]))).numpy()
            for i in range(0, len(inputs), batch)
        ]
    return np.concatenate(parts) if parts else np.zeros(0)


def flip(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """The batch mirrored across either axis, or both, or neither, at random."""
    tosses = torch.rand(2, generator=generator)
    axes = [axis for axis, toss in ((2, tosses[0]), (3, tosses[1])) if toss < 0.5]
    return batch.flip(axes) if axes else batch


def train(
    inputs: np.ndarray,
    labels: np.ndarray,
    epochs: int,
    seed: int,
    channels: int,
    layers: int,
    batch: int = 256,
    progress: bool = True,
) -> ValueNet:
    """A network fitted to ``inputs`` by Adam on the binary cross-entropy."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    net = ValueNet(channels, layers)
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    loss_of = nn.BCEWithLogitsLoss()
    x, y = torch.from_numpy(inputs), torch.from_numpy(labels)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(y), generator=generator)
        steps = tqdm(range(0, len(y), batch), f"epoch {epoch + 1}/{epochs}", disable=not progress)
        for start in steps:
            pick = order[start : start + batch]
            loss = loss_of(net(flip(x[pick], generator)), y[pick])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            steps.set_postfix(loss=f"{loss.item():.4f}")
    net.eval()
    return net


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guesses", type=Path, required=True, help="a guess_log.py log")
    parser.add_argument("--out", type=Path, required=True, help="NAME.pt (and NAME.json)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--channels", type=int, default=24)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, help="at most this many positions")
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.out.suffix != ".pt":
        parser.error("--out must name a .pt file")
    if min(args.epochs, args.channels, args.layers, args.threads) < 1:
        parser.error("--epochs, --channels, --layers and --threads must be at least 1")
    torch.set_num_threads(args.threads)
    begin = time.perf_counter()
    inputs, labels, games = examples_or_exit(parser, args.guesses, args.limit, not args.no_progress)
    held = held_out_games(games)
    fit = ~held
    if not fit.any() or not held.any():
        parser.error(f"--guesses {args.guesses}: too few games to hold a tenth out")
    net = train(
        inputs[fit],
        labels[fit],
        args.epochs,
        args.seed,
        args.channels,
        args.layers,
        progress=not args.no_progress,
    )
    held_labels = labels[held]
    constant = np.full(len(held_labels), labels[fit].mean())
    predicted = predict(net, inputs[held])
    figures = {
        "command": " ".join(
            [
                "python -m semiautomines_agents.value.train",
                *map(shlex.quote, sys.argv[1:] if argv is None else argv),
            ]
        ),
        "positions": int(fit.sum()),
        "games": int(len(np.unique(games[fit]))),
        "held_out_positions": int(held.sum()),
        "held_out_games": int(len(np.unique(games[held]))),
        "epochs": args.epochs,
        "seed": args.seed,
        "held_out": scores(predicted, held_labels),
        "constant": scores(constant, held_labels),
        "log_loss_saved": log_loss_gain(predicted, constant, held_labels, games[held]),
        "seconds": round(time.perf_counter() - begin, 1),
    }
    save(net, args.out, figures)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
