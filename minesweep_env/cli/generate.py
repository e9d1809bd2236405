"""``semiautomines generate``: write random maps, or no-guess maps, in the IOCCC format
or as MinesweeperX board files (``--format mbf``) that other Minesweeper tools open."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from tqdm import tqdm

from ..core.board_spec import size_problem
from ..core.layout import MineLayout
from ..fileio import write_bytes, write_text
from ..formats import format_ioccc, format_mbf, format_start, start_path
from ..formats.mbf import MAX_MINES as MBF_MAX_MINES
from ..formats.mbf import MAX_SIDE as MBF_MAX_SIDE
from ..generation.no_guess import (
    METHODS,
    check_fits,
    default_start,
    generate_no_guess,
    generate_random,
)
from ..solver.base import RuleSet
from ..solver.registry import get_rule_set
from .arguments import BOARD_HELP, board_label, board_spec
from .arguments import board_size as size_of_spec
from .errors import EXIT_OK, CliError
from .stopping import interrupts_held

MAX_COUNT = 100_000
"""Most maps one run writes: the names are listed (and checked free) before the first."""
FORMATS = {"ioccc": ".txt", "mbf": ".mbf"}
"""``--format`` choices and the extension of the files each writes."""
MAX_DRAWS = 10_000
"""Enough for the standard boards by far (expert: about 7 draws per map with rejection)."""

EXAMPLES = """\
examples:
  semiautomines generate --board expert --no-guess --count 10 --seed 1 --out maps/mine
  semiautomines generate --width 20 --height 10 --mines 30 --start 0 0 --out /tmp/maps
  semiautomines generate --board beginner --no-guess --rule-set complete --json --out x

Maps are named PREFIX-NNN.txt (PREFIX: the board name, or WxH-M) and never
written over: if a name is taken nothing is written. Map i of a run depends
only on (--seed, i), so a run can be repeated or extended exactly.

--no-guess: every map is solvable from the start cell by the rule set's
auto-solver alone (checked with the same code as "semiautomines solvable"),
and the start cell and its neighbours hold no mine. The start defaults to the
centre (width // 2, height // 2) and is written beside each map in
PREFIX-NNN.start (one line "x y"), which the evaluation harness reads.
--method rejection (default) draws uniform layouts until one is solvable:
every no-guess layout is equally likely; expert takes about 8 draws. --method
repair moves a mine away from wherever the solver gets stuck: much faster on
dense boards, slightly biased (measured in benchmarks/generate.py).

Without --no-guess, layouts are uniform over all layouts; with --start, over
those whose start cell and neighbours are mine-free (the start file is written).

--format mbf writes PREFIX-NNN.mbf instead: MinesweeperX's board file, which
JSMinesweeper and other community tools open (at most 255x255 cells and 65535
mines; the start cell stays in PREFIX-NNN.start, which those tools ignore).

exit status: 0 maps written, 2 bad input or a name already taken (one line)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="write random or no-guess maps (IOCCC format, or .mbf board files)",
        description="Write maps in the IOCCC format, optionally solvable without guessing.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    size = parser.add_argument_group("board (--board, or all of --width --height --mines)")
    size.add_argument("--board", type=board_spec, metavar="BOARD", help=BOARD_HELP)
    size.add_argument("--width", type=int, metavar="W")
    size.add_argument("--height", type=int, metavar="H")
    size.add_argument("--mines", type=int, metavar="M")
    parser.add_argument(
        "--start", nargs=2, type=int, metavar=("X", "Y"), help="start cell (default: centre)"
    )
    parser.add_argument(
        "--no-guess", action="store_true", help="only maps solvable from the start cell"
    )
    parser.add_argument(
        "--rule-set",
        metavar="NAME",
        help="rule set that must solve --no-guess maps (default: substitution)",
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        help="how --no-guess layouts are drawn (default: rejection)",
    )
    parser.add_argument(
        "--max-draws",
        type=int,
        default=MAX_DRAWS,
        metavar="N",
        help=f"give up a --no-guess map after N fresh layouts (default: {MAX_DRAWS})",
    )
    parser.add_argument("--count", type=int, default=1, metavar="N", help="maps (default: 1)")
    parser.add_argument("--seed", type=int, metavar="S", help="random seed (default: fresh)")
    parser.add_argument("--prefix", help="file name prefix (default: board name or WxH-M)")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    parser.add_argument("--json", action="store_true", help="list the maps written as JSON")
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        default="ioccc",
        help="file format of the maps: ioccc (text, default) or mbf (MinesweeperX board file)",
    )
    parser.set_defaults(func=run)


def board_size(args: argparse.Namespace) -> tuple[int, int, int, str]:
    """(width, height, mines, default prefix) from --board or --width/--height/--mines."""
    custom = (args.width, args.height, args.mines)
    if args.board:
        if any(v is not None for v in custom):
            raise CliError("give --board or --width/--height/--mines, not both")
        return (*size_of_spec(args.board), board_label(args.board))
    if any(v is None for v in custom):
        raise CliError("give --board NAME, or all three of --width, --height and --mines")
    width, height, mines = custom
    problem = size_problem(width, height)
    if problem is not None:
        raise CliError(problem)
    if not 0 <= mines <= width * height:
        raise CliError(f"--mines must be in 0..{width * height}, got {mines}")
    return width, height, mines, f"{width}x{height}-{mines}"


