"""``semiautomines play``: the terminal game, played with the mouse like the IOCCC original."""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.board_spec import size_problem
from ..core.first_click import FIRST_CLICK_POLICIES, FirstClick
from ..core.layout import MineLayout
from ..core.minefield import WinRule
from ..errors import MapFormatError
from ..formats import load_board, load_layout
from ..formats.start_file import load_start, start_path
from ..game import program_win_rule
from ..solver.registry import get_rule_set
from .arguments import BOARD_HELP, board_size, board_spec
from .errors import CliError

if TYPE_CHECKING:
    from ..tui import GameSpec
    from ..tui.probability_worker import Advisor

ADVISORS_GROUP = "semiautomines.advisors"
"""Entry-point group of the advisers the ``h`` key can ask (name = adviser, value =
a factory returning an :data:`~minesweep_env.tui.probability_worker.Advisor`); the
agents package declares ``search``. The library never imports the agents."""
ADVISOR = "search"

EXAMPLE = """\
examples:
  semiautomines play                          # the IOCCC program: the field fills the terminal
  semiautomines play maps/ioccc/ioccc.txt     # play a map file (IOCCC map or layout grid)
  semiautomines play --board expert --seed 7  # 30x16, 99 mines, reproducible
  semiautomines play maps/ioccc/unwinnable.txt --rule-set endoh-alt   # flag by hand to win

mouse: left click probes (the smiley starts a new game), right click flags.
A map with a NAME.start file beside it (a no-guess map) opens its start cell by itself.

keys:  arrows move, space/enter probe, f flag, p odds overlay, h hint (the search
       agent's guess when the agents are installed, else the safest cell),
       a animation on/off, r new game, q quit.
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal with the mouse; the auto-solver makes every safe move",
        description=(
            "Semi-automatic Minesweeper in the terminal. You make the guesses; after each\n"
            "one the rule set opens every cell it proves safe and flags every proven mine.\n"
            "Without MAP or a size the field fills the terminal, a fifth of the cells mines,\n"
            "as the IOCCC 2020 endoh1 program. Cell (x, y) is drawn at screen row y+1,\n"
            "columns 2x and 2x+1, under a status line: mines left, the smiley, the timer."
        ),
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "map",
        nargs="?",
        metavar="MAP",
        help="map file (IOCCC, x/o grid, .mbf, .abf or JSMinesweeper text)",
    )
    parser.add_argument(
        "--rule-set",
        default="endoh",
        help=f"auto-solver rule set, one of: {', '.join(_rule_set_names())} (default: endoh)",
    )
    parser.add_argument("--board", type=board_spec, metavar="BOARD", help=BOARD_HELP)
    parser.add_argument("--width", type=int, help="board width in cells (with --height)")
    parser.add_argument("--height", type=int, help="board height in cells (with --width)")
    parser.add_argument("--mines", type=int, help="number of mines (default: a fifth of the cells)")
    parser.add_argument(
        "--first-click",
        choices=FIRST_CLICK_POLICIES,
        default=FirstClick.ENDOH.value,
        help="first-probe protection; endoh (default, as the original) removes a mine "
        "under the first probe, safe moves it, zero clears its neighbours too, none",
    )
    parser.add_argument(
        "--win-rule",
        choices=[rule.value for rule in WinRule],
        help="when a game is won: nothing-covered (every mine flagged too, by the solver or "
        "by hand) or safe-cells-opened; default: nothing-covered with endoh and endoh-alt, "
        "as the original (unwinnable.txt waits for a hand flag), safe-cells-opened otherwise",
    )
    parser.add_argument("--seed", type=int, help="seed for layouts and first-click moves")
    parser.add_argument(
        "--animate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="show the auto-solver step by step (default) or its result at once",
    )
    parser.set_defaults(func=run)


def _rule_set_names() -> list[str]:
    from ..solver.registry import RULE_SETS

    return sorted(RULE_SETS)


def run(args: argparse.Namespace) -> int:
    from ..tui import play

    spec = build_spec(args)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("play needs a terminal: stdin and stdout must both be a tty")
    _check_terminal(spec)
    error = play(spec, animate=args.animate)
    if error is not None:
        raise CliError(error)
    return 0


def find_advisor(name: str = ADVISOR) -> Advisor | None:
    """The named adviser from the ``semiautomines.advisors`` entry points, or ``None``
    when none is installed or it cannot be loaded (the hint is then the safest cell)."""
    for entry in entry_points(group=ADVISORS_GROUP):
        if entry.name == name:
            try:
                return entry.load()()
            except Exception as error:  # a broken plug-in must not stop the game, nor fail unseen
                print(
                    f"semiautomines play: the {name} adviser cannot be loaded "
                    f"({type(error).__name__}: {error}); h shows the safest cell",
                    file=sys.stderr,
                )
                return None
    return None


def build_spec(args: argparse.Namespace) -> GameSpec:
    """Check the arguments and turn them into the spec every new game is made from."""
    from ..tui import GameSpec

    try:
        get_rule_set(args.rule_set)
    except ValueError as error:
        raise CliError(str(error)) from None
    if args.seed is not None and args.seed < 0:
        raise CliError(f"--seed must be 0 or more, got {args.seed}")
    sized = args.board is not None or args.width is not None or args.height is not None
    if args.map is not None and (sized or args.mines is not None):
        raise CliError("give a MAP or a board size (--board, --width/--height/--mines), not both")
    if args.board is not None and (args.width is not None or args.height is not None):
        raise CliError("give --board or --width/--height, not both")
    if (args.width is None) != (args.height is None):
        raise CliError("--width and --height go together")
    layout = size = None
    map_path = None
    start: tuple[int, int] | None = None
    if args.map is not None:
        map_path = Path(args.map)
        layout = _load_map(map_path)
        width, height, mines = layout.width, layout.height, layout.mine_count
        start = _map_start(map_path, width, height)
    elif sized:
        width, height, mines = (
            board_size(args.board) if args.board else (args.width, args.height, 0)
        )
        problem = size_problem(width, height)
        if problem is not None:
            raise CliError(problem)
        if args.mines is not None:
            mines = args.mines
        elif args.board is None:
            mines = width * height // 5
        size = (width, height, mines)
    elif args.mines is not None:
        raise CliError("--mines needs --width and --height (or --board)")
    if layout is not None or size is not None:
        _check_mines(width, height, mines, args.first_click)
    return GameSpec(
        rule_set=args.rule_set,
        first_click=args.first_click,
        layout=layout,
        size=size,
        map_path=map_path,
        seed=args.seed,
        win_rule=args.win_rule or program_win_rule(args.rule_set).value,
        start=start,
        **_advice(),
    )


def _load_map(path: Path) -> MineLayout:
    """The map's layout; a position file (a player's view, no mines in it) is named as
    such, in one line saying which commands read it, instead of the map reader's complaint."""
    try:
        return load_layout(path)
    except MapFormatError:
        try:
            load_board(path)
        except (MapFormatError, ValueError):
            raise  # neither: the map reader's message says what is wrong
        raise CliError(
            f"{path}: this is a position (what a player sees, with no mines in it), not a map: "
            "it cannot be played; analyse it with `semiautomines probabilities` or "
            "`semiautomines guess`"
        ) from None


