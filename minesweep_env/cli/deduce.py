"""``semiautomines deduce``: what a rule set proves about a position, to its fixed point.

The command shows what the auto-solver would open and flag from here with the
given rule set, without a game: :func:`minesweep_env.deduce` applied to a
position file.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..core.board import Board
from ..core.cells import FLAGGED
from ..errors import InconsistentBoardError
from ..solver import RULE_SETS, deduce
from ..solver.probability import count_position
from .errors import CliError
from .position_input import PositionFile

PROVEN_SAFE = "o"
"""Marks a covered cell the rule set proves safe (as ``o`` means "not a mine" in a layout grid)."""
PROVEN_MINE = "x"
"""Marks a covered cell the rule set proves a mine (as ``x`` means "mine" in a layout grid)."""

EXAMPLES = f"""\
examples:
  semiautomines deduce board.txt --rule-set substitution
  semiautomines deduce board.txt --rule-set complete --mines 10
  semiautomines deduce board.txt --rule-set mysweeper --json

BOARD is a position file (what a player sees): a header "width height [mines]",
then one row per line: ? covered, ! a known mine, a digit a probed cell, e.g.

  4 2
  ????
  !23!

for which "semiautomines deduce board.txt --rule-set groups" prints

  4 2
  {PROVEN_SAFE}??{PROVEN_MINE}
  !23!
  # groups: 1 safe ({PROVEN_SAFE}), 1 mine ({PROVEN_MINE})

Output: the position with every cell the rule set proves safe shown as
"{PROVEN_SAFE}" and every cell it proves a mine as "{PROVEN_MINE}"; other cells
as in BOARD. The rule set is applied again on what it has proven (proven mines
count as flags, proven-safe cells stay covered, since their numbers are
unknown) until it proves nothing new. The total mine count (the header's third
number or --mines) is used by the rule sets that use it (endoh's count rule,
substitution, complete).

--json prints {{"safe": [[x, y], ...], "mines": [[x, y], ...]}} (x is the
column, y the row, both from 0, top left; sorted by row, then column).

exit status: 0 success, 2 bad input or an impossible position (one line on stderr)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    names = sorted(RULE_SETS)
    parser = subparsers.add_parser(
        "deduce",
        help="cells a rule set proves safe or mines in a position",
        description="Mark the cells of BOARD that a rule set proves safe and proves mines.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "board",
        metavar="BOARD",
        help="position file (a player's view: ? covered, ! flag, digits; "
        "or JSMinesweeper's position text)",
    )
    parser.add_argument(
        "--rule-set",
        default="complete",
        choices=names,
        metavar="NAME",
        help=f"rule set to deduce with: {', '.join(names)} (default: complete)",
    )
    parser.add_argument(
        "--mines",
        type=int,
        metavar="N",
        help="total mines on the board, flags included (overrides the header's count)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of the grid")
    parser.set_defaults(func=run)


def _check_consistent(position: PositionFile) -> None:
    """Refuse a position no layout fits: a rule set's answer about it means nothing."""
    board = position.board
    if board.total_mines is not None and board.flag_count > board.total_mines:
        raise CliError(
            f"{position.path}: inconsistent position: {board.flag_count} flag(s) "
            f"but only {board.total_mines} mine(s) in all"
        )
    try:
        count_position(board)
    except InconsistentBoardError as error:
        raise position.inconsistent(error) from None


def format_deduction(
    board: Board,
    safe: frozenset[tuple[int, int]],
    mines: frozenset[tuple[int, int]],
    rule_set: str,
) -> str:
    """The position in the position format, proven cells marked, and a one-line summary."""
    lines = [f"{board.width} {board.height}"]
    if board.total_mines is not None:
        lines[0] += f" {board.total_mines}"
    for y in range(board.height):
        row = []
        for x in range(board.width):
            value = int(board.grid[y, x])
            if (x, y) in safe:
                row.append(PROVEN_SAFE)
            elif (x, y) in mines:
                row.append(PROVEN_MINE)
            elif value == FLAGGED:
                row.append("!")
            elif value >= 0:
                row.append(str(value))
            else:
                row.append("?")
        lines.append("".join(row))
    noun = "mine" if len(mines) == 1 else "mines"
    lines.append(
        f"# {rule_set}: {len(safe)} safe ({PROVEN_SAFE}), {len(mines)} {noun} ({PROVEN_MINE})"
    )
    return "\n".join(lines) + "\n"


def _sorted_cells(cells: frozenset[tuple[int, int]]) -> list[list[int]]:
    return [[x, y] for x, y in sorted(cells, key=lambda cell: (cell[1], cell[0]))]


def run(args: argparse.Namespace) -> int:
    position = PositionFile(args.board, args.mines)
    board = position.board
    _check_consistent(position)
    safe, mines = deduce(board, args.rule_set)
    if args.json:
        payload = {"safe": _sorted_cells(safe), "mines": _sorted_cells(mines)}
        sys.stdout.write(json.dumps(payload) + "\n")
    else:
        sys.stdout.write(format_deduction(board, safe, mines, args.rule_set))
    return 0


__all__ = ["PROVEN_MINE", "PROVEN_SAFE", "format_deduction", "run"]
