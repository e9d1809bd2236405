"""The local backend: processes of this machine, or this very process for one worker."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator

from ..play import play_chunk
from ..records import Chunk, GameRecord

LOCAL_CHUNK_GAMES = 25
"""Games per chunk on local processes: small enough to balance workers and move
the bar, large enough that sending work to a process costs nothing noticeable."""


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps the results."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_numbered(numbered: tuple[int, Chunk]) -> tuple[int, list[GameRecord]]:
    number, chunk = numbered
    return number, play_chunk(chunk)


class LocalBackend:
    """Processes of this machine; one worker plays in this very process."""

    def __init__(self, workers: int = 1, chunk_games: int = LOCAL_CHUNK_GAMES):
        self.workers = workers
        self.chunk_games = chunk_games

    def start(self) -> None:
        """Nothing to prepare: the pool is made by :meth:`play`."""

    def play(self, chunks: list[Chunk]) -> Generator[tuple[int, list[GameRecord]], None, None]:
        if self.workers <= 1:
            for number, chunk in enumerate(chunks):
                yield number, play_chunk(chunk)
            return
        context = multiprocessing.get_context("spawn")
        with context.Pool(self.workers, initializer=_ignore_sigint) as pool:
            yield from pool.imap_unordered(_play_numbered, enumerate(chunks))

    def close(self) -> None:
        """Nothing held between runs."""

    def describe(self) -> str:
        return f"local, {self.workers} process{'es' if self.workers != 1 else ''}"
