"""``semiautomines train``: train a MaskablePPO agent (the script ``train_ppo.py``),
optionally after imitating a teacher (``--teacher greedy`` or ``search``: cloning, then DAgger).

The flags are exactly the script's :class:`~semiautomines_agents.training.args.Args`
fields, so ``semiautomines train --help`` and ``python -m
semiautomines_agents.train_ppo --help`` agree. Needs the ``train`` extra
(torch, stable-baselines3, sb3-contrib, tensorboard).
"""

from __future__ import annotations

import argparse
import importlib

from minesweep_env.cli.errors import CliError
from minesweep_env.core.board_spec import parse_board_spec

from ..training.args import Args, add_arguments, args_from_namespace, validate

EXAMPLE = """\
examples:
  semiautomines train --board beginner --total-timesteps 200000
  semiautomines train --board beginner --vec-env subproc --imitation-games 20000 \\
      --learning-rate 5e-5 --total-timesteps 400000 --eval-freq 50000 --eval-games 1000 \\
      --save-model my_ppo.pt           # the shipped model's recipe (agents/models/README.md)
  semiautomines train --board expert --teacher search --init-model agents/models/ppo_beginner.pt \
      --imitation-games 10000 --dagger-rounds 2 --dagger-games 2500 --vec-env native \
      --workers 2 --save-model my_expert.pt  # clone search, DAgger, PPO (agents/models/README.md)
  semiautomines train --board 8x8x10 --obs-mode planes --num-envs 4 --vec-env subproc
  semiautomines train --resume runs/NAME/checkpoints/ppo_100000_steps.sb3-trusted-only.zip \\
      --trust-model --total-timesteps 300000 --run-name NAME
  tensorboard --logdir runs      # watch a run
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a MaskablePPO agent (TensorBoard logs, checkpoints, learning curve)",
        description=__doc__.split("\n\n")[0],
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


MAX_NUM_ENVS = 256
"""Most envs collecting experience (with ``--vec-env subproc`` each is a process)."""
MAX_ROLLOUT_CELLS = 1 << 26
"""Most board cells in one rollout (``n_steps * num_envs * width * height``): the
rollout buffer holds every observation of it (about 3 GiB of float32 planes here)."""


def check_sizes(settings: Args) -> None:
    """Refuse numbers whose allocations alone would exhaust memory, before any is made.

    :raises ValueError: naming the flag, its bound and the value given.
    """
    if not 1 <= settings.num_envs <= MAX_NUM_ENVS:
        raise ValueError(f"--num-envs must be in 1..{MAX_NUM_ENVS}, got {settings.num_envs}")
    if settings.n_steps < 1:
        raise ValueError(f"--n-steps must be positive, got {settings.n_steps}")
    try:
        width, height, _ = parse_board_spec(settings.board)
    except ValueError as error:
        raise ValueError(f"--board {settings.board}: {error}") from None
    rollout = settings.n_steps * settings.num_envs * width * height
    if rollout > MAX_ROLLOUT_CELLS:
        raise ValueError(
            f"--n-steps * --num-envs * board cells is {rollout:,}, more than the rollout "
            f"buffer's limit of {MAX_ROLLOUT_CELLS:,} cells; lower --n-steps or --num-envs"
        )


def run(args: argparse.Namespace) -> int:
    settings = args_from_namespace(args)
    try:
        check_sizes(settings)
        validate(settings)
    except ValueError as error:
        raise CliError(str(error)) from None
    try:  # torch and stable-baselines3 come with the extra, loaded only to train
        script = importlib.import_module("..training.train_ppo", __package__)
    except ModuleNotFoundError as error:
        raise CliError(
            f"training needs the 'train' extra ({error.name} is missing): "
            "pip install 'semiautomines[train]'"
        ) from None
    run_dir = script.train(settings, reraise_interrupt=True)
    print(f"run folder: {run_dir}")
    return 0
