"""``search`` playing JSMinesweeper's cell where JSMinesweeper's solver takes a chosen path.

The regret map (``benchmarks/guess_regret.py``) played JSMinesweeper's cell on
sampled layouts at every decision where it differs from ours, and found it a
tenth of a point per game ahead, most of it where JSMinesweeper tosses a 50/50
first. Played in real games, does taking those cells win? This plays a hybrid:
``search`` throughout, but at each of its look-ahead guesses (reason
``search``: not a safe cell, the exact endgame or a forced guess) JSMinesweeper's
solver is asked on the same position, and where its move came from one of
``--paths`` (its solver's part, as the paired benchmark names them) and is
another cell, the hybrid plays that cell instead.

The hybrid and ``search`` are paired on the same games (``semiautomines
evaluate``'s, rule set ``complete``). Both are deterministic and the hybrid is
``search`` until its first override, so ``search`` is played only on the games
where an override happened: elsewhere its game is the hybrid's, move for move.
The report gives the paired difference (hybrid minus ``search``) with its 95%
interval, the discordant games, and the overrides per game.

Each game is appended to ``--out`` (JSON lines) as it ends: a run stopped by
Ctrl-C or SIGTERM keeps every game it finished, and a rerun goes on after them.
Several logs (halves run at once, one per core) are reported together with
``--report``.

Run: ``python benchmarks/jsminesweeper_hybrid.py --jsminesweeper /tmp/JSMinesweeper.git
--games 20000 --out runs/hybrid_safe.jsonl`` then ``python
benchmarks/jsminesweeper_hybrid.py --report runs/hybrid_safe.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from guess_log import advise_guess, end_cut_line, logged_games
from peers import PeerMissing
from peers.jsminesweeper_player import JSMinesweeperPlayer, load_source
from tqdm import tqdm

from minesweep_env import STANDARD_BOARDS
from minesweep_env.fileio import write_text
from semiautomines_agents import make_agent
from semiautomines_agents.base import Agent
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.evaluation.paired import paired_difference
from semiautomines_agents.evaluation.play import make_env, play_game
from semiautomines_agents.evaluation.records import Chunk, GameRecord
from semiautomines_agents.search.agent import SearchAgent

PATHS = ("tie-break", "brute force", "50/50", "dead", "off edge", "engine", "other")
"""JSMinesweeper's solver parts a guess can come from (``safe`` is never a guess)."""


class Hybrid(Agent):
    """``search``, with JSMinesweeper's cell at the look-ahead guesses where its solver
    took one of ``paths`` and named another cell.

    :param peer: an object with ``choose(board)`` (:class:`.JSMinesweeperPlayer`).
    """

    name = "search+jsminesweeper"
    obs_mode = "grid"

    def __init__(self, agent: SearchAgent, peer: Any, paths: frozenset[str]) -> None:
        self.agent, self.peer, self.paths = agent, peer, paths
        self.overrides = 0
        self.asked = 0

    @property
    def taken(self) -> str:
        """The parts taken, as the log and the report name them (``all``: every one)."""
        return "all" if self.paths == frozenset(PATHS) else ",".join(sorted(self.paths))

    def reset(self, seed: int | None = None) -> None:
        self.overrides = self.asked = 0
        self.agent.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Any) -> int:
        guess = advise_guess(self.agent, action_mask, game)
        if guess is None:
            return self.agent.act(observation, action_mask, game)
        if guess.advice.reason != "search":
            return guess.advice.cell
        self.asked += 1
        choice = self.peer.choose(guess.board)
        if (
            choice.path in self.paths
            and choice.cell != guess.advice.cell
            and guess.valid[choice.cell]
        ):
            self.overrides += 1
            return choice.cell
        return guess.advice.cell


def play(
    board: str,
    start: str,
    games: Iterable[int],
    seed: int,
    hybrid: Hybrid,
    out: Path,
    stop: Any = lambda: False,
    progress: Any = lambda: None,
) -> int:
    """Play the ``games`` not yet in ``out`` (the hybrid, and ``search`` where the hybrid
    overrode it) and append one line per game; returns the games played."""
    target = board_target(board)
    settings = Settings("complete", start, seed)
    env = make_env(target, settings, hybrid.obs_mode)
    ours = Chunk(hybrid.name, target, (), settings)
    plain = Chunk("search", target, (), settings)
    run = {"board": board, "start": start, "seed": seed, "paths": hybrid.taken}
    done = logged_games(out, run)
    end_cut_line(out)
    played = 0
    for index in games:
        if stop():
            break
        if index in done:
            progress()
            continue
        begin = time.process_time()
        record = play_game(env, hybrid, ours, index)
        cpu = time.process_time() - begin
        search_won = record.won
        if hybrid.overrides:
            search_won = play_game(env, hybrid.agent, plain, index).won
        line = run | {
            "game": index,
            "won": record.won,
            "search_won": search_won,
            "asked": hybrid.asked,
            "overrides": hybrid.overrides,
            "cpu": round(cpu, 4),
        }
        with out.open("a") as handle:
            handle.write(json.dumps(line) + "\n")
        played += 1
        progress()
    return played


