"""``semiautomines probabilities``: the exact mine probability of every covered cell.

The position analyser's job: read a position, write the same grid with each ``?``
replaced by the probability that it holds a mine.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from ..core.board import Board
from ..core.cells import FLAGGED
from ..errors import InconsistentBoardError
from ..fileio import write_text
from ..solver.probability import PositionAnalysis, analyse_position
from .errors import CliError
from .position_input import PositionFile

EXAMPLES = """\
examples:
  semiautomines probabilities board.txt
  semiautomines probabilities board.txt --mines 10 -o board.prob.txt
  semiautomines probabilities board.txt --json
  semiautomines probabilities board.txt --compact   # whole percents: expert fits 90 columns
  semiautomines probabilities board.txt --no-compact | less -S   # decimals in any terminal

BOARD is a position file (what a player sees): a header "width height [mines]",
then one row per line: ? covered, ! a known mine, a digit a probed cell, e.g.

  3 3 2
  ???
  ?2!
  ???

for which it prints (one of the 2 mines is flagged; the 2 needs the other
among its 7 covered neighbours, so each holds it with probability 1/7):

  3 3 2
  0.143 0.143 0.143
  0.143     2     !
  0.143 0.143 0.143

Every layout of mines consistent with the numbers (and the total, when the
header's third number or --mines gives it) is taken as equally likely; the
answer is exact. Without a total, covered cells that touch no number have no
probability and stay "?" (the agents, and `semiautomines guess`, count every layout of
any mine count instead: the same numbers on the frontier, 0.5 off it).
Probabilities print with fixed decimals in aligned columns; 0 and 1 are printed
only when exact (a near-certain cell shows 0.001 or 0.999 rather than a rounded
certainty).

In a terminal narrower than that grid (expert's is 180 columns) the grid is
shown compact, in whole percents (as --compact), so its rows do not wrap;
--no-compact or --decimals D keeps the decimals. Output to a pipe, a file or
-o OUT is always the full grid unless --compact is given, so scripts read the
same text whatever the terminal.

--json prints {"width", "height", "mines", "probabilities"}: a list of rows,
a number for each covered cell with a probability, null elsewhere. With -o,
either form goes to OUT instead of standard output.

exit status: 0 success, 2 bad input or an impossible position (one line on stderr)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "probabilities",
        help="exact mine probability of every covered cell of a position",
        description="Write BOARD with each covered cell replaced by its exact mine probability.",
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
        "--mines",
        type=int,
        metavar="N",
        help="total mines on the board, flags included (overrides the header's count)",
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write to OUT instead of standard output"
    )
    parser.add_argument("--json", action="store_true", help="write JSON instead of a grid")
    parser.add_argument(
        "--decimals",
        type=int,
        metavar="D",
        help=f"decimals of each probability in the grid (default: {DEFAULT_DECIMALS})",
    )
    parser.add_argument(
        "--compact",
        action=argparse.BooleanOptionalAction,
        help="whole percents, two columns a cell (an expert board fits 90 columns): 1..99, "
        "0 only when surely safe, M only when surely a mine (default: on in a terminal "
        "narrower than the full grid, unless --decimals is given; off for a pipe or a file)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    parser.set_defaults(func=run)


DEFAULT_DECIMALS = 3
"""Decimals of the full grid: a cell is then six columns wide."""


def _format_probability(weight: int, layouts: int, decimals: int) -> str:
    """Fixed decimals; 0 and 1 only when exact, so rounding never fakes a certainty."""
    text = f"{weight / layouts:.{decimals}f}"
    if weight and float(text) == 0:
        return f"{10**-decimals:.{decimals}f}"
    if weight != layouts and float(text) == 1:
        return f"{1 - 10**-decimals:.{decimals}f}"
    return text


def _format_percent(weight: int, layouts: int) -> str:
    """Whole percent in at most two characters; 0 and ``M`` (a sure mine) only when exact."""
    if weight == 0:
        return "0"
    if weight == layouts:
        return "M"
    return str(min(99, max(1, round(100 * weight / layouts))))


def _grid(
    board: Board, analysis: PositionAnalysis, covered: Callable[[int], str], width: int | None
) -> str:
    """The position as text: header, then one row a line, each covered cell shown by
    ``covered(weight)``; columns ``width`` wide (the widest token when ``None``)."""
    rows = []
    for y in range(board.height):
        row = []
        for x in range(board.width):
            value = int(board.grid[y, x])
            weight = analysis.mine_weights[y, x]
            if value == FLAGGED:
                row.append("!")
            elif value >= 0:
                row.append(str(value))
            elif weight is None:
                row.append("?")
            else:
                row.append(covered(weight))
        rows.append(row)
    column = width or max(len(token) for row in rows for token in row)
    header = f"{board.width} {board.height}"
    if analysis.total_mines is not None:
        header += f" {analysis.total_mines}"
    lines = [" ".join(token.rjust(column) for token in row) for row in rows]
    return "\n".join([header, *lines]) + "\n"


def format_percent_grid(board: Board, analysis: PositionAnalysis) -> str:
    """:func:`format_probability_grid` in whole percents, every cell two columns wide.

    Why: three decimals make a cell six columns, 180 on an expert board; two columns
    and a space make it 90, inside a 100-column terminal.
    """
    return _grid(board, analysis, lambda weight: _format_percent(weight, analysis.layouts), 2)


def format_probability_grid(board: Board, analysis: PositionAnalysis, decimals: int = 3) -> str:
    """The position with each covered cell's probability, columns aligned, header first."""
    return _grid(
        board,
        analysis,
        lambda weight: _format_probability(weight, analysis.layouts, decimals),
        None,
    )


def probabilities_json(board: Board, analysis: PositionAnalysis) -> dict:
    """``{"width", "height", "mines", "probabilities"}``; null where there is no probability."""
    rows = []
    for y in range(board.height):
        row = []
        for x in range(board.width):
            p = float(analysis.probabilities[y, x])
            row.append(None if math.isnan(p) else p)
        rows.append(row)
    return {
        "width": board.width,
        "height": board.height,
        "mines": analysis.total_mines,
        "probabilities": rows,
    }


def _check_output(path: str, board_path: str, force: bool) -> None:
    out = Path(path)
    try:
        same = out.exists() and out.resolve() == Path(board_path).resolve()
    except OSError:
        same = False
    if same:
        raise CliError(f"{path}: is the input BOARD; choose another output file")
    if out.is_dir():
        raise CliError(f"{path}: is a directory, not an output file")
    if out.exists() and not force:
        raise CliError(f"{path}: already exists; use --force to overwrite it")


def terminal_columns() -> int | None:
    """Columns of the terminal standard output shows in, or ``None`` when it is not a
    terminal (a pipe, a file): only a person's terminal gets a grid fitted to it."""
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def widest_line(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


def _grid_text(args: argparse.Namespace, board: Board, analysis: PositionAnalysis) -> str:
    """The grid as asked: compact, full, or (neither asked, on a terminal) the full grid
    unless it is wider than the terminal."""
    if args.compact:
        return format_percent_grid(board, analysis)
    full = format_probability_grid(board, analysis, args.decimals or DEFAULT_DECIMALS)
    if args.compact is False or args.decimals is not None or args.output is not None:
        return full
    columns = terminal_columns()
    if columns is not None and widest_line(full) > columns:
        return format_percent_grid(board, analysis)
    return full


def run(args: argparse.Namespace) -> int:
    if args.decimals is not None and not 1 <= args.decimals <= 15:
        raise CliError(f"--decimals must be between 1 and 15, got {args.decimals}")
    if args.output is not None:
        _check_output(args.output, args.board, args.force)
    position = PositionFile(args.board, args.mines)
    board = position.board
    try:
        analysis = analyse_position(board)
    except InconsistentBoardError as error:
        raise position.inconsistent(error) from None
    if args.json:
        output = json.dumps(probabilities_json(board, analysis)) + "\n"
    else:
        output = _grid_text(args, board, analysis)
    if args.output is None:
        sys.stdout.write(output)
        return 0
    try:
        write_text(args.output, output)
    except OSError as error:
        raise CliError(f"{args.output}: cannot write: {error.strerror or error}") from None
    return 0


__all__ = ["format_probability_grid", "probabilities_json", "run"]
