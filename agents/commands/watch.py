"""``semiautomines watch``: an agent plays on the terminal game's screen, one guess at a time.

The screen is ``play``'s (geometry, smiley, counters, colours, the auto-solver's
animation); the agent makes every guess, ``--delay`` seconds apart, and the
status says each guess's chance of being a mine (and the search agent's
two-move survival). The games are ``evaluate``'s: game K with ``--seed S`` is
game K of ``evaluate --seed S`` on the same board, played the same way.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from minesweep_env.cli.arguments import MAX_SEED as SHARED_MAX_SEED
from minesweep_env.cli.arguments import check_seed
from minesweep_env.cli.errors import CliError
from minesweep_env.core.first_click import FIRST_CLICK_POLICIES
from minesweep_env.solver.registry import RULE_SETS, get_rule_set
from minesweep_env.tui import GameSpec, watch
from minesweep_env.tui.geometry import fits

from .. import ModelNotFoundError, make_agent
from ..evaluation import Settings, Target, board_target, map_targets
from ..watching import AgentDriver
from ..watching.film import write_film

DEFAULT_DELAY = 0.5
"""Seconds between guesses: slow enough to follow, quick enough not to bore."""
MAX_SEED = SHARED_MAX_SEED
"""Largest --seed: evaluate's bound, so game K of seed S is the same game in both."""

EXAMPLES = """\
examples:
  semiautomines watch                                # search on beginner, a random run seed
  semiautomines watch --board expert --seed 0 --game 12   # game 12 of evaluate --seed 0
  semiautomines watch maps/ioccc/ioccc.txt --agent greedy --delay 0
  semiautomines watch --board expert --agent search --seed 3 --gif expert.gif

keys: space pauses and plays on, right arrow plays one guess, left arrow takes one
back, p odds overlay, a animation on/off, r (or the smiley) the next seeded game, q quit.

With --gif FILE no terminal is needed: the game is played off-screen and written as an
animated GIF (the env's rgb_array picture, each guess outlined in blue).
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="watch an agent play in the terminal, guess by guess",
        description="Watch an agent play semi-automatic Minesweeper on the terminal game's "
        "screen: the agent makes every guess, the auto-solver every safe move.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "map",
        nargs="?",
        metavar="MAP",
        help="map file (IOCCC, x/o grid, .mbf, .abf or JSMinesweeper text)",
    )
    parser.add_argument(
        "--agent", default="search", help="who plays, settings included (default search)"
    )
    parser.add_argument("--model", metavar="PATH", help="the ppo agent's model (weights only)")
    parser.add_argument(
        "--trust-model", action="store_true", help="let --model be a stable-baselines3 zip"
    )
    parser.add_argument(
        "--board", help="beginner, intermediate, expert or WIDTHxHEIGHTxMINES (default beginner)"
    )
    parser.add_argument("--width", type=int, help="board width in cells (with --height)")
    parser.add_argument("--height", type=int, help="board height in cells (with --width)")
    parser.add_argument("--mines", type=int, help="number of mines (default: a fifth of the cells)")
    parser.add_argument(
        "--rule-set",
        default="complete",
        help=f"auto-solver rule set, one of: {', '.join(sorted(RULE_SETS))} (default complete)",
    )
    parser.add_argument(
        "--first-click",
        choices=FIRST_CLICK_POLICIES,
        default="safe",
        help="first-click policy (default safe, as evaluate)",
    )
    parser.add_argument(
        "--seed", type=int, help="run seed, as evaluate's (default: a random one, shown)"
    )
    parser.add_argument("--game", type=int, default=0, help="the first game's number (default 0)")
    add_playback_arguments(
        parser, f"pause between guesses (default {DEFAULT_DELAY}; 0 as fast as possible)"
    )
    parser.set_defaults(func=run)


def add_playback_arguments(parser: argparse.ArgumentParser, delay_help: str) -> None:
    """--delay, --animate and --gif: how a game is shown, the same for watch and replay."""
    parser.add_argument(
        "--delay", type=float, default=DEFAULT_DELAY, metavar="SECONDS", help=delay_help
    )
    parser.add_argument(
        "--animate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="show the auto-solver step by step (default) or its result at once",
    )
    parser.add_argument(
        "--gif", metavar="FILE", help="write the game as an animated GIF instead (no terminal)"
    )


def target_of(args: argparse.Namespace) -> Target:
    """The board or map the games are played on."""
    sized = args.width is not None or args.height is not None
    if args.map is not None and (args.board or sized or args.mines is not None):
        raise CliError("give a MAP or a board (--board, --width/--height/--mines), not both")
    if args.board is not None and (sized or args.mines is not None):
        raise CliError("give --board or --width/--height/--mines, not both")
    if (args.width is None) != (args.height is None):
        raise CliError("--width and --height go together")
    if args.mines is not None and not sized:
        raise CliError("--mines needs --width and --height")
    try:
        if args.map is not None:
            targets = map_targets([Path(args.map)])
            if len(targets) != 1:
                raise CliError(f"{args.map}: holds maps of several sizes; give one map file")
            return targets[0]
        if sized:
            mines = args.width * args.height // 5 if args.mines is None else args.mines
            return board_target(f"{args.width}x{args.height}x{mines}")
        return board_target(args.board or "beginner")
    except (ValueError, FileNotFoundError, PermissionError, IsADirectoryError) as error:
        raise CliError(str(error)) from None


def check_terminal(width: int, height: int) -> None:
    """Refuse to start without a terminal, or in one too small for the field."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("needs a terminal (stdin and stdout a tty), or --gif FILE")
    try:
        cols, lines = os.get_terminal_size(sys.stdout.fileno())
    except OSError:
        return  # curses will tell
    if not fits(width, height, lines, cols):
        raise CliError(
            f"a {width}x{height} field needs a terminal of at least {max(2 * width, 11)}x"
            f"{height + 1} (columns x lines); this one is {cols}x{lines}"
        )


def check_delay(delay: float) -> None:
    if not 0 <= delay <= 60:
        raise CliError(f"--delay must be between 0 and 60 seconds, got {delay}")


def run(args: argparse.Namespace) -> int:
    try:
        get_rule_set(args.rule_set)
    except ValueError as error:
        raise CliError(str(error)) from None
    check_delay(args.delay)
    seed = secrets.randbelow(2**32) if args.seed is None else check_seed(args.seed)
    if args.game < 0:
        raise CliError(f"--game must be 0 or more, got {args.game}")
    target = target_of(args)
    zone = {"safe": 1, "zero": 9}.get(args.first_click, 0)
    if target.width * target.height - target.mines < zone:
        raise CliError(f"{target.name}: no room for a {args.first_click} first click")
    try:
        agent = make_agent(args.agent, model=args.model, trust_model=args.trust_model)
    except (ValueError, ModelNotFoundError) as error:
        raise CliError(str(error)) from None
    settings = Settings(args.rule_set, args.first_click, seed, args.model, args.trust_model)
    driver = AgentDriver(agent, args.agent, target, settings, first_game=args.game)
    if args.gif is not None:
        print(write_film(driver, args.gif))
        return 0
    check_terminal(target.width, target.height)
    spec = GameSpec(
        rule_set=args.rule_set,
        first_click=args.first_click,
        size=(target.width, target.height, target.mines),
        seed=seed,
        driver=driver,
        delay=args.delay,
    )
    problem = watch(spec, animate=args.animate)
    if problem is not None:
        raise CliError(problem)
    return 0
