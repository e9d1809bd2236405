"""A peer's finished games, kept between runs so a rerun only pays for ours.

A peer whose moves depend on the position alone plays a seeded game the same
way every time, so its outcome is stored once per (board, start, seed, game)
in a JSON-lines file named by the peer's version. Each game is appended and
flushed as soon as it ends: a run stopped at any point (Ctrl-C, SIGTERM, a
crash) keeps every game it finished, and the next run goes on from there. A
line cut short by a hard kill is skipped on reading.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from game_checks import GameCheck

from semiautomines_agents.evaluation.records import GameRecord

Key = tuple[str, str, int, int]
"""(board, start, seed, game number)."""


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/semiautomines`` (``~/.cache/semiautomines``), outside the repository."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "semiautomines"


@dataclass(frozen=True)
class CachedGame:
    """A peer's game as stored: its outcome, its fingerprint, what it cost."""

    record: GameRecord
    check: GameCheck
    node_ms: float
    """The peer's own time for its moves (inside node)."""
    paths: dict[str, int]
    """How many moves each part of its solver chose."""
    cpu_seconds: float | None = None
    """CPU time of the game, both processes (ours for the env, the peer's for its moves);
    ``None`` in games stored before it was recorded."""


class PeerCache:
    """The stored games of one version of a peer.

    :param path: the JSON-lines file (made with its folder on the first game).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.games: dict[Key, CachedGame] = {}
        self._read_to = 0
        """Bytes of the file taken in so far: whole lines only."""
        self._cut_short = False
        self._read_new_lines()
        self._cut_short = self._read_to < self._size()

    def _size(self) -> int:
        return self.path.stat().st_size if self.path.is_file() else 0

    def _read_new_lines(self) -> None:
        """Take in the whole lines written since the last read: another process (a
        ``--peer-only`` run, say) may be filling the same file beside this one."""
        if self._size() <= self._read_to:
            return
        with self.path.open("rb") as handle:
            handle.seek(self._read_to)
            text = handle.read()
        whole = text[: text.rfind(b"\n") + 1]  # a line still being written waits
        self._read_to += len(whole)
        for line in whole.decode(errors="replace").splitlines():
            self._take(line)

    def _take(self, line: str) -> None:
        try:
            row = json.loads(line)
            key: Key = (row["board"], row["start"], int(row["seed"]), int(row["game"]))
            record = GameRecord(
                int(row["game"]),
                bool(row["won"]),
                int(row["guesses"]),
                float(row["safe_opened"]),
                float(row["seconds"]),
                bool(row["invalid"]),
            )
            check = GameCheck(**row["check"])
            cpu = row.get("cpu_seconds")
            self.games[key] = CachedGame(
                record,
                check,
                float(row["node_ms"]),
                row["paths"],
                None if cpu is None else float(cpu),
            )
        except (ValueError, KeyError, TypeError):
            return  # a line cut short by a hard kill

    def get(self, key: Key) -> CachedGame | None:
        if key not in self.games:
            self._read_new_lines()
        return self.games.get(key)

    def put(self, key: Key, game: CachedGame) -> None:
        """Store one game, on disk at once."""
        board, start, seed, number = key
        row = {
            "board": board,
            "start": start,
            "seed": seed,
            "game": number,
            "won": game.record.won,
            "guesses": game.record.guesses,
            "safe_opened": game.record.safe_opened,
            "seconds": game.record.seconds,
            "invalid": game.record.invalid,
            "check": asdict(game.check),
            "node_ms": game.node_ms,
            "paths": game.paths,
            "cpu_seconds": game.cpu_seconds,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as handle:
            if self._cut_short:  # end the line a hard kill cut short, not this one
                handle.write("\n")
                self._cut_short = False
            handle.write(json.dumps(row) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self.games[key] = game
