"""``semiautomines review``: a coach for a human game, from its replay file.

Reads an Arbiter ``.avf``, Viennasweeper ``.rmv``, Minesweeper Clone ``.mvf``,
Metasweeper ``.evf`` or minesweeper.online ``.msor`` replay, finds every guess (a
cell a probe or a chord opened that no logic proved safe),
and prints for each the risk taken, the lowest risk on offer and the search
agent's advice (see :mod:`semiautomines_agents.coach`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from minesweep_env import compiled
from minesweep_env.cli.errors import CliError
from minesweep_env.errors import MapFormatError
from minesweep_env.formats.replay import read_replay

from ..coach import Review, review_replay
from .guess import advising_agent

EXAMPLES = """\
examples:
  semiautomines review game.avf
  semiautomines review game.rmv --json
  semiautomines review game.evf --agent search:depth=3

REPLAY is a replay file: Arbiter .avf, Viennasweeper .rmv, Minesweeper Clone .mvf,
Metasweeper .evf or minesweeper.online .msor (its layout rebuilt from the cells its
clicks showed; a file no layout explains is refused). A guess is a cell opened
(by a probe, or by a chord: every covered, unflagged neighbour of the number)
whose mine probability was above zero given the numbers on show and the mine
total (the player's flags are set aside); the first probe is not judged. A chord
on a wrong or unproven flag is a guess on each such cell it opens, marked with
the chord's cell. Cells are (x, y) from the top left, 0-based; a move is the action's number in the
replay (probes, flags and chords, from 1).

For each guess: its mine probability, the lowest on the board at that moment
(safest), whether the cell was a forced 50/50, and the agent's advice (the cell
and what decided it, as `semiautomines guess` says). The summary: the chance of
surviving the guesses taken against that of the safest cells, and the board's
3BV, ZiNi, openings and islands.

--json prints {"replay", "guesses": [{"move", "x", "y", "probability", "safest",
"advice", "forced", "lost", "chord", "conditional"}, ...], "summary": {"guesses",
"survival_taken", "survival_best", "bbbv", "zini", "openings", "islands", "forced",
"chord_guesses", "outcome", "completed", "moves", "program", "width", "height",
"mines"}}; "advice" is `guess --json`'s object; "chord" is {"x", "y"} of the chorded
number, or null for a probe; "conditional" the mine probability given the same
chord's earlier cells are safe (so survival_taken counts a chord at its joint
risk); "outcome" is how the actions end replayed here, "completed" whether the file
says won.

exit status: 0, or 2 for a file that cannot be read (one line on stderr).
"""

PROGRESS_AFTER = 2.0
"""Seconds after which a long review shows its progress on stderr."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "review",
        help="the guesses of a human game's replay, with their risk and the agent's advice",
        description="Review a replay (.avf, .rmv, .mvf, .evf, .msor): every guess, the risk "
        "taken against the lowest on offer, and what the search agent advises.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "replay", metavar="REPLAY", help="a replay file (.avf .rmv .mvf .evf .msor)"
    )
    parser.add_argument(
        "--agent",
        default="search",
        help="the advising agent, settings included (default search; e.g. search:depth=3)",
    )
    parser.add_argument("--json", action="store_true", help="write JSON instead of a table")
    parser.set_defaults(func=run)


class _Progress:
    """``move k of n`` on stderr once the review has taken :data:`PROGRESS_AFTER` s: one
    line rewritten on a terminal, a line every :data:`PROGRESS_AFTER` s elsewhere."""

    def __init__(self) -> None:
        self.start = self.last = time.monotonic()
        self.terminal = sys.stderr.isatty()
        self.shown = False

    def __call__(self, move: int, moves: int) -> None:
        now = time.monotonic()
        if now - self.start < PROGRESS_AFTER:
            return
        if self.terminal:
            print(f"\rreview: move {move} of {moves}", end="", file=sys.stderr, flush=True)
            self.shown = True
        elif now - self.last >= PROGRESS_AFTER:
            print(f"review: move {move} of {moves}", file=sys.stderr, flush=True)
            self.last = now

    def done(self) -> None:
        if self.shown:
            print(file=sys.stderr)


def _advised(advice: dict[str, Any]) -> str:
    decided = advice.get("decided_by") or advice["reason"]
    return f"({advice['x']}, {advice['y']}) {decided}"


def review_text(review: Review) -> str:
    """The review as a table for a person."""
    replay, summary = review.replay, review.summary()
    lines = [
        f"{replay.source}: {replay.program}, {replay.width}x{replay.height}, "
        f"{replay.mines} mines, {summary['outcome']} after {summary['moves']} moves",
        "",
    ]
    if replay.completed != (review.outcome == "won"):
        said = "won" if replay.completed else "not won"
        note = f"note: the file says the game was {said}; replayed here it is {review.outcome}"
        lines += [note, ""]
    if review.guesses:
        lines.append(f"{'move':>5} {'cell':>9} {'mine':>7} {'safest':>7} {'50/50':>6}  advice")
        for g in review.guesses:
            cell = f"({g.x}, {g.y})"
            forced = "forced" if g.forced else ""
            end = "" if g.chord is None else f"  chord on ({g.chord[0]}, {g.chord[1]})"
            end += "  <- lost" if g.lost else ""
            lines.append(
                f"{g.move:>5} {cell:>9} {g.probability:>7.4f} {g.safest:>7.4f} {forced:>6}  "
                f"{_advised(g.advice)}{end}"
            )
            if g.advice.get("why"):
                lines.append(f"{'':>40}{g.advice['why']}")
        lines.append("")
    else:
        lines += ["no guesses: every cell opened after the first probe was proven safe", ""]
    lines += [
        f"guesses {summary['guesses']} ({summary['forced']} forced 50/50): survival "
        f"{summary['survival_taken']:.4f} taken, {summary['survival_best']:.4f} on the "
        "safest cells",
        f"3BV {replay.bbbv}, ZiNi {replay.zini}, openings {replay.openings}, "
        f"islands {replay.islands}",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    # A game's positions one by one: the exact engine answers each sooner than numba loads.
    compiled.exact_only()
    agent = advising_agent(args.agent)
    try:
        replay = read_replay(args.replay)
    except MapFormatError as error:
        raise CliError(str(error)) from None
    progress = _Progress()
    try:
        review = review_replay(replay, agent, progress)
    finally:
        progress.done()
    if args.json:
        print(json.dumps(review.as_json()))
    else:
        print(review_text(review))
    return 0
