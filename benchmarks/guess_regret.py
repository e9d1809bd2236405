"""Where ``search``'s guesses lose: every candidate's win probability at its logged decisions.

For each guess in a guess log (``benchmarks/guess_log.py``), layouts consistent
with the position are drawn exactly from the engine's weights; search's choice,
the safest cell(s) and the other cells search weighed (at most ``--candidates``)
are each probed in the same layouts and ``search`` plays every game on to its end.
Sampling stops once the best candidate is separated or at ``--max-samples``
(:mod:`regret.estimate`); a position with at most ``--exact-layouts`` layouts is
played on every layout instead, exactly (:mod:`regret.exact`), and ``--only-exact``
measures those decisions alone; ``--only-differing`` measures only those where the
log's JSMinesweeper cell differs from search's (with ``--candidates 1``, those two
cells alone: who was right, and what it is worth per game). One JSON line per
decision is appended to ``--out``; a rerun skips the decisions already there, and
SIGINT or SIGTERM keep every finished one. The tables (:mod:`regret.report`) are
printed at the end, and written to ``--markdown`` when given.

Run: ``nice -n 15 python benchmarks/guess_regret.py --guesses /tmp/guesses.jsonl
--out /tmp/regret.jsonl --decisions 200``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import sys
from collections.abc import Iterator
from multiprocessing import get_context
from pathlib import Path
from time import perf_counter
from typing import Any

from regret.decisions import Decision, complete_games, read_decisions
from regret.estimate import Budget, estimate
from regret.exact import EXACT_LAYOUTS
from regret.noise import calibrate
from regret.plot import plot_leads
from regret.report import SHUFFLES, page, report

from semiautomines_agents import make_agent
from semiautomines_agents.search.agent import SearchAgent

_WORKER: dict[str, Any] = {}

AT_SCALE = (
    "mkdir -p runs && nohup sh -c '\\\n"
    "  nice -n 15 python benchmarks/guess_log.py --board expert --games 1000 \\\n"
    "    --out runs/expert_guesses.jsonl --jsminesweeper /tmp/JSMinesweeper.git && \\\n"
    "  nice -n 15 python benchmarks/guess_regret.py --guesses runs/expert_guesses.jsonl \\\n"
    "    --out runs/expert_regret.jsonl --max-samples 256 --workers 2 \\\n"
    "    --markdown benchmarks/results/search_guess_regret_at_scale.md \\\n"
    "    --plot benchmarks/results/search_guess_regret_at_scale.png' \\\n"
    "  > runs/expert_regret.log 2>&1 &"
)
"""Several thousand expert decisions (about 3.5 per game) with more layouts each."""


def _command(argv: list[str] | None) -> str:
    """The command line that ran, as a person would type it."""
    words = sys.argv[1:] if argv is None else argv
    return " ".join(["python benchmarks/guess_regret.py", *map(shlex.quote, words)])


def done_keys(path: Path) -> set[str]:
    """Decisions a results file already holds (a line cut short is measured again)."""
    keys: set[str] = set()
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                keys.add(json.loads(line)["key"])
            except (ValueError, KeyError, TypeError):
                continue
    return keys


def read_results(path: Path, keys: set[str] | None = None) -> list[dict[str, Any]]:
    rows = []
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if keys is None or row.get("key") in keys:
                rows.append(row)
    return rows


def _start_worker(agent: str, budget: Budget, seed: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool
    _WORKER.update(agent=make_agent(agent), budget=budget, seed=seed)


def _measure(decision: Decision) -> dict[str, Any]:
    return estimate(_WORKER["agent"], decision, _WORKER["budget"], _WORKER["seed"])


def measured(
    decisions: list[Decision], agent: str, budget: Budget, seed: int, workers: int
) -> Iterator[dict[str, Any]]:
    """Results as they finish: in this process, or in ``workers`` processes."""
    if workers == 1:
        _start_worker(agent, budget, seed)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        yield from map(_measure, decisions)
        return
    with get_context("spawn").Pool(workers, _start_worker, (agent, budget, seed)) as pool:
        yield from pool.imap_unordered(_measure, decisions)


def run(
    decisions: list[Decision], out: Path, agent: str, budget: Budget, seed: int, workers: int
) -> int:
    """Measure the decisions not yet in ``out``, appending each; returns how many."""
    done = done_keys(out)
    todo = [d for d in decisions if d.key not in done]
    if out.is_file() and out.stat().st_size and not out.read_bytes().endswith(b"\n"):
        with out.open("a") as handle:  # end a line a hard kill cut short
            handle.write("\n")
    begin = perf_counter()
    for count, row in enumerate(measured(todo, agent, budget, seed, workers), start=1):
        with out.open("a") as handle:
            handle.write(json.dumps(row) + "\n")
        elapsed = perf_counter() - begin
        left = elapsed / count * (len(todo) - count)
        print(
            f"[{count}/{len(todo)}] {row['key']} {row['phase']}, {row['reason']}: "
            f"{row['samples']} layouts, {row['rollouts']} games, {row['verdict']}; "
            f"{elapsed / 60:.1f} min, about {left / 60:.0f} min left",
            file=sys.stderr,
            flush=True,
        )
    return len(todo)


def _stop_on_sigterm(*_: object) -> None:
    raise KeyboardInterrupt


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guesses", type=Path, required=True, help="a guess_log.py log")
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines results")
    parser.add_argument("--games", type=int, help="only the log's first GAMES games")
    parser.add_argument(
        "--decisions", type=int, help="whole games in order until this many decisions"
    )
    parser.add_argument("--agent", default="search", help="a search setting string")
    parser.add_argument("--seed", type=int, default=0, help="seeds the sampled layouts")
    parser.add_argument("--min-samples", type=int, default=Budget.min_samples)
    parser.add_argument("--max-samples", type=int, default=Budget.max_samples)
    parser.add_argument("--batch", type=int, default=Budget.batch)
    parser.add_argument("--candidates", type=int, default=Budget.max_candidates)
    parser.add_argument(
        "--exact-layouts",
        type=int,
        default=EXACT_LAYOUTS,
        help="play every layout of a position with at most this many (0: always sample)",
    )
    parser.add_argument(
        "--only-exact",
        action="store_true",
        help="measure only the decisions the log counts at most --exact-layouts layouts",
    )
    parser.add_argument(
        "--only-differing",
        action="store_true",
        help="measure only the decisions where the log's JSMinesweeper cell differs from search's",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--markdown", type=Path, help="write the tables here too")
    parser.add_argument(
        "--plot",
        type=Path,
        help="draw the best other candidate's lead, measured and noise alone, here (PNG)",
    )
    return parser


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not args.guesses.is_file():
        parser.error(f"--guesses {args.guesses}: no such file")
    for flag, path in (("--out", args.out), ("--markdown", args.markdown), ("--plot", args.plot)):
        # Checked before hours of play, not when the tables are written at the end.
        if path is not None and not path.parent.is_dir():
            parser.error(f"{flag} {path}: no such folder {path.parent}")
    numbers = (args.min_samples, args.max_samples, args.batch, args.candidates, args.workers)
    if min(numbers) < 1 or args.seed < 0 or min(args.games or 1, args.decisions or 1) < 0:
        parser.error("samples, batch, candidates and workers must be at least 1, the rest >= 0")
    if args.exact_layouts < 0:
        parser.error("--exact-layouts must be at least 0")
    if args.only_exact and not args.exact_layouts:
        parser.error("--only-exact needs --exact-layouts above 0")
    if args.min_samples > args.max_samples:
        parser.error("--min-samples must not exceed --max-samples")
    if not isinstance(make_agent(args.agent), SearchAgent):
        parser.error(f"--agent {args.agent!r} is not a search agent")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        _check(parser, args)
    except ValueError as error:  # a bad setting string
        parser.error(str(error).splitlines()[0])
    decisions, games = read_decisions(args.guesses, args.games)
    if args.decisions is not None and args.decisions < len(decisions):
        # Whole games only, so the loss per game has its true denominator.
        last = decisions[max(args.decisions, 1) - 1].game
        decisions = [d for d in decisions if d.game <= last]
        games = [g for g in games if g <= last]
    if args.only_exact:
        decisions = [
            d for d in decisions if d.layouts is not None and d.layouts <= args.exact_layouts
        ]
    if args.only_differing:
        decisions = [d for d in decisions if d.jsminesweeper not in (None, d.cell)]
    budget = Budget(
        args.min_samples,
        args.max_samples,
        args.batch,
        max_candidates=args.candidates,
        exact_layouts=args.exact_layouts,
    )
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        run(decisions, args.out, args.agent, budget, args.seed, args.workers)
    except KeyboardInterrupt:
        print(f"stopped: every finished decision is in {args.out}", file=sys.stderr)
        done = complete_games(read_results(args.out, {d.key for d in decisions}), decisions, games)
        if done:
            print(
                f"the log's first {done:,} games are measured whole: --games {done} "
                "gives their tables",
                file=sys.stderr,
            )
        return 130
    rows = read_results(args.out, {d.key for d in decisions})
    calibrated = calibrate(rows, SHUFFLES)  # the shuffles once, for the tables and the plot
    tables = report(rows, len(games), calibrated)
    print(tables)
    if args.markdown:
        args.markdown.write_text(page(tables, _command(argv), AT_SCALE, args.only_differing))
    if args.plot:
        title = f"{len(rows):,} guesses of search in {len(games):,} games of {args.guesses.name}"
        plot_leads(calibrated, args.plot, title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
