"""Where a run's chunks are played: processes of this machine, or a Ray cluster.

A backend takes the run's chunks and yields ``(chunk number, records)`` as
chunks finish, in any order; the harness puts the records back in game order.
A game's outcome depends only on its seeds (see :mod:`.play`), so no backend,
worker count or chunk size can change a result: backends differ in speed and
in what they survive, never in what they report.

The Ray backend lives in :mod:`.ray_backend` and imports Ray only when asked
for, so the local backend never needs it installed.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator
from typing import Protocol

from .play import Chunk, play_chunk
from .stats import GameRecord

LOCAL_CHUNK_GAMES = 25
"""Games per chunk on local processes: small enough to balance workers and move
the bar, large enough that sending work to a process costs nothing noticeable."""

BACKENDS = ("local", "ray")
"""The names ``--backend`` takes."""


class BackendError(Exception):
    """A backend cannot start (Ray missing, no cluster at the address): one line to show."""


class Backend(Protocol):
    """What the harness needs from a backend."""

    chunk_games: int
    """Games per chunk this backend wants (the plan cuts the run accordingly)."""

    def start(self) -> None:
        """Get ready (connect to a cluster); raise :class:`BackendError` when it cannot."""

    def play(self, chunks: list[Chunk]) -> Generator[tuple[int, list[GameRecord]], None, None]:
        """Play every chunk, yielding its number in ``chunks`` and its records as it finishes.

        Closing the iterator early (Ctrl-C, an error) stops the outstanding work.
        """

    def close(self) -> None:
        """Release what :meth:`start` took (a local Ray instance, worker processes)."""

    def describe(self) -> str:
        """Where the games were played, for run.json and the summary line."""


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


def make_backend(name: str, workers: int | None, address: str | None = None) -> Backend:
    """The backend ``--backend NAME`` asks for.

    :param workers: local processes; for Ray, the CPUs of the Ray it starts, or,
        joining a cluster at ``address``, the most chunks played at once
        (``None``: every CPU of the cluster).
    """
    if name == "local":
        if address is not None:
            raise BackendError("--ray-address needs --backend ray")
        return LocalBackend(workers or 1)
    if name == "ray":
        from .ray_backend import RayBackend

        return RayBackend(address=address, workers=workers)
    raise BackendError(f"unknown backend {name!r} (choose from {', '.join(BACKENDS)})")
