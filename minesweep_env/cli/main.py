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
import os
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from types import ModuleType

from .. import __version__
from ..errors import InconsistentBoardError, MapFormatError
from .errors import EXIT_BAD_INPUT, CliError
from .stopping import interrupted_status, sigterm_as_interrupt

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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``semiautomines`` parser; with ``command`` (a subcommand's name), only that
    subcommand's parser, when it exists.

    Why one: building every subcommand's parser imports every subcommand's module
    (the evaluation harness, the training stack, the replay viewer), about a tenth of
    a second that a one-position ``guess`` or ``probabilities`` answer never uses.
    An unknown name, or none, builds them all, so ``--help`` and argparse's "invalid
    choice" message still list every subcommand.
    """
    parser = _Parser(
        prog="semiautomines",
        description="Semi-automatic Minesweeper: play, solve, generate and evaluate.",
        epilog="Exit status: 0 success, 1 a negative answer (e.g. not solvable), 2 bad input,\n"
        "130 stopped by Ctrl-C, 143 stopped by SIGTERM (timeout, kill, a batch scheduler);\n"
        "a stopped run keeps what it finished, as after Ctrl-C.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help="print the version"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in _subcommand_modules(command):
        module.add_parser(subparsers)
    return parser


def requested_command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names (its first word), or ``None`` when it starts with an
    option (``--help``) or is empty."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def _subcommand_modules(command: str | None = None) -> Iterator[ModuleType]:
    """Every subcommand's module in ``--help`` order, or only ``command``'s when it is one."""
    if command in SUBCOMMANDS:
        yield importlib.import_module(f"{__package__}.{command}")
        return
    added = sorted(entry_points(group=COMMANDS_GROUP), key=lambda e: e.name)
    chosen = next((entry for entry in added if entry.name == command), None)
    if chosen is not None:
        yield chosen.load()
        return
    for name in SUBCOMMANDS:
        yield importlib.import_module(f"{__package__}.{name}")
    for entry in added:
        yield entry.load()


EXIT_BROKEN_PIPE = 128 + 13
"""Exit status when stdout's reader closed early (SIGPIPE's number is 13)."""


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(requested_command(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        with sigterm_as_interrupt():
            status = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler below
        return status
    except (CliError, MapFormatError, InconsistentBoardError) as error:
        print(f"semiautomines {args.command}: error: {error}", file=sys.stderr)
        return getattr(error, "exit_code", EXIT_BAD_INPUT)
    except KeyboardInterrupt as stop:
        print(f"semiautomines {args.command}: interrupted", file=sys.stderr)
        return interrupted_status(stop)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as shell tools do, with the
        # status of a stop by SIGPIPE; stdout goes to devnull so the exit flush is silent.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