def read_logs(paths: list[Path]) -> list[dict[str, Any]]:
    """Every game of the logs, once each (the first line of a game counts)."""
    rows: dict[tuple[str, str, str, int, int], dict[str, Any]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
                key = (
                    row["board"],
                    row["start"],
                    row["paths"],
                    int(row["seed"]),
                    int(row["game"]),
                )
            except (ValueError, KeyError, TypeError):
                continue
            rows.setdefault(key, row)
    return list(rows.values())


def _line(board: str, start: str, taken: str, mine: list[dict[str, Any]]) -> str:
    """One table line: ``mine``'s games paired (each game once, in any order)."""
    hybrid = [GameRecord(k, r["won"], 0, 0.0, 0.0) for k, r in enumerate(mine)]
    search = [GameRecord(k, r["search_won"], 0, 0.0, 0.0) for k, r in enumerate(mine)]
    paired = paired_difference(hybrid, search)
    n = len(mine)
    search_rate = 100 * sum(r["search_won"] for r in mine) / n
    return (
        f"| {board} | {start} | {taken} | {n:,} | {search_rate:.2f}% "
        f"| {100 * sum(r['won'] for r in mine) / n:.2f}% "
        f"| {100 * paired.difference:+.2f} ({100 * paired.low:+.2f} to "
        f"{100 * paired.high:+.2f}) | {paired.only_baseline} / {paired.only_agent} "
        f"| {sum(r['overrides'] > 0 for r in mine):,} | {sum(r['overrides'] for r in mine):,} "
        f"| {sum(r['asked'] for r in mine):,} | {sum(r['cpu'] for r in mine) / n:.3f} s |"
    )


def report(rows: list[dict[str, Any]]) -> str:
    """One table line per board, start and JSMinesweeper's parts taken (the paired
    difference and the overrides), and one for both starts together where both ran."""
    lines = [
        "| board | start | JSMinesweeper's parts taken | games | search | hybrid "
        "| hybrid - search (95% CI) | only search / only hybrid won | games overridden "
        "| overrides | look-ahead guesses | CPU per game |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for board, taken in sorted({(r["board"], r["paths"]) for r in rows}):
        mine = [r for r in rows if (r["board"], r["paths"]) == (board, taken)]
        starts = sorted({r["start"] for r in mine})
        for start in starts:
            lines.append(_line(board, start, taken, [r for r in mine if r["start"] == start]))
        if len(starts) > 1:
            lines.append(_line(board, "both", taken, mine))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsminesweeper", help="a JSMinesweeper checkout or git directory")
    parser.add_argument("--board", default="expert", choices=tuple(STANDARD_BOARDS))
    parser.add_argument("--start", default="safe", choices=("safe", "zero"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--paths",
        default="50/50",
        help=f"JSMinesweeper's parts, comma-separated, or all ({', '.join(PATHS)})",
    )
    parser.add_argument("--out", type=Path, help="the JSON-lines log of games")
    parser.add_argument("--report", type=Path, nargs="+", help="report these logs and stop")
    parser.add_argument("--markdown", type=Path, help="with --report: write the table here too")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _report(args: argparse.Namespace, argv: list[str] | None) -> int:
    missing = [path for path in args.report if not path.is_file()]
    if missing:
        print(f"jsminesweeper_hybrid.py: {missing[0]}: no such log", file=sys.stderr)
        return 2
    rows = read_logs(args.report)
    if not rows:
        print(f"jsminesweeper_hybrid.py: {args.report[0]}: no games in the logs", file=sys.stderr)
        return 2
    text = report(rows)
    print(text)
    if args.markdown:
        words = sys.argv[1:] if argv is None else argv
        command = " ".join(["python benchmarks/jsminesweeper_hybrid.py", *map(shlex.quote, words)])
        write_text(args.markdown, f"```sh\n{command}\n```\n\n{text}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.report:
        return _report(args, argv)
    if args.out is None or not args.jsminesweeper:
        parser.error("give --out and --jsminesweeper (or --report LOGS)")
    if args.games < 1 or args.first_game < 0 or args.seed < 0:
        parser.error("--games must be at least 1, --first-game and --seed at least 0")
    paths = frozenset(PATHS if args.paths == "all" else (p.strip() for p in args.paths.split(",")))
    unknown = sorted(paths - set(PATHS))
    if unknown:
        parser.error(f"--paths: unknown part {unknown[0]!r}: one of {', '.join(PATHS)} or all")
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        peer = JSMinesweeperPlayer(load_source(args.jsminesweeper))
    except PeerMissing as error:
        print(f"jsminesweeper_hybrid.py: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"jsminesweeper_hybrid.py: {args.out.parent}: {error.strerror}", file=sys.stderr)
        return 2
    stopping = False

    def stop_now(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    previous = signal.signal(signal.SIGTERM, stop_now)
    games = range(args.first_game, args.first_game + args.games)
    bar = tqdm(total=len(games), desc="games", disable=args.no_progress)
    agent = make_agent("search")
    assert isinstance(agent, SearchAgent)
    try:
        played = play(
            args.board,
            args.start,
            games,
            args.seed,
            Hybrid(agent, peer, paths),
            args.out,
            stop=lambda: stopping,
            progress=lambda: bar.update(1),
        )
    except KeyboardInterrupt:
        print(f"stopped: every finished game is in {args.out}", file=sys.stderr)
        return 130
    finally:
        bar.close()
        peer.close()
        signal.signal(signal.SIGTERM, previous)
    print(f"{played:,} games played into {args.out}")
    return 130 if stopping else 0


if __name__ == "__main__":
    sys.exit(main())
