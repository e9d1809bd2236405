"""Entry point of the ``semiautomines`` console script.

Each subcommand lives in its own module of this package with two functions:
``add_parser(subparsers)`` builds its argparse parser and sets ``run``
(``run(args) -> int``, the exit status) as the default ``func``. To add one,
write the module and add its name to :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import InconsistentBoardError, MapFormatError
from .errors import EXIT_BAD_INPUT, CliError

SUBCOMMANDS = (
    "play",
    "probabilities",
    "deduce",
    "solvable",
    "generate",
    "evaluate",
    "train",
)
"""Subcommand modules, in the order ``--help`` lists them."""


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a one-line message on bad arguments."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="semiautomines",
        description="Semi-automatic Minesweeper: play, solve, generate and evaluate.",
        epilog="Exit status: 0 success, 1 a negative answer (e.g. not solvable), 2 bad input.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"{__package__}.{name}":
                continue  # not written yet
            raise
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args) or 0)
    except (CliError, MapFormatError, InconsistentBoardError) as error:
        print(f"semiautomines {args.command}: error: {error}", file=sys.stderr)
        return getattr(error, "exit_code", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        print(f"semiautomines {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
