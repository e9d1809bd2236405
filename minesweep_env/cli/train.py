"""``semiautomines train``: train a MaskablePPO agent (runs ``agents/train_ppo.py``).

The flags are exactly the script's :class:`agents.train_ppo.Args` fields, so
``semiautomines train --help`` and ``python -m agents.train_ppo --help`` agree.
Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard).
"""

from __future__ import annotations

import argparse

from .errors import CliError

EXAMPLE = """\
examples:
  semiautomines train --board beginner --total-timesteps 200000
  semiautomines train --board beginner --vec-env subproc --imitation-games 20000 \\
      --learning-rate 5e-5 --total-timesteps 400000 --eval-freq 50000 --eval-games 1000 \\
      --save-model my_ppo.zip          # the shipped model's recipe (agents/models/README.md)
  semiautomines train --board 8x8x10 --obs-mode planes --num-envs 4 --vec-env subproc
  semiautomines train --resume runs/NAME/checkpoints/ppo_100000_steps.zip \\
      --total-timesteps 300000 --run-name NAME
  tensorboard --logdir runs      # watch a run
"""


def _train_module():
    try:
        from agents import train_ppo
    except ModuleNotFoundError as error:
        raise CliError(
            f"training needs the 'train' extra ({error.name} is missing): "
            "pip install 'semiautomines[train]'"
        ) from None
    return train_ppo


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a MaskablePPO agent (TensorBoard logs, checkpoints, learning curve)",
        description=__doc__.split("\n\n")[0],
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    try:
        train_ppo = _train_module()
    except CliError:
        parser.set_defaults(func=_missing_extra)
        return
    train_ppo.add_arguments(parser)
    parser.set_defaults(func=run)


def _missing_extra(args: argparse.Namespace) -> int:
    _train_module()  # raises the CliError that names the missing package
    return 0


def run(args: argparse.Namespace) -> int:
    train_ppo = _train_module()
    settings = train_ppo.args_from_namespace(args)
    try:
        train_ppo.validate(settings)
    except ValueError as error:
        raise CliError(str(error)) from None
    run_dir = train_ppo.train(settings)
    print(f"run folder: {run_dir}")
    return 0