def run(args: argparse.Namespace) -> int:
    width, height, mines, prefix = board_size(args)
    prefix = args.prefix or prefix
    if args.count < 1:
        raise CliError(f"--count must be at least 1, got {args.count}")
    if args.count > MAX_COUNT:
        raise CliError(f"--count must be at most {MAX_COUNT:,}, got {args.count}")
    if args.seed is not None and args.seed < 0:
        raise CliError(f"--seed must be 0 or more, got {args.seed}")
    if args.max_draws < 1:
        raise CliError(f"--max-draws must be at least 1, got {args.max_draws}")
    if not args.no_guess and (args.rule_set or args.method):
        raise CliError("--rule-set and --method only apply with --no-guess")
    rules: RuleSet | None = None  # with --no-guess only
    start: tuple[int, int] | None = (args.start[0], args.start[1]) if args.start else None
    if args.no_guess:
        start = default_start(width, height) if start is None else start
        try:
            rules = get_rule_set(args.rule_set or "substitution")
            check_fits(width, height, mines, start)
        except ValueError as error:
            raise CliError(str(error)) from None
    elif start is not None and not (0 <= start[0] < width and 0 <= start[1] < height):
        raise CliError(f"start cell ({start[0]}, {start[1]}) is outside the {width}x{height} board")
    if args.format == "mbf" and (max(width, height) > MBF_MAX_SIDE or mines > MBF_MAX_MINES):
        raise CliError(
            f"--format mbf holds boards up to {MBF_MAX_SIDE}x{MBF_MAX_SIDE} with at most "
            f"{MBF_MAX_MINES} mines, not {width}x{height} with {mines}"
        )
    if args.out.exists() and not args.out.is_dir():
        raise CliError(f"{args.out}: exists and is not a folder")
    suffix = FORMATS[args.format]
    paths = [args.out / f"{prefix}-{i:03d}{suffix}" for i in range(args.count)]
    for path in paths:
        for taken in (path, start_path(path)) if start else (path,):
            if taken.exists():
                raise CliError(f"{taken}: already exists; choose another --out or --prefix")
    fresh = args.seed is None  # then a seed from the OS, printed so the run can be repeated
    seed = int(np.random.SeedSequence().generate_state(1)[0]) if fresh else args.seed
    written = []
    for i, path in enumerate(tqdm(paths, desc="maps", unit="map", disable=None, leave=False)):
        rng = np.random.default_rng([seed, i])
        record: dict = {"path": str(path)}
        try:
            if rules is not None:  # --no-guess
                made = generate_no_guess(
                    width,
                    height,
                    mines,
                    rng,
                    start,
                    rules,
                    args.method or "rejection",
                    max_draws=args.max_draws,
                )
                layout = made.layout
                record.update(draws=made.draws, repairs=made.repairs, seconds=made.seconds)
            else:
                layout = generate_random(width, height, mines, rng, start)
        except ValueError as error:
            hint = "" if args.method == "repair" else "; --method repair copes with dense boards"
            raise CliError(f"{path.name}: {error}{hint}") from None
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CliError(f"{args.out}: cannot create folder: {error.strerror or error}") from None
        with interrupts_held():  # a map is written with its start file, or not at all
            _write_new(path, _map_file(layout, args.format))
            if start is not None:
                _write_new(start_path(path), format_start(start))
                record["start"] = list(start)
        written.append(record)
        if not args.json:
            where = f" start {start[0]} {start[1]}" if start else ""
            print(f"wrote {path}{where}")
    if args.json:
        summary = {
            "board": [width, height, mines],
            "seed": seed,
            "no_guess": args.no_guess,
            "rule_set": rules.name if rules else None,
            "method": (args.method or "rejection") if args.no_guess else None,
            "maps": written,
        }
        print(json.dumps(summary))
    elif args.seed is None:
        print(f"seed {seed} (pass --seed {seed} to repeat)")
    return EXIT_OK


def _map_file(layout: MineLayout, file_format: str) -> str | bytes:
    """The map in ``--format``: IOCCC text or MinesweeperX board-file bytes."""
    return format_mbf(layout) if file_format == "mbf" else format_ioccc(layout)


def _write_new(path: Path, content: str | bytes) -> None:
    """Write a file that must not exist yet (another process may have made it since),
    whole or not at all."""
    try:
        if isinstance(content, bytes):
            write_bytes(path, content, exclusive=True)
        else:
            write_text(path, content, exclusive=True)
    except FileExistsError:
        raise CliError(f"{path}: already exists; nothing written over it") from None
    except OSError as error:
        raise CliError(f"{path}: cannot write: {error.strerror or error}") from None
