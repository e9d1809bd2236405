"""``search`` against JSMinesweeper's own solver, paired on the same games.

JSMinesweeper's solver (run headless under node from its public source, see
``peers/jsminesweeper_player.js``) and our agent play the same seeded games of
``semiautomines evaluate`` (same seed, same game numbers): the same layouts,
the same first probe (our ``search``'s opening, which both play) and the same
rule set (``complete``: the auto-solver makes every certain move, so the
players differ only in their guesses). Every standard board, from both starts:
a safe first click (a corner) and a first click that opens (``zero``).

Per board and start it reports both win rates, the paired difference (ours
minus JSMinesweeper's) with its 95% interval, the discordant games (won by
only one side, McNemar's counts) and each side's time per game, and it checks
every game's pairing: both sides must hold the same mines and open the same
first cells (:mod:`game_checks`; the count of mismatches must be 0).

JSMinesweeper's games are cached (:mod:`peer_cache`, by its commit and the
digest of its files), so a rerun plays only ours; a run stopped by Ctrl-C or
SIGTERM keeps every game it finished and the next run goes on from there.

Run: ``PYTHONPATH=. nice -n 10 python benchmarks/jsminesweeper_paired.py
--jsminesweeper /tmp/JSMinesweeper --games beginner=1000,intermediate=1000,expert=500``
(``--jsminesweeper`` takes a checkout or a git directory; from a git directory
the solver's files are extracted into a temporary folder for the run).
"""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game_checks import GameCheck, mismatches, play_checked
from peer_cache import CachedGame, PeerCache, default_cache_dir
from peers import PeerMissing
from peers.jsminesweeper_player import JSMinesweeperAgent, JSMinesweeperPlayer, load_source
from peers.jsminesweeper_source import Source

from minesweep_env import STANDARD_BOARDS
from minesweep_env.fileio import write_text
from semiautomines_agents import make_agent
from semiautomines_agents.base import Agent
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.evaluation.paired import PairedDifference, paired_difference
from semiautomines_agents.evaluation.play import make_env
from semiautomines_agents.evaluation.records import Chunk, GameRecord
from semiautomines_agents.search.opening import opening_cell

RESULTS = Path(__file__).parent / "results" / "search_vs_jsminesweeper_paired.md"
BOARDS = tuple(STANDARD_BOARDS)
STARTS = {"safe": "safe corner", "zero": "opening"}
"""First-click policy -> how the report names the start."""
PEER = "jsminesweeper"


@dataclass
class Row:
    """One board and start, both sides' games."""

    board: str
    start: str
    first_cell: tuple[int, int]
    theirs: list[GameRecord] = field(default_factory=list)
    ours: list[GameRecord] = field(default_factory=list)
    their_checks: dict[int, GameCheck] = field(default_factory=dict)
    our_checks: dict[int, GameCheck] = field(default_factory=dict)
    paths: Counter[str] = field(default_factory=Counter)
    their_cpu: list[float] = field(default_factory=list)
    """CPU seconds of JSMinesweeper's games (a game cached before its CPU time was
    recorded is played again, once)."""
    our_cpu: list[float] = field(default_factory=list)
    played_now: int = 0
    """JSMinesweeper's games played in this run (the rest came from the cache)."""

    def paired(self) -> PairedDifference:
        return paired_difference(self.ours, self.theirs)

    def mismatched(self) -> list[int]:
        return mismatches(self.our_checks, self.their_checks)


class LazyPeer:
    """JSMinesweeper's agent, its node process started on the first game not cached."""

    def __init__(self, source: Source, make: Callable[[Source], Any] = JSMinesweeperPlayer):
        self.source, self.make = source, make
        self.player: Any = None
        self.agent: JSMinesweeperAgent | None = None

    def get(self) -> JSMinesweeperAgent:
        if self.agent is None:
            self.player = self.make(self.source)
            self.agent = JSMinesweeperAgent(self.player)
        return self.agent

    def close(self) -> None:
        if self.player is not None:
            self.player.close()


