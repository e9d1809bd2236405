"""Argument types shared by the subcommands, so one flag means one thing everywhere."""

from __future__ import annotations

import argparse

from ..core.board_spec import BoardSize, parse_board_spec
from ..core.cells import STANDARD_BOARDS

MAX_SEED = 2**63 - 1
"""Largest run seed of every subcommand. A run seed only enters
``np.random.SeedSequence`` (any non-negative integer), so the bound is for the
records (a signed 64-bit integer in any JSON or CSV reader), the same everywhere:
``watch --seed S`` shows ``evaluate --seed S``'s games for every S either accepts."""


def check_seed(seed: int, flag: str = "--seed") -> int:
    """``seed`` when it is in ``0..MAX_SEED``; a :class:`~.errors.CliError` otherwise."""
    from .errors import CliError

    if not 0 <= seed <= MAX_SEED:
        raise CliError(f"{flag} must be in 0..{MAX_SEED}, got {seed}")
    return seed


BOARD_HELP = "beginner, intermediate, expert or WIDTHxHEIGHTxMINES (e.g. 16x16x40)"
"""What ``--board`` takes, in every subcommand that has it."""


def board_spec(text: str) -> str:
    """``type=`` of ``--board``: a standard board name or ``WIDTHxHEIGHTxMINES``, checked
    by :func:`~minesweep_env.core.board_spec.parse_board_spec` (argparse turns the refusal
    into one line and exit 2). Returns the text, lower-cased, for the command to read
    with :func:`board_size`."""
    spec = text.strip().lower()
    try:
        parse_board_spec(spec)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return spec


def board_size(spec: str) -> BoardSize:
    """(width, height, mines) of a ``--board`` value :func:`board_spec` accepted."""
    return parse_board_spec(spec)


def board_label(spec: str) -> str:
    """A file-name-safe name of a board: its standard name, or ``WxH-M``."""
    if spec in STANDARD_BOARDS:
        return spec
    width, height, mines = parse_board_spec(spec)
    return f"{width}x{height}-{mines}"
