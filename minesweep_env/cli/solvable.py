"""``semiautomines solvable``: can the auto-solver alone clear this map from the start cell?"""

from __future__ import annotations

import argparse
import json

from ..core.first_click import FIRST_CLICK_POLICIES
from ..formats import format_board, load_layout, load_start, start_path
from ..generation.solvability import is_solvable
from ..solver.registry import get_rule_set
from .errors import EXIT_NEGATIVE, EXIT_OK, CliError

EXAMPLES = """\
examples:
  semiautomines solvable maps/ioccc/ioccc.txt --start 0 0
  semiautomines solvable board.txt --start 3 3 --rule-set complete --json
  semiautomines solvable maps/no-guess/expert/expert-000.txt   # start from expert-000.start

MAP is an IOCCC map (width height mines priorities...) or rows of x (mine) and
o (safe). The start cell is probed as written, with no first-click protection:
a start on a mine is "not solvable" (IOCCC maps included, although the IOCCC
program would delete that mine; --first-click endoh judges under its rule).
Then the auto-solver of the rule set opens and flags all it can prove, with the
total mine count known. The default rule set, substitution, is the
mine-solver program's (grind, eliminate, end game); complete gives the exact answer.

output: "solvable", or "not solvable", the number of safe cells left covered
and the position where the solver stopped (a position: ? covered,
! flag, digits; the header holds width height mines), which
"semiautomines probabilities" reads as it is.

exit status: 0 solvable, 1 not solvable, 2 bad input (one line on stderr)."""


RANDOM_POLICIES = ("safe", "zero")
"""First-click policies that move mines at random: no verdict about the map itself."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solvable",
        help="is a map solvable without guessing from a start cell?",
        description="Play MAP from the start cell with the auto-solver alone.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("map", metavar="MAP", help="map file (IOCCC or x/o layout)")
    parser.add_argument(
        "--start",
        nargs=2,
        type=int,
        metavar=("X", "Y"),
        help="start cell, 0-based column X and row Y (default: from MAP.start, if any)",
    )
    parser.add_argument(
        "--rule-set",
        default="substitution",
        metavar="NAME",
        help="rule set of the auto-solver (default: substitution; complete is exact)",
    )
    parser.add_argument(
        "--first-click",
        choices=FIRST_CLICK_POLICIES,
        default="none",
        help="none: the map as written (default); endoh: a mine under the start is deleted; "
        "safe and zero are refused: they move mines to random cells, so the verdict would "
        "be about one random draw, not the map (a map's start is mine-free anyway when "
        "none says solvable)",
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = get_rule_set(args.rule_set)
    except ValueError as error:
        raise CliError(str(error)) from None
    layout = load_layout(args.map)
    if args.start is not None:
        start = tuple(args.start)
    else:
        recorded = load_start(args.map)
        if recorded is None:
            raise CliError(
                f"{args.map}: give --start X Y (no {start_path(args.map).name} beside it)"
            )
        start = recorded
    if args.first_click in RANDOM_POLICIES:
        raise CliError(
            f"--first-click {args.first_click} moves mines at random, so the verdict would be "
            "about one draw, not the map: use none (the map as written) or endoh"
        )
    try:
        verdict = is_solvable(layout, start, rules, first_click=args.first_click)
    except ValueError as error:
        raise CliError(f"{args.map}: {error}") from None
    if args.json:
        print(json.dumps({"map": args.map, **verdict.to_json()}))
    elif verdict.solvable:
        print("solvable")
    else:
        print("not solvable")
        if verdict.start_on_mine:
            print(f"the start cell ({start[0]}, {start[1]}) is a mine")
        print(
            f"{verdict.covered_safe} safe cells stayed covered "
            f"(rule set {verdict.rule_set}, start {start[0]} {start[1]})"
        )
        print(format_board(verdict.board), end="")
    return EXIT_OK if verdict.solvable else EXIT_NEGATIVE
