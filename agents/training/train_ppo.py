"""Train a MaskablePPO agent on SemiAutoMines-v0: the script, read top to bottom.

In the CleanRL style: the settings are one dataclass (:class:`Args`, in
``args.py``: every hyper-parameter with its default and one line of help); then
:func:`train` sets up the envs, builds the model, optionally warm-starts it by
imitating a teacher (``--teacher greedy`` or ``search``: behaviour cloning,
then ``--dagger-rounds`` rounds of DAgger), and runs SB3's training loop with
callbacks for checkpoints, periodic evaluation and logging; at the end it
saves the model and draws the learning curve. The helpers each live in a
module of their own: ``envs.py``, ``positions.py`` (the labelled positions),
``imitation.py``, ``callbacks.py``, ``snapshots.py``, ``curve.py``.

Run it as ``python -m semiautomines_agents.train_ppo --help`` or
``semiautomines train --help``. Example (the shipped model's command is in
``agents/models/README.md``)::

    semiautomines train --board beginner --total-timesteps 200000 \\
        --save-model agents/models/ppo_beginner.pt

What a run leaves in ``runs/<run-name>/`` (git-ignored): TensorBoard logs
(``tensorboard --logdir runs``), ``checkpoints/`` (resume with ``--resume
--trust-model``; ``imitation_<stage>`` after each imitation stage),
``imitation/`` (each stage's labelled positions and ``state.json``, the
stages done), ``monitor/`` (every training episode),
``eval.csv`` (periodic deterministic evaluation through the project's harness,
with ``evaluated/``, the snapshots it played), ``learning_curve.png``,
``final.pt`` + ``final.json`` (the model to play, weights only),
``final.sb3-trusted-only.zip`` (to resume) and ``args.json``. Every file is
written whole or not at all (:mod:`minesweep_env.fileio`), so a killed run
leaves no torn checkpoint or log.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
import time
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from minesweep_env.cli.stopping import sigterm_as_interrupt
from minesweep_env.fileio import write_bytes, write_text

from ..model_files import TRUST_RISK
from ..policies import CellPolicy
from .args import Args, add_arguments, args_from_namespace, parse_dilations, validate
from .callbacks import PeriodicEvaluation, make_callbacks
from .curve import plot_learning_curve
from .envs import make_vec_env
from .imitation import fix_prior_scale, imitate, imitation_steps, load_initial_weights
from .snapshots import TRUSTED_ZIP_SUFFIX, evaluate_baselines, save_trusted_zip, save_with_sidecar


def make_model(args: Args, env: VecEnv, tensorboard_log: str | None) -> MaskablePPO:
    """A fresh MaskablePPO with the per-cell convolutional policy, or the resumed one."""
    if args.resume:  # validate() made sure the caller passed --trust-model
        print(f"--trust-model: loading {args.resume}: {TRUST_RISK}", file=sys.stderr)
        return MaskablePPO.load(args.resume, env=env, device="cpu", tensorboard_log=tensorboard_log)

    def learning_rate(progress_remaining: float) -> float:
        return args.learning_rate * (progress_remaining if args.anneal_lr else 1.0)

    return MaskablePPO(
        CellPolicy,
        env,
        learning_rate=learning_rate,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        target_kl=args.target_kl or None,
        policy_kwargs={
            "features_extractor_kwargs": {
                "channels": args.channels,
                "blocks": args.blocks,
                "dilations": parse_dilations(args.dilations),
                "global_context": args.global_context,
            },
            "value_hidden": args.value_hidden,
            "prior_scale": args.prior_scale,
        },
        tensorboard_log=tensorboard_log,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )


def run_folder(args: Args) -> Path:
    """``runs/<run-name>``; a resumed run without ``--run-name`` continues the run
    its checkpoint belongs to (``runs/NAME/checkpoints/X.zip`` or ``runs/NAME/X.zip``)."""
    if not args.run_name and args.resume:
        checkpoint = Path(args.resume).resolve()
        for folder in (checkpoint.parent, checkpoint.parent.parent):
            if (folder / "args.json").is_file():
                return folder
    name = args.run_name or f"{args.board}_s{args.seed}_{time.strftime('%Y%m%d-%H%M%S')}"
    return Path(args.runs_dir) / name


def train(args: Args, reraise_interrupt: bool = False) -> Path:
    """Run the training described by ``args``; returns the run folder.

    Ctrl-C or SIGTERM (under :func:`~minesweep_env.cli.stopping.sigterm_as_interrupt`)
    saves what was learnt; with ``reraise_interrupt`` the interrupt is then raised
    again, so ``semiautomines train`` leaves with the stopped-run status (130 or 143)
    rather than success.
    """
    validate(args)
    torch.set_num_threads(args.torch_threads)
    run_dir = run_folder(args)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "monitor").mkdir(exist_ok=True)
    write_text(run_dir / "args.json", json.dumps(dataclasses.asdict(args), indent=2) + "\n")

    # Env and model (a fresh one starts from --init-model's weights when given).
    env = make_vec_env(args, run_dir / "monitor")
    model = make_model(args, env, str(run_dir / "tb"))
    if args.init_model and not args.resume:
        load_initial_weights(model, args.init_model)
    if args.fixed_prior_scale:  # after the weights are loaded (a resumed run: again)
        fix_prior_scale(model.policy, args.fixed_prior_scale)

    # The reference lines of the learning curve, once per run.
    if args.eval_freq and args.eval_baselines and not (run_dir / "eval_baselines.csv").exists():
        evaluate_baselines(args, run_dir)
    evaluation = PeriodicEvaluation(args, run_dir)
    if args.init_model and not args.resume:
        evaluation.initial(model)

    interrupted: KeyboardInterrupt | None = None
    try:
        # Imitation of the teacher: cloning, then DAgger (stages already done are skipped).
        evaluation.offset = imitate(
            model, args, run_dir, lambda stage, steps: evaluation.after_stage(model, stage, steps)
        )
        # The PPO loop (SB3's), up to total_timesteps PPO steps counted over resumes.
        model.learn(
            total_timesteps=max(0, args.total_timesteps - model.num_timesteps),
            callback=make_callbacks(args, run_dir, evaluation),
            tb_log_name="ppo",
            reset_num_timesteps=not args.resume,
        )
    except KeyboardInterrupt as stop:  # stopping early is normal: keep what was learnt
        interrupted = stop
        print(
            f"interrupted at {model.num_timesteps} PPO steps; saving {run_dir}/final.pt and, "
            f"to resume from, final{TRUSTED_ZIP_SUFFIX}",
            file=sys.stderr,
        )
    finally:
        save_with_sidecar(model, run_dir / "final.pt", args)
        save_trusted_zip(model, run_dir / f"final{TRUSTED_ZIP_SUFFIX}")
        with contextlib.suppress(BrokenPipeError, EOFError):  # envs already stopped by Ctrl-C
            env.close()
        plot_learning_curve(
            run_dir,
            run_dir / "learning_curve.png",
            f"{args.board}: imitation of {args.teacher}, then MaskablePPO"
            if args.imitation_games
            else f"{args.board}: MaskablePPO",
            imitation_steps(run_dir),
        )

    # The model to ship, with its sidecar and its curve: only a finished run's.
    if interrupted is not None and reraise_interrupt:
        raise interrupted
    if args.save_model and interrupted is None:
        out = Path(args.save_model)
        save_with_sidecar(model, out, args)
        curve = (run_dir / "learning_curve.png").read_bytes()
        write_bytes(out.with_name(out.stem + "_curve.png"), curve)
    return run_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="train_ppo",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    add_arguments(parser)
    args = args_from_namespace(parser.parse_args(argv))
    try:
        validate(args)
    except ValueError as error:
        print(f"train_ppo: error: {error}", file=sys.stderr)
        return 2
    with sigterm_as_interrupt():  # SIGTERM saves what was learnt, as Ctrl-C does
        run_dir = train(args)
    print(f"run folder: {run_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