def play_row(
    board: str,
    start: str,
    games: range,
    seed: int,
    ours: tuple[str, Agent] | None,
    peer: LazyPeer,
    cache: PeerCache,
    progress: Callable[[Row, int], None] = lambda row, total: None,
    stop: Callable[[], bool] = lambda: False,
) -> Row:
    """Both sides' games ``games`` of ``board`` from ``start``, interleaved game by game
    (JSMinesweeper's from the cache where it has them); only JSMinesweeper's when
    ``ours`` is ``None`` (filling the cache). ``stop`` is asked before every game:
    when it says so the row ends there, its finished games kept."""
    target = board_target(board)
    settings = Settings("complete", start, seed)
    cell = opening_cell(target.width, target.height, target.mines, start)
    row = Row(board, start, cell)
    their_env: Any = None
    their_chunk = Chunk(PEER, target, (), settings)
    play_ours = _our_player(target, settings, ours, games.stop)
    for index in games:
        if stop():
            break
        key = (board, start, seed, index)
        cached = cache.get(key)
        if cached is None or cached.cpu_seconds is None:  # not played, or not timed yet
            agent = peer.get()
            if their_env is None:
                their_env = make_env(target, settings, agent.obs_mode)
            begin = time.process_time()
            record, check = play_checked(their_env, agent, their_chunk, index)
            cpu = time.process_time() - begin + agent.node_cpu_ms / 1000
            cached = CachedGame(record, check, agent.node_ms, dict(agent.paths), cpu)
            cache.put(key, cached)
            row.played_now += 1
        row.theirs.append(cached.record)
        row.their_checks[index] = cached.check
        row.paths.update(cached.paths)
        if cached.cpu_seconds is not None:
            row.their_cpu.append(cached.cpu_seconds)
        if play_ours is not None:
            begin = time.process_time()
            record, check = play_ours(index)
            row.our_cpu.append(time.process_time() - begin)
            row.ours.append(record)
            row.our_checks[index] = check
        progress(row, len(games))
    return row


def _our_player(
    target: Any, settings: Settings, ours: tuple[str, Agent] | None, spare: int
) -> Callable[[int], tuple[GameRecord, GameCheck]] | None:
    """Plays our agent's game ``index`` (``None`` without an agent). One untimed game
    is played first, game ``spare``: loading compiled code is not a game's time."""
    if ours is None:
        return None
    name, agent = ours
    env = make_env(target, settings, agent.obs_mode)
    chunk = Chunk(name, target, (), settings)
    play_checked(env, agent, chunk, spare)
    return lambda index: play_checked(env, agent, chunk, index)


def _percent(records: list[GameRecord]) -> str:
    return f"{100 * sum(r.won for r in records) / len(records):.2f}%"


def _seconds(records: list[GameRecord]) -> tuple[float, float]:
    return _mean_max([r.seconds for r in records])


def _mean_max(times: list[float]) -> tuple[float, float]:
    return (sum(times) / len(times), max(times)) if times else (float("nan"), float("nan"))


def table_row(row: Row, agent: str) -> str:
    """The row's line of the results table."""
    paired = row.paired()
    (their_mean, their_max), (our_mean, our_max) = _seconds(row.theirs), _seconds(row.ours)
    (their_cpu, their_cpu_max), (our_cpu, our_cpu_max) = (
        _mean_max(row.their_cpu),
        _mean_max(row.our_cpu),
    )
    x, y = row.first_cell
    return (
        f"| {row.board} | {STARTS[row.start]} ({x},{y}) | {paired.games:,} "
        f"| {_percent(row.theirs)} | {_percent(row.ours)} "
        f"| {100 * paired.difference:+.2f} ({100 * paired.low:+.2f} to {100 * paired.high:+.2f}) "
        f"| {paired.only_baseline} / {paired.only_agent} "
        f"| {their_mean:.3f} s / {our_mean:.3f} s ({their_max:.2f} s / {our_max:.2f} s) "
        f"| {their_cpu:.3f} s / {our_cpu:.3f} s ({their_cpu_max:.2f} s / {our_cpu_max:.2f} s) "
        f"| {len(row.mismatched())} |"
    )


