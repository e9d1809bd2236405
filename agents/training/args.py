"""The settings of a training run: one dataclass, its flags, and their checks.

In the CleanRL style, :class:`Args` lists every hyper-parameter with its
default and one line of help, and each field becomes a ``--kebab-case`` flag of
``semiautomines train`` and ``python -m semiautomines_agents.train_ppo``.
This module needs no torch, so the command line can list the flags (and say
what is missing) without the ``train`` extra.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from minesweep_env.core.board_spec import parse_board_spec
from minesweep_env.core.cells import STANDARD_BOARDS
from minesweep_env.envs import ENV_ID  # importing minesweep_env registers the env

from .. import parse_agent_name
from ..model_files import WEIGHTS_SUFFIX


def _arg(default: Any, help: str) -> Any:  # noqa: A002  (the argparse word)
    """A dataclass field whose one-line help becomes its ``--flag`` help."""
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    """Every setting of a training run; each becomes a ``--kebab-case`` flag."""

    # Run
    run_name: str = _arg("", "name of the run folder under --runs-dir (default: board, seed, time)")
    runs_dir: str = _arg("runs", "where TensorBoard logs, checkpoints and curves go")
    seed: int = _arg(1, "seed of the envs, the network's initial weights and the sampling")
    torch_threads: int = _arg(1, "torch CPU threads (1 is fastest for this small net and batch)")
    progress_bar: bool = _arg(True, "show a tqdm progress bar")
    # Env
    board: str = _arg("beginner", "beginner, intermediate, expert, or WxHxM such as 8x8x10")
    rule_set: str = _arg("complete", "the auto-solver's rule set (complete: every move is a guess)")
    first_click: str = _arg("safe", "first-click policy of the env")
    obs_mode: str = _arg(
        "planes+probabilities", "planes, or planes+probabilities (adds exact mine probabilities)"
    )
    reward: str = _arg("", "env reward scheme ('' = the env's default, +1 win / -1 loss)")
    num_envs: int = _arg(8, "parallel envs collecting experience")
    vec_env: str = _arg(
        "dummy",
        "dummy (one process), subproc (one per env) or native (the batched env of "
        "minesweep_env.envs.sb3_vec: every board in one process, no per-env Python wrapper)",
    )
    # PPO
    total_timesteps: int = _arg(200_000, "env steps (guesses) to train for, in total over resumes")
    learning_rate: float = _arg(1e-4, "Adam step size")
    anneal_lr: bool = _arg(True, "decay the learning rate linearly to 0 over the run")
    n_steps: int = _arg(128, "steps per env per rollout (rollout = n_steps * num_envs)")
    batch_size: int = _arg(256, "minibatch size of the PPO update")
    n_epochs: int = _arg(4, "passes over each rollout")
    gamma: float = _arg(1.0, "discount (episodes are a few guesses; 1 = maximise the win rate)")
    gae_lambda: float = _arg(0.95, "GAE lambda")
    clip_range: float = _arg(0.2, "PPO policy clip")
    ent_coef: float = _arg(0.001, "entropy bonus")
    vf_coef: float = _arg(0.5, "value loss weight")
    max_grad_norm: float = _arg(0.5, "gradient clipping")
    target_kl: float = _arg(0.03, "stop an update's epochs early past this KL (0 = never)")
    # Network (agents/policies.py)
    channels: int = _arg(32, "width of every convolution")
    blocks: int = _arg(3, "residual blocks (receptive field 3 + 4 * blocks cells)")
    dilations: str = _arg(
        "",
        "more residual blocks with dilated convolutions, e.g. 2,4 (each widens the view by "
        "4 * dilation cells; they start as the identity, so --init-model's play is kept)",
    )
    global_context: bool = _arg(
        False,
        "end the trunk with a global-context step (the board's mean and max of each feature "
        "given to every cell; starts as the identity)",
    )
    value_hidden: int = _arg(64, "hidden units of the value head")
    prior_scale: float = _arg(20.0, "initial k of the prior logit -k * p(mine)")
    # Imitation warm start (before PPO): behaviour cloning, then DAgger
    teacher: str = _arg(
        "greedy", "the agent imitated: greedy, search, or any agent name; none: no teacher"
    )
    imitation_games: int = _arg(
        0, "first fit the policy to the teacher's moves in this many games (0 = off)"
    )
    imitation_epochs: int = _arg(10, "passes over the imitation data")
    imitation_lr: float = _arg(1e-3, "Adam step size of the imitation phase")
    deviation_weight: float = _arg(
        1.0, "weight in the fit of the positions where the teacher's move is not greedy's"
    )
    soft_targets: float = _arg(
        0.0,
        "temperature of a softmax over the search teacher's candidate scores as the "
        "target (0 = its move alone)",
    )
    mirror: bool = _arg(
        False,
        "fit each imitation batch on a random mirror image of its positions (left-right, "
        "top-bottom, half-turn or none; labels mirrored alike)",
    )
    prior_lr: float = _arg(
        0.0, "Adam step size of the prior's scale k in the imitation fit (0 = --imitation-lr)"
    )
    context_lr: float = _arg(
        0.0,
        "Adam step size of the trunk's context layers (--dilations, --global-context) in "
        "the imitation fit (0 = --imitation-lr)",
    )
    fixed_prior_scale: float = _arg(
        0.0,
        "set the prior's scale k to this (after --init-model) and keep it there in every fit "
        "(0 = k is learnt like any weight)",
    )
    dagger_rounds: int = _arg(
        0, "DAgger rounds after the cloning: the network plays, the teacher labels, refit"
    )
    dagger_games: int = _arg(1000, "games the network plays (and the teacher labels) per round")
    dagger_epochs: int = _arg(3, "passes over all the labelled positions after each round")
    init_model: str = _arg(
        "", "start from this weights-only model (NAME.pt) instead of random weights"
    )
    workers: int = _arg(
        1, "processes that play the teacher's and the network's games and the evaluations"
    )
    # Evaluation, checkpoints, output
    eval_freq: int = _arg(20_000, "evaluate every this many env steps (0 = never)")
    eval_games: int = _arg(500, "games per periodic evaluation (same seeded layouts each time)")
    eval_seed: int = _arg(10_000, "seed of the evaluation games (apart from training seeds)")
    eval_baselines: bool = _arg(
        True, "also play random, greedy and the teacher once on those games (curve)"
    )
    checkpoint_freq: int = _arg(20_000, "save a checkpoint every this many env steps (0 = never)")
    resume: str = _arg(
        "", "checkpoint .sb3-trusted-only.zip to continue from (needs --trust-model)"
    )
    trust_model: bool = _arg(
        False, "let --resume load a stable-baselines3 zip: it unpickles (only your own files)"
    )
    save_model: str = _arg(
        "", "also save the final model here, weights only (e.g. agents/models/x.pt, + x.json)"
    )
    force: bool = _arg(False, "allow --save-model to overwrite an existing file")


NO_TEACHER = "none"
"""``--teacher none``: a run that imitates nobody (no imitation stage, no teacher line)."""

VEC_ENVS = ("dummy", "subproc", "native")
"""The ``--vec-env`` choices (see :mod:`.envs`)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per :class:`Args` field; booleans get ``--x/--no-x``."""
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        help_text = f.metadata["help"]
        if "(default" not in help_text:  # a help that explains its default says it once
            help_text += f" (default: {f.default!r})"
        if f.type in (bool, "bool"):
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=f.default, help=help_text
            )
        else:
            kind = {"int": int, "float": float, "str": str}[str(f.type)]
            parser.add_argument(flag, type=kind, default=f.default, help=help_text)


def args_from_namespace(namespace: argparse.Namespace) -> Args:
    return Args(**{f.name: getattr(namespace, f.name) for f in dataclasses.fields(Args)})


def board_kwargs(board: str) -> dict[str, Any]:
    """``--board`` as env keyword arguments: a standard name or ``WxHxM``."""
    try:
        width, height, mines = parse_board_spec(board)
    except ValueError as error:
        raise ValueError(f"--board {board}: {error}") from None
    if board in STANDARD_BOARDS:
        return {"board": board}
    return {"width": width, "height": height, "mines": mines}


def env_kwargs(args: Args) -> dict[str, Any]:
    """Keyword arguments of ``gymnasium.make`` for this run's env."""
    kwargs = {
        **board_kwargs(args.board),
        "rule_set": args.rule_set,
        "first_click": args.first_click,
        "obs_mode": args.obs_mode,
        "info_probability": False,  # the per-step p(chosen cell) is not used here; skip its cost
    }
    if args.reward:
        kwargs["reward"] = args.reward
    return kwargs


