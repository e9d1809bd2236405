"""What runs alongside SB3's training loop: evaluation, logging, progress, checkpoints."""

from __future__ import annotations

import time
from pathlib import Path

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from minesweep_env.fileio import append_text

from .args import Args
from .snapshots import TRUSTED_ZIP_SUFFIX, Checkpoints, evaluate_snapshot, save_trusted_zip


class PeriodicEvaluation(BaseCallback):
    """Every ``eval_freq`` env steps, at the start and the end of PPO, and after
    every imitation stage: the deterministic win rate on fixed seeded games, to
    TensorBoard (``eval/*``) and ``eval.csv``.

    ``eval.csv``'s ``timesteps`` count every phase: the positions the
    imitation stages labelled (``offset``), then PPO's env steps; ``phase``
    names the stage (``init`` for ``--init-model``'s weights, ``bc``,
    ``dagger1``, ...) or ``ppo``.
    """

    def __init__(self, args: Args, run_dir: Path) -> None:
        super().__init__()
        self.args = args
        self.run_dir = run_dir
        self.path = run_dir / "eval.csv"
        self.started = time.time()
        self.offset = 0
        self.next_eval = 0
        self.last_eval = -1

    def initial(self, model: MaskablePPO) -> None:
        """The starting weights (``--init-model``) at 0 steps: where imitation begins."""
        if self.args.eval_freq:
            result = evaluate_snapshot(model, self.args, self.run_dir, "init_0_steps")
            self._write(0, "init", result)

    def after_stage(self, model: MaskablePPO, stage: str, steps: int) -> None:
        """An imitation stage is done: checkpoint it (to resume from, or to ablate)
        and evaluate its snapshot."""
        save_trusted_zip(
            model, self.run_dir / "checkpoints" / f"imitation_{stage}{TRUSTED_ZIP_SUFFIX}"
        )
        self.offset = self.last_eval = steps
        if self.args.eval_freq:
            result = evaluate_snapshot(model, self.args, self.run_dir, f"{stage}_{steps}_steps")
            self._write(steps, stage, result)

    def _on_training_start(self) -> None:
        self.next_eval = self.num_timesteps  # also evaluate the starting point
        self._evaluate_if_due()

    def _on_step(self) -> bool:
        self._evaluate_if_due()
        return True

    def _on_training_end(self) -> None:
        self.next_eval = self.num_timesteps
        self._evaluate_if_due()

    def _evaluate_if_due(self) -> None:
        if not self.args.eval_freq or self.num_timesteps < self.next_eval:
            return
        steps = self.offset + self.num_timesteps
        self.next_eval = self.num_timesteps + self.args.eval_freq
        if steps == self.last_eval:  # e.g. PPO's start, just after the last stage's evaluation
            return
        self.last_eval = steps
        result = evaluate_snapshot(self.model, self.args, self.run_dir)
        for key, value in result.items():
            self.logger.record(f"eval/{key}", value)
        self.logger.dump(self.num_timesteps)
        self._write(steps, "ppo", result)

    def _write(self, steps: int, phase: str, result: dict[str, float]) -> None:
        header = (
            "" if self.path.exists() else ",".join(["timesteps", "wall_s", "phase", *result]) + "\n"
        )
        wall = round(time.time() - self.started, 1)
        row = ",".join(str(value) for value in (steps, wall, phase, *result.values()))
        append_text(self.path, f"{header}{row}\n")


class ProbeStats(BaseCallback):
    """Log the learnt prior scale k: how strongly the policy follows p(mine)."""

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        heads = self.model.policy.mlp_extractor
        self.logger.record("policy/prior_scale", float(heads.prior_scale.detach()))


class ProgressBar(BaseCallback):
    """A tqdm bar over env steps (SB3's own bar needs the extra ``rich`` package)."""

    def __init__(self, total_timesteps: int) -> None:
        super().__init__()
        self.total_timesteps = total_timesteps

    def _on_training_start(self) -> None:
        self.bar = tqdm(
            total=self.total_timesteps,
            initial=self.num_timesteps,
            unit="step",
            desc="training",
            smoothing=0.05,
        )

    def _on_step(self) -> bool:
        self.bar.update(self.num_timesteps - self.bar.n)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def make_callbacks(args: Args, run_dir: Path, evaluation: PeriodicEvaluation) -> list[BaseCallback]:
    """Periodic evaluation, the prior-scale log, the progress bar and checkpoints
    (stable-baselines3 zips for ``--resume``, written whole or not at all)."""
    callbacks: list[BaseCallback] = [evaluation, ProbeStats()]
    if args.progress_bar:
        callbacks.append(ProgressBar(args.total_timesteps))
    if args.checkpoint_freq:
        callbacks.append(Checkpoints(run_dir / "checkpoints", args.checkpoint_freq))
    return callbacks