def report(rows: list[Row], agent: str, source: Source, command: str) -> str:
    """The results page: the command, the table, how JSMinesweeper chose."""
    lines = [
        f"# `{agent}` against JSMinesweeper's solver, paired",
        "",
        "```sh",
        command,
        "```",
        "",
        f"JSMinesweeper commit `{source.commit}` (solver files' SHA-256 `{source.digest[:16]}`),",
        "run under node by `benchmarks/peers/jsminesweeper_player.js`; rule set `complete`,",
        "the games of `semiautomines evaluate` (same seed and game numbers), both sides",
        "playing the same first probe. Differences in percentage points, ours minus",
        "JSMinesweeper's, with the paired 95% interval. Time per game is the wall time of",
        "the whole game (env included), mean (max); CPU per game adds, for JSMinesweeper,",
        "node's CPU time for its moves to ours for the env: on a shared machine the CPU",
        "time is the fairer measure. JSMinesweeper's times are those of the run that",
        "played each game (this run played "
        + ", ".join(f"{row.played_now:,}" for row in rows)
        + " of them, per row; the rest came from the cache).",
        "",
        f"| board | start (first probe) | games | JSMinesweeper | `{agent}` | {agent} - JSM "
        "(95% CI) | discordant games (JSM only / ours only) | time per game, JSM / ours "
        "(mean; max) | CPU per game, JSM / ours (mean; max) | mismatched games |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [table_row(row, agent) for row in rows]
    lines += [
        "",
        '"mismatched games": games where the two sides did not hold the same mines or did',
        "not open the same first cells (each game's mines, first probe and view after it are",
        "compared); it must be 0 for the pairing to hold. Moves the env refused (an invalid",
        "move ends a game as lost): JSMinesweeper "
        + ", ".join(str(sum(r.invalid for r in row.theirs)) for row in rows)
        + f"; `{agent}` "
        + ", ".join(str(sum(r.invalid for r in row.ours)) for row in rows)
        + " (per row, in order).",
        "",
        "Which part of JSMinesweeper's solver chose its moves (all moves of the row's games):",
        "",
        "| board | start | moves | " + " | ".join(PATH_NAMES) + " |",
        "|---|---|---:|" + "---:|" * len(PATH_NAMES),
    ]
    for row in rows:
        total = sum(row.paths.values())
        counts = " | ".join(f"{row.paths.get(name, 0):,}" for name in PATH_NAMES)
        lines.append(f"| {row.board} | {STARTS[row.start]} | {total:,} | {counts} |")
    return "\n".join(lines) + "\n"


PATH_NAMES = ("tie-break", "brute force", "50/50", "dead", "off edge", "engine", "safe", "other")


def games_per_board(text: str, boards: list[str]) -> dict[str, int]:
    """``"500"`` (every board) or ``"beginner=1000,expert=500"`` -> games per board."""
    if "=" not in text:
        return dict.fromkeys(boards, int(text))
    given = {}
    for part in text.split(","):
        name, _, count = part.partition("=")
        given[name.strip()] = int(count)
    unknown = set(given) - set(boards)
    if unknown:
        raise ValueError(f"--games names {sorted(unknown)[0]!r}, not one of the boards run")
    missing = [b for b in boards if b not in given]
    if missing:
        raise ValueError(f"--games gives no count for {missing[0]}")
    return given


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsminesweeper", help="a JSMinesweeper checkout or git directory")
    parser.add_argument("--boards", default=",".join(BOARDS), help="comma-separated boards")
    parser.add_argument("--starts", default="safe,zero", help="first-click policies: safe,zero")
    parser.add_argument("--games", default="500", help="N, or per board: beginner=N,expert=M")
    parser.add_argument("--first-game", type=int, default=0, help="first game number")
    parser.add_argument("--seed", type=int, default=0, help="run seed, as evaluate's")
    parser.add_argument("--agent", default="search", help="our agent (default search)")
    parser.add_argument("--cache-dir", type=Path, default=None, help="default ~/.cache/...")
    parser.add_argument("--out", type=Path, default=RESULTS, help="the results page")
    parser.add_argument(
        "--peer-only",
        action="store_true",
        help="only fill JSMinesweeper's cache (no games of ours, no page): to run apart",
    )
    return parser


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, int]:
    boards = [b.strip() for b in args.boards.split(",")]
    starts = [s.strip() for s in args.starts.split(",")]
    for board in boards:
        if board not in STANDARD_BOARDS:
            parser.error(f"unknown board {board!r}: one of {', '.join(BOARDS)}")
    for start in starts:
        if start not in STARTS:
            parser.error(f"unknown start {start!r}: one of {', '.join(STARTS)}")
    try:
        games = games_per_board(args.games, boards)
    except ValueError as error:
        parser.error(str(error))
    if min(games.values()) < 1 or args.first_game < 0 or args.seed < 0:
        parser.error("--games must be at least 1, --first-game and --seed at least 0")
    args.boards, args.starts = boards, starts
    return games


