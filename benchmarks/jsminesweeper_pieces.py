"""How often JSMinesweeper's pieces that ``search`` lacks apply at ``search``'s decisions.

Reads a guess log (``benchmarks/guess_log.py``) and asks of every guess which of
:mod:`regret.pieces` applies: a closed chain of 50/50 links that no forced pair
or box covers, an isolated edge (and whether search's cell in one is its exact
best), the exact endgame past its work budget. Where the log holds
JSMinesweeper's cells, how often its cell differs there too. A piece that
seldom applies, or where ``search`` already plays its move, cannot be worth
much; this says which are worth building before any game is played.

Run: ``python benchmarks/jsminesweeper_pieces.py --guesses runs/expert_guesses.jsonl``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from regret.decisions import Decision, add_log_arguments, check_log_arguments, read_decisions
from regret.pieces import EDGE_LAYOUTS, Pieces, pieces
from tqdm import tqdm

from minesweep_env.solver.probability import count_position
from semiautomines_agents.search.settings import ENDGAME_LAYOUTS

Found = tuple[Decision, Pieces]

HEADER = (
    "| piece | decisions | decided by the look-ahead | games | JSMinesweeper's cell "
    "differs |\n|---|---:|---:|---:|---:|"
)


def _line(label: str, found: list[Found], test: Callable[[Pieces], bool]) -> str:
    hits = [decision for decision, piece in found if test(piece)]
    ahead = sum(d.reason == "search" for d in hits)
    peer = [d for d in hits if d.jsminesweeper is not None]
    differs = sum(d.jsminesweeper != d.cell for d in peer)
    return (
        f"| {label} | {len(hits)} | {ahead} | {len({d.game for d in hits})} "
        f"| {f'{differs} of {len(peer)}' if peer else 'n/a'} |"
    )


def table(found: list[Found], games: int) -> str:
    """The pieces' table of a log's decisions, and the isolated edges' exact gain."""
    lines = [
        HEADER,
        _line("closed chain of 50/50 links, no forced pair or box", found, lambda p: p.chain),
        _line("isolated edge", found, lambda p: p.edges > 0),
        _line(
            f"isolated edge of a fixed mine count, at most {EDGE_LAYOUTS:,} layouts",
            found,
            lambda p: p.solved_edges > 0,
        ),
        _line("search's cell in such an edge", found, lambda p: p.in_edge),
        _line(
            "search's cell in such an edge, not its exact best",
            found,
            lambda p: p.edge_gain > 1e-9,
        ),
        _line(
            f"exact endgame past its work budget (at most {ENDGAME_LAYOUTS:,} layouts)",
            found,
            lambda p: p.past_budget,
        ),
    ]
    gain = sum(piece.edge_gain for _, piece in found)
    note = (
        f"{len(found):,} guesses in {games:,} games. Search's cells in isolated edges "
        f"lose {100 * gain / games:.4f} points of the edge's win probability per game "
        "against the edge's exact best (the game's win probability loses at most that)."
    )
    return "\n".join(lines) + "\n\n" + note


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_log_arguments(parser)
    parser.add_argument("--markdown", type=Path, help="write the table here too")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    check_log_arguments(parser, args)
    decisions, games = read_decisions(args.guesses, args.games)
    found: list[Found] = []
    try:
        for decision in tqdm(decisions, "decisions", disable=args.no_progress):
            board = decision.board
            weights = count_position(board)
            found.append(
                (
                    decision,
                    pieces(board, weights, decision.cell, decision.reason, ENDGAME_LAYOUTS),
                )
            )
    except KeyboardInterrupt:
        print(f"stopped after {len(found):,} decisions", file=sys.stderr)
        return 130
    text = table(found, len(games))
    print(text)
    if args.markdown:
        words = sys.argv[1:] if argv is None else argv
        command = " ".join(["python benchmarks/jsminesweeper_pieces.py", *map(shlex.quote, words)])
        args.markdown.write_text(f"```sh\n{command}\n```\n\n{text}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