def parse_dilations(text: str) -> tuple[int, ...]:
    """``--dilations`` as a tuple: ``"2,4"`` -> ``(2, 4)``, ``""`` -> ``()``.

    :raises ValueError: on anything but comma-separated integers of 1 or more.
    """
    try:
        dilations = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError(f"--dilations {text!r}: comma-separated integers, e.g. 2,4") from None
    if any(d < 1 for d in dilations):
        raise ValueError(f"--dilations {text!r}: each dilation must be 1 or more")
    return dilations


def validate(args: Args) -> None:
    """Reject settings that cannot work, with one line each (ValueError)."""
    positive = (
        "num_envs",
        "total_timesteps",
        "n_steps",
        "batch_size",
        "n_epochs",
        "eval_games",
        "workers",
    )
    for name in positive:
        if getattr(args, name) <= 0:
            raise ValueError(
                f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}"
            )
    parse_dilations(args.dilations)
    if args.vec_env not in VEC_ENVS:
        raise ValueError(f"--vec-env must be one of {', '.join(VEC_ENVS)}, got {args.vec_env!r}")
    for name in ("deviation_weight", "soft_targets", "prior_lr", "context_lr", "fixed_prior_scale"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} must be 0 or more")
    for name in ("imitation_games", "dagger_rounds", "dagger_games", "dagger_epochs"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} must be 0 or more")
    if args.dagger_rounds and not args.imitation_games:
        raise ValueError("--dagger-rounds needs --imitation-games (DAgger follows the cloning)")
    if args.teacher == NO_TEACHER:
        if args.imitation_games:
            raise ValueError(f"--imitation-games needs a --teacher, not {NO_TEACHER!r}")
        return _validate_files(args)
    try:
        parse_agent_name(args.teacher)
    except ValueError as error:
        raise ValueError(f"--teacher: {error}") from None
    if args.teacher.split(":")[0] in ("ppo", "random"):
        raise ValueError(f"--teacher {args.teacher}: imitate a hand-written player")
    _validate_files(args)


