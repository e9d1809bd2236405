"""Gate a tie-break before building it: what other ways of breaking search's near ties win.

Reads a regret map (``benchmarks/guess_regret.py``'s ``--out``) and the guess log it
measured. At each look-ahead guess, the measured candidates scoring within
``--gap`` of the best form the tie (:mod:`regret.tie_break`); each rule's pick is
credited with its candidate's paired gain over search's choice, already measured.
Only the log's first games whose every decision is measured count, so a map still
running gives an honest partial table. The table says which lever, if any, is worth
a 20,000-game run: a rule whose interval does not clear 0 here will not clear it there.

Run: ``python benchmarks/tie_breaks.py --guesses runs/expert_guesses.jsonl
--regret runs/expert_regret.jsonl --gap 0.005``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from regret.decisions import (
    add_log_arguments,
    check_log_arguments,
    complete_games,
    read_decisions,
)
from regret.tie_break import near_ties, table

from semiautomines_agents import make_agent
from semiautomines_agents.search.agent import SearchAgent

ABOUT = """At a look-ahead guess, the candidates that score within a small gap of the best
are where a longer-term value of a guess could overrule the two-move survival. The
regret map (`guess_regret.py`) has already played every measured candidate on the
same layouts, so a rule that picks one of them is credited, at that decision, with
its candidate's paired gain over search's choice: no new games are needed to gate a
tie-break before building it. Only the map's first games whose every decision is
measured count; a gain per game is their sum over those games, with a 95% interval
that takes the game as the unit.

- Fixed rules (the safest, the most progress, JSMinesweeper's cell...) never look
  at outcomes, so their gains are unbiased.
- *learned*: a ridge regression from a candidate's figures (safety, survival,
  progress, expected clears, place...) less those of search's choice to its measured
  gain, fitted on the even-numbered games and applied to the odd ones and the other
  way round, so every gain it is credited with comes from games it never saw.
- *the value network* (`--value`): each tied cell probed in `--value-samples` layouts
  of their own (none of the map's), the auto-solver run, and the cell valued by the
  mean of 0 (a mine), 1 (won) or the network's P(win) of the next position.
- *best of half the layouts*: the cell that won most on the map's even-numbered
  layouts, credited with its gain on the odd-numbered ones. A rule that knew the best
  cell of every tie would win at least this much on average: what is there to be
  had at this gap, at the least.
"""
"""What the page says before its tables."""

GAPS = (0.001, 0.005, 0.02)
"""The relative gaps to the best score the table is given for by default."""


def read_rows(path: Path) -> list[dict]:
    """A regret map's lines, those a hard kill cut short left out."""
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_log_arguments(parser)
    parser.add_argument("--regret", type=Path, required=True, help="guess_regret.py's --out")
    parser.add_argument(
        "--gap",
        type=float,
        action="append",
        help=f"relative gap to the best score (repeatable; default {', '.join(map(str, GAPS))})",
    )
    parser.add_argument("--value", type=Path, help="a value network (NAME.pt) to break ties by")
    parser.add_argument("--value-samples", type=int, default=32, help="layouts per tie for --value")
    parser.add_argument("--markdown", type=Path, help="write the tables here too, as a page")
    args = parser.parse_args(argv)
    check_log_arguments(parser, args)
    if not args.regret.is_file():
        parser.error(f"--regret {args.regret}: no such file")
    gaps = args.gap or list(GAPS)
    if any(not 0 <= g < 1 for g in gaps):
        parser.error("--gap must be at least 0 and below 1")
    if args.value_samples < 1:
        parser.error("--value-samples must be at least 1")
    net = None
    if args.value is not None:
        from regret.value_break import value_choices

        from semiautomines_agents.value.network import ValueFileError, load

        try:
            net = load(args.value)
        except ValueFileError as error:
            parser.error(f"--value: {error}")
    agent = make_agent("search")
    assert isinstance(agent, SearchAgent)
    decisions, games = read_decisions(args.guesses, args.games)
    rows = read_rows(args.regret)
    complete = complete_games(rows, decisions, games)
    kept = set(games[:complete])
    by_key = {d.key: d for d in decisions if d.game in kept}
    rows = [r for r in rows if r.get("key") in by_key]
    parts = [
        f"{len(rows):,} measured decisions in the first {complete:,} games of "
        f"{len(games):,}, every one of their decisions measured.\n"
    ]
    print(parts[0])
    try:
        for gap in gaps:
            ties = near_ties(agent, rows, by_key, gap)
            extra = {}
            if net is not None:
                extra["the value network"] = value_choices(net, ties, by_key, args.value_samples)
            parts.append(
                f"Candidates within {gap:.1%} of the best score: {len(ties):,} ties.\n\n"
                + table(ties, complete, extra)
                + "\n"
            )
            print(parts[-1])
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    if args.markdown:
        command = " ".join(
            [
                "python benchmarks/tie_breaks.py",
                *map(shlex.quote, sys.argv[1:] if argv is None else argv),
            ]
        )
        about = ABOUT
        page = f"# Near ties broken other ways\n\n```sh\n{command}\n```\n\n{about}\n" + "\n".join(
            parts
        )
        try:
            args.markdown.write_text(page)
        except OSError as error:
            print(f"tie_breaks.py: {args.markdown}: {error.strerror}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
