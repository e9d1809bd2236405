"""Entry point of the ``semiautomines`` console script.

Each subcommand lives in a module with two functions: ``add_parser(subparsers)``
builds its argparse parser and sets ``run`` (``run(args) -> int``, the exit
status) as the default ``func``. The library's own subcommands are the modules
of this package named in :data:`SUBCOMMANDS`. Other distributions add theirs
through the ``semiautomines.commands`` entry-point group (name = module): that
is how ``evaluate`` and ``train`` come from the agents package, which the
library itself never imports.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from types import ModuleType

from ..errors import InconsistentBoardError, MapFormatError
from .errors import EXIT_BAD_INPUT, CliError

SUBCOMMANDS = (
    "play",
    "probabilities",
    "deduce",
    "solvable",
    "generate",
)
"""The library's subcommand modules, in the order ``--help`` lists them."""

COMMANDS_GROUP = "semiautomines.commands"
"""Entry-point group of the subcommands other distributions add (listed after
the library's, by name)."""


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
    for module in _subcommand_modules():
        module.add_parser(subparsers)
    return parser


def _subcommand_modules() -> Iterator[ModuleType]:
    for name in SUBCOMMANDS:
        yield importlib.import_module(f"{__package__}.{name}")
    for entry in sorted(entry_points(group=COMMANDS_GROUP), key=lambda e: e.name):
        yield entry.load()


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