def _map_start(path: Path, width: int, height: int) -> tuple[int, int] | None:
    """The start cell in the map's ``.start`` file, checked against the board, or ``None``."""
    start = load_start(path)
    if start is not None and not (0 <= start[0] < width and 0 <= start[1] < height):
        raise CliError(
            f"{start_path(path)}: start cell ({start[0]}, {start[1]}) is outside the "
            f"{width}x{height} map"
        )
    return start


def _advice() -> dict:
    """The ``h`` key's adviser for the spec, when one is installed."""
    advisor = find_advisor()
    return {} if advisor is None else {"advisor": advisor, "advisor_name": ADVISOR}


def _check_mines(width: int, height: int, mines: int, first_click: str) -> None:
    cells = width * height
    if not 0 <= mines <= cells:
        raise CliError(f"--mines must be in 0..{cells} for a {width}x{height} board, got {mines}")
    zone = {"safe": 1, "zero": min(9, cells)}.get(first_click, 0)
    if mines > cells - zone:
        raise CliError(
            f"{mines} mines leave no room for the {first_click!r} first click "
            f"on a {width}x{height} board (at most {cells - zone})"
        )


def _check_terminal(spec: GameSpec) -> None:
    """Refuse a field larger than the terminal before curses touches the screen."""
    try:
        cols, lines = os.get_terminal_size(sys.stdout.fileno())
    except OSError:
        return  # curses will tell
    from ..tui.geometry import fits

    if spec.layout is not None:
        width, height = spec.layout.width, spec.layout.height
    elif spec.size is not None:
        width, height = spec.size[:2]
    else:
        return  # the field is made to fill the terminal
    if not fits(width, height, lines, cols):
        what = f"map {spec.map_path}" if spec.map_path else "board"
        raise CliError(
            f"{what} is {width}x{height} cells: it needs a terminal of at least "
            f"{max(2 * width, 11)}x{height + 1} (columns x lines); this one is {cols}x{lines}"
        )