class StopRequest:
    """Ctrl-C or SIGTERM: the run stops after the game in play, which keeps every finished
    game in the cache; a second one stops it at once. (Stopping only between games, the
    request cannot be swallowed by a library that catches the interrupt mid-call.)"""

    def __init__(self) -> None:
        self.signal = 0

    def install(self) -> None:
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, self._take)

    def _take(self, number: int, frame: Any) -> None:
        if self.signal:
            raise KeyboardInterrupt
        self.signal = number
        print("stopping after this game (again to stop at once)", file=sys.stderr, flush=True)

    def __call__(self) -> bool:
        return self.signal != 0


def _progress() -> Callable[[Row, int], None]:
    begin = time.monotonic()
    last = [begin]

    def show(row: Row, total: int) -> None:
        now, done = time.monotonic(), len(row.theirs)
        if now - last[0] >= 10 or done == total:
            last[0] = now
            print(
                f"{row.board} {row.start}: {done:,}/{total:,} games "
                f"(JSMinesweeper {row.played_now:,} played, {done - row.played_now:,} cached), "
                f"{now - begin:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    return show


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    games = _check(parser, args)
    try:
        source = load_source(args.jsminesweeper)
    except PeerMissing as error:
        print(f"jsminesweeper_paired.py: {error}", file=sys.stderr)
        return 2
    cache_dir = args.cache_dir or default_cache_dir() / "jsminesweeper"
    cache = PeerCache(cache_dir / f"{source.commit[:12]}-{source.digest[:12]}.jsonl")
    peer = LazyPeer(source)
    ours = None if args.peer_only else (args.agent, make_agent(args.agent))
    stop = StopRequest()
    stop.install()
    rows: list[Row] = []
    try:
        for board, start in [(b, s) for b in args.boards for s in args.starts]:
            numbers = range(args.first_game, args.first_game + games[board])
            row = play_row(board, start, numbers, args.seed, ours, peer, cache, _progress(), stop)
            rows.append(row)
            if stop():
                break
    except KeyboardInterrupt:
        stop.signal = stop.signal or signal.SIGINT
    finally:
        peer.close()
    if stop():
        print("stopped: JSMinesweeper's finished games stay in the cache", file=sys.stderr)
        return 128 + stop.signal
    if args.peer_only:
        cached = sum(len(row.theirs) for row in rows)
        played = sum(row.played_now for row in rows)
        print(f"JSMinesweeper: {cached:,} games in the cache ({played:,} played now)")
        return 0
    command = "python benchmarks/jsminesweeper_paired.py " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    page = report(rows, args.agent, source, command)
    print(page)
    write_text(args.out, page)
    return 1 if any(row.mismatched() for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