def _validate_files(args: Args) -> None:
    """The checks of the files a run reads and writes."""
    if args.init_model and not Path(args.init_model).is_file():
        raise ValueError(f"--init-model: no model at {args.init_model}")
    if args.init_model and Path(args.init_model).suffix != WEIGHTS_SUFFIX:
        raise ValueError(f"--init-model {args.init_model}: a weights-only NAME{WEIGHTS_SUFFIX}")
    if args.obs_mode == "grid":
        raise ValueError("--obs-mode grid has no channel axis; the conv policy needs planes")
    if args.resume and not Path(args.resume).is_file():
        raise ValueError(f"--resume: no checkpoint at {args.resume}")
    if args.resume and not args.trust_model:
        raise ValueError(
            f"--resume {args.resume}: a stable-baselines3 zip unpickles Python objects when "
            "loaded, so a crafted file runs code; add --trust-model if you made this checkpoint"
        )
    if args.save_model and Path(args.save_model).suffix != WEIGHTS_SUFFIX:
        raise ValueError(
            f"--save-model {args.save_model}: the weights-only model file must end in "
            f"{WEIGHTS_SUFFIX}"
        )
    if args.save_model and Path(args.save_model).exists() and not args.force:
        raise ValueError(f"--save-model: {args.save_model} exists (use --force to replace it)")
    kwargs = env_kwargs(args)  # raises on a bad board
    try:  # the env itself judges rule set, first click, obs mode and reward names
        gym.make(ENV_ID, disable_env_checker=True, **kwargs).close()
    except (ValueError, KeyError) as error:
        raise ValueError(f"bad env settings: {error}") from None
