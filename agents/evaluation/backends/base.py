"""What a backend is: where a run's chunks are played, and how it fails to start.

A backend takes the run's chunks and yields ``(chunk number, records)`` as
chunks finish, in any order; the harness puts the records back in game order.
A game's outcome depends only on its seeds (see :mod:`..play`), so no backend,
worker count or chunk size can change a result: backends differ in speed and
in what they survive, never in what they report.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Protocol

from ..records import Chunk, GameRecord

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
