"""Saved models and their evaluation through the project's harness.

Every model a run saves carries a ``<name>.json`` sidecar saying how to rebuild
its env; every evaluation plays the same seeded games as ``semiautomines
evaluate --seed EVAL_SEED`` would, so the points of a learning curve are
paired comparisons.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

from sb3_contrib import MaskablePPO

from minesweep_env.envs import ENV_ID

from ..evaluation import Settings, board_target, evaluate
from .args import Args, env_kwargs

SNAPSHOT_KEYS = (
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_guesses",
    "mean_safe_opened",
    "invalid_actions",
)
"""What a periodic evaluation reports (the columns of ``eval.csv``)."""


def save_with_sidecar(model: MaskablePPO, path: Path, args: Args) -> None:
    """Save ``model`` and, beside it, ``<name>.json``: how to rebuild its env.

    The ``ppo`` agent reads ``env_kwargs.obs_mode`` there to give the model the
    observation it was trained on.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    meta = {
        "env_id": ENV_ID,
        "env_kwargs": env_kwargs(args),
        "timesteps": int(model.num_timesteps),
        "args": dataclasses.asdict(args),
    }
    path.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")


def evaluate_baselines(args: Args, run_dir: Path) -> None:
    """Random and greedy on the evaluation games, once, to ``eval_baselines.csv``:
    the reference lines of the learning curve (same layouts as every PPO point)."""
    settings = Settings(rule_set=args.rule_set, first_click=args.first_click, seed=args.eval_seed)
    run = evaluate(
        ["random", "greedy"],
        [board_target(args.board)],
        settings,
        args.eval_games,
        progress=False,
    )
    with (run_dir / "eval_baselines.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["agent", "games", "win_rate", "ci_low", "ci_high"])
        for row in run.rows:
            writer.writerow([row[k] for k in ("agent", "games", "win_rate", "ci_low", "ci_high")])


def evaluate_snapshot(model: MaskablePPO, args: Args, run_dir: Path) -> dict[str, float]:
    """Deterministic play of ``eval_games`` games through the project's harness.

    The model is saved to ``evaluated/ppo_<steps>_steps.zip`` and evaluated as
    the ``ppo`` agent, exactly as ``semiautomines evaluate --agents ppo --model
    PATH --seed EVAL_SEED`` would.
    """
    snapshot = run_dir / "evaluated" / f"ppo_{model.num_timesteps}_steps.zip"
    save_with_sidecar(model, snapshot, args)
    settings = Settings(
        rule_set=args.rule_set,
        first_click=args.first_click,
        seed=args.eval_seed,
        model=str(snapshot),
    )
    run = evaluate(["ppo"], [board_target(args.board)], settings, args.eval_games, progress=False)
    if run.error or not run.rows:
        raise RuntimeError(f"evaluation of {snapshot} failed: {run.error}")
    row = run.rows[0]
    return {key: row[key] for key in SNAPSHOT_KEYS}
