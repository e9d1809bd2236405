"""Saved models and their evaluation through the project's harness.

Every model a run saves to play is weights only (``<name>.pt``, see
:mod:`~semiautomines_agents.model_files`) with a ``<name>.json`` sidecar saying
how to rebuild its network and its env; only the files kept for resuming
training are stable-baselines3 zips, named ``*.sb3-trusted-only.zip`` because
loading one unpickles. Every evaluation plays the same seeded games as
``semiautomines evaluate --seed EVAL_SEED`` would, so the points of a learning
curve are paired comparisons.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from pathlib import Path

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from minesweep_env.envs import ENV_ID
from minesweep_env.fileio import atomic_write

from ..evaluation import Settings, board_target, evaluate
from ..model_files import save_policy
from .args import Args, env_kwargs

TRUSTED_ZIP_SUFFIX = ".sb3-trusted-only.zip"
"""The stable-baselines3 zips a run keeps for ``--resume``: loading one unpickles."""

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
    """Save ``model``'s policy, weights only, to ``path`` (``.pt``) and, beside it,
    ``<name>.json``: its network, its env and the run's settings.

    The ``ppo`` agent reads ``obs_mode`` there to give the model the
    observation it was trained on.
    """
    save_policy(
        model.policy,
        path,
        obs_mode=args.obs_mode,
        env_id=ENV_ID,
        env_kwargs=env_kwargs(args),
        timesteps=int(model.num_timesteps),
        args=dataclasses.asdict(args),
    )


def save_trusted_zip(model: MaskablePPO, path: Path) -> None:
    """Save the whole ``model`` (optimiser, step count: what ``--resume`` needs) as a
    stable-baselines3 zip, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as handle:
        model.save(handle)


def checkpoint_name(steps: int) -> str:
    """The file name of the checkpoint saved after ``steps`` env steps."""
    return f"ppo_{steps}_steps{TRUSTED_ZIP_SUFFIX}"


def checkpoint_steps(path: Path) -> int | None:
    """The env steps a checkpoint's name records (``None``: not a checkpoint's name)."""
    found = re.fullmatch(r"ppo_(\d+)_steps" + re.escape(TRUSTED_ZIP_SUFFIX), path.name)
    return int(found.group(1)) if found else None


class Checkpoints(BaseCallback):
    """Every ``every`` env steps, ``checkpoints/ppo_<steps>_steps.sb3-trusted-only.zip``.

    SB3's own ``CheckpointCallback`` writes in place, so a kill during a save
    would leave a torn zip as the newest checkpoint.
    """

    def __init__(self, folder: Path, every: int) -> None:
        super().__init__()
        self.folder = folder
        self.every = every
        self.next_save = every

    def _on_training_start(self) -> None:
        self.next_save = (self.num_timesteps // self.every + 1) * self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_save:
            save_trusted_zip(self.model, self.folder / checkpoint_name(self.num_timesteps))
            self.next_save = (self.num_timesteps // self.every + 1) * self.every
        return True


def baseline_agents(args: Args) -> list[str]:
    """The reference lines of the learning curve: random, greedy and the teacher.

    A teacher that is ``search`` with settings of its own (an older default, say) gets
    the default ``search`` beside it: the strongest player is the line the learned
    agent is measured against, whichever search labelled its positions.
    """
    agents = ["random", "greedy"] + ([args.teacher] if args.teacher != "none" else [])
    if args.teacher.split(":")[0] == "search":
        agents.append("search")
    return list(dict.fromkeys(agents))


def evaluate_baselines(args: Args, run_dir: Path) -> None:
    """The :func:`baseline_agents` on the evaluation games, once, to
    ``eval_baselines.csv``: the reference lines of the learning curve (same
    layouts as every point of the network)."""
    settings = Settings(rule_set=args.rule_set, first_click=args.first_click, seed=args.eval_seed)
    run = evaluate(
        baseline_agents(args),
        [board_target(args.board)],
        settings,
        args.eval_games,
        workers=args.workers,
        progress=False,
    )
    with atomic_write(run_dir / "eval_baselines.csv", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["agent", "games", "win_rate", "ci_low", "ci_high"])
        for row in run.rows:
            writer.writerow([row[k] for k in ("agent", "games", "win_rate", "ci_low", "ci_high")])


def evaluate_snapshot(
    model: MaskablePPO, args: Args, run_dir: Path, name: str = ""
) -> dict[str, float]:
    """Deterministic play of ``eval_games`` games through the project's harness.

    The model is saved to ``evaluated/<name>.pt`` (default
    ``ppo_<steps>_steps``) and evaluated as the ``ppo`` agent, exactly as
    ``semiautomines evaluate --agents ppo --model PATH --seed EVAL_SEED`` would.
    """
    snapshot = run_dir / "evaluated" / f"{name or f'ppo_{model.num_timesteps}_steps'}.pt"
    save_with_sidecar(model, snapshot, args)
    settings = Settings(
        rule_set=args.rule_set,
        first_click=args.first_click,
        seed=args.eval_seed,
        model=str(snapshot),
    )
    run = evaluate(
        ["ppo"],
        [board_target(args.board)],
        settings,
        args.eval_games,
        workers=args.workers,
        progress=False,
    )
    if run.error or not run.rows:
        raise RuntimeError(f"evaluation of {snapshot} failed: {run.error}")
    row = run.rows[0]
    return {key: row[key] for key in SNAPSHOT_KEYS}
