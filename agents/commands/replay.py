"""``semiautomines replay``: a game ``evaluate --save-games`` kept, or a person's replay
file, move by move on the terminal.

The screen is ``play``'s; the guesses are the recorded ones. It starts paused:
the right arrow plays the next guess (the auto-solver animates as in ``play``),
the left arrow takes one back, space plays on by itself. A replay file
(``.avf``, ``.rmv``, ``.mvf``, ``.evf``, ``.msor``) steps from one of the player's guesses to
the next (see :mod:`semiautomines_agents.watching.human`).
"""

from __future__ import annotations

import argparse

from minesweep_env.cli.errors import CliError
from minesweep_env.tui import GameSpec, watch

from ..evaluation.saved_games import GAMES_FILE, Played, SavedGamesError, load_saved_games
from ..watching import RecordDriver
from ..watching.film import write_film
from .replay_human import is_replay_file, run_human_replay
from .watch import DEFAULT_DELAY, add_playback_arguments, check_delay, check_terminal

EXAMPLES = f"""\
examples:
  semiautomines evaluate --agents greedy,search --boards expert --games 100 --save-games
  semiautomines replay results/run-20261123-201500 --game 17 --agent search
  semiautomines replay results/run-20261123-201500 --game 17 --agent greedy --gif g17.gif
  semiautomines replay game.avf                 # a person's game, guess by guess

RUN_FOLDER is a folder evaluate wrote with --save-games ({GAMES_FILE}). --agent and
--board choose among its games when it holds several agents or boards; K is the
game's number, as in games.csv. A replay file (Arbiter .avf, Viennasweeper .rmv,
Minesweeper Clone .mvf, Metasweeper .evf, minesweeper.online .msor) needs no --game:
the auto-solver makes the moves logic proves, and each step is the player's next guess.

keys: right arrow next guess, left arrow one back, space plays on by itself (and
pauses), p odds overlay, a animation on/off, r start over, q quit.

exit status: 0, or 2 for a bad run folder, replay file, agent, board or game number (one
line on stderr).
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a game an evaluation saved, or a replay file, step by step in the terminal",
        description="Replay one game of an `evaluate --save-games` run on the terminal "
        "game's screen, guess by guess with the arrow keys.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "run_folder", metavar="RUN_FOLDER", help="a run folder of evaluate, or a replay file"
    )
    parser.add_argument(
        "--game", type=int, metavar="K", help="the game number (needed for a run folder)"
    )
    parser.add_argument("--agent", help="whose game (needed when the run has several agents)")
    parser.add_argument("--board", help="which board or map (when the run has several)")
    add_playback_arguments(
        parser, f"pause between guesses once space plays on (default {DEFAULT_DELAY})"
    )
    parser.set_defaults(func=run)


def _choose(values: list[str], given: str | None, what: str, folder: str) -> str:
    """The agent or board asked for, or the only one there is."""
    known = list(dict.fromkeys(values))
    if given is not None:
        if given not in known:
            raise CliError(f"{folder}: no games of {what} {given!r}; it has {', '.join(known)}")
        return given
    if len(known) > 1:
        raise CliError(
            f"{folder}: games of several {what}s ({', '.join(known)}): choose one with --{what}"
        )
    return known[0]


def find_game(folder: str, game: int, agent: str | None, board: str | None) -> Played:
    """The saved game asked for.

    :raises CliError: one line naming what is missing and what there is.
    """
    try:
        played = load_saved_games(folder)
    except SavedGamesError as error:
        raise CliError(str(error)) from None
    if not played:
        raise CliError(f"{folder}: {GAMES_FILE} holds no games")
    agent = _choose([p.agent for p in played], agent, "agent", folder)
    played = [p for p in played if p.agent == agent]
    board = _choose([p.board for p in played], board, "board", folder)
    played = [p for p in played if p.board == board]
    for candidate in played:
        if candidate.record.index == game:
            return candidate
    numbers = sorted(p.record.index for p in played)
    span = f"{numbers[0]}..{numbers[-1]}" if numbers[-1] - numbers[0] + 1 == len(numbers) else ""
    listed = span or ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")
    raise CliError(f"{folder}: no game {game} of {agent} on {board}; games: {listed}")


def run(args: argparse.Namespace) -> int:
    check_delay(args.delay)
    if is_replay_file(args.run_folder):
        return run_human_replay(args)
    if args.game is None:
        raise CliError(f"{args.run_folder}: give the game to replay with --game K")
    played = find_game(args.run_folder, args.game, args.agent, args.board)
    try:
        driver = RecordDriver(played)
        width, height = driver.game().width, driver.game().height
    except ValueError as error:  # a rule set this installation does not know
        raise CliError(f"{args.run_folder}: {error}") from None
    if args.gif is not None:
        print(write_film(driver, args.gif))
        return 0
    check_terminal(width, height)
    spec = GameSpec(
        rule_set=played.rule_set,
        first_click=played.first_click,
        size=(width, height, int(played.saved.mines.sum())),
        driver=driver,
        delay=args.delay,
        start_paused=True,
    )
    problem = watch(spec, animate=args.animate)
    if problem is not None:
        raise CliError(problem)
    return 0
