"""The Ray backend: chunks as Ray tasks, on a local Ray or on a running cluster.

Ray is imported only here, and only when this backend starts, so the rest of
the harness works without it (``pip install 'semiautomines[ray]'`` adds it).

Faults are Ray's to handle: a chunk is one task with ``max_retries``, so a
worker that dies mid-chunk (killed, out of memory, its machine gone) has its
chunk played again from the first game elsewhere. A task returns its whole
chunk or nothing and the driver takes each chunk's result once, so a retry
loses nothing and counts nothing twice; the games replay identically since
their seeds do not depend on who plays them. An error raised by an agent or the
env is not retried (``retry_exceptions`` stays off): it would fail again.

The driver keeps only a few chunks per CPU in flight: a million-game run is
tens of thousands of tasks, and a Ctrl-C then leaves little running.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Generator
from typing import Any

from ..play import play_chunk
from ..records import Chunk, GameRecord, Settings
from ..targets import Target
from .base import BackendError

RAY_CHUNK_GAMES = 100
"""Games per Ray task: a second or so of play on expert, so the few
milliseconds a task costs Ray stay in the noise and a million games are
10,000 tasks, while a retry replays little."""

MAX_RETRIES = 3
"""Times Ray plays a chunk again after its worker died (Ray's own default)."""

IN_FLIGHT_PER_CPU = 2
"""Chunks queued per cluster CPU: one running, one waiting, so no CPU idles
while the driver takes a result in."""

CONNECT_SECONDS = 5.0
"""How long to wait for the cluster's port to answer before giving up."""

LOCAL_OBJECT_STORE = 256 * 1024 * 1024
"""Object store of a Ray this backend starts: results are a few kB per chunk,
and the default (30% of memory) is a lot to ask of a shared machine."""


def play_games(
    agent: str, target: Target, indices: tuple[int, ...], settings: Settings
) -> list[GameRecord]:
    """The Ray task: play one chunk in a worker (its name is the worker's process title)."""
    return play_chunk(Chunk(agent, target, indices, settings))


def split_address(address: str) -> tuple[str, int]:
    """Host and port of ``HOST:PORT`` or ``ray://HOST:PORT`` (IPv6 hosts in brackets)."""
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendError(
            f"--ray-address {address}: give HOST:PORT (the head's GCS port, 6379 by default), "
            "ray://HOST:PORT or auto"
        )
    return host.strip("[]"), int(port)


def check_reachable(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """Fail fast when nothing listens at ``address``.

    ``ray.init`` itself keeps retrying an unreachable head for minutes; a plain
    TCP connection tells "nobody there" in at most ``seconds``.
    """
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=seconds):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise BackendError(
            f"--ray-address {address}: no Ray cluster reachable ({reason})"
        ) from None


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


class RayBackend:
    """Chunks as Ray tasks.

    Without an address (and no ``RAY_ADDRESS`` in the environment) it starts a
    local Ray with ``workers`` CPUs (``None``: every core) and stops it at
    :meth:`close`; with one it joins that cluster and leaves it running, playing
    at most ``workers`` chunks at once if given. A Ray this process already
    started (a notebook, the tests) is used as it is.
    """

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        chunk_games: int = RAY_CHUNK_GAMES,
        max_retries: int = MAX_RETRIES,
    ):
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.workers = workers
        self.chunk_games = chunk_games
        self.max_retries = max_retries
        self._owned = False
        self._cpus = 0

    def start(self) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError(
                "--backend ray needs Ray: pip install 'semiautomines[ray]'"
            ) from None
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": logging.ERROR,  # the progress bar is the report
            }
            if self.address is None:
                options.update(
                    address="local",
                    num_cpus=self.workers,
                    object_store_memory=LOCAL_OBJECT_STORE,
                )
            else:
                if self.address != "auto":
                    check_reachable(self.address)
                options["address"] = self.address
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as error:
                if self.address is None:
                    raise BackendError(f"cannot start a local Ray: {_one_line(error)}") from None
                # Something listens there (check_reachable passed): most often a cluster with
                # token authentication that this machine has no token for.
                raise BackendError(
                    f"cannot join the Ray cluster at {self.address} ({_one_line(error)}); a "
                    "cluster with token authentication also needs RAY_AUTH_MODE=token and its "
                    "token here (README: Run on a cluster)"
                ) from None
            self._owned = True
        self._cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def _in_flight(self) -> int:
        if self.address is not None and self.workers is not None:
            return self.workers  # a cap on this run's share of the cluster
        return IN_FLIGHT_PER_CPU * self._cpus

    def play(self, chunks: list[Chunk]) -> Generator[tuple[int, list[GameRecord]], None, None]:
        import ray

        task = ray.remote(num_cpus=1, max_retries=self.max_retries)(play_games)
        targets: dict[str, Any] = {}  # one copy of each target (maps included) in the store
        pending: dict[Any, int] = {}
        upcoming = iter(enumerate(chunks))

        def submit() -> None:
            for number, chunk in upcoming:
                name = chunk.target.name
                if name not in targets:
                    targets[name] = ray.put(chunk.target)
                ref = task.remote(chunk.agent, targets[name], chunk.indices, chunk.settings)
                pending[ref] = number
                if len(pending) >= self._in_flight():
                    return

        # Nothing is cancelled when the run stops early (Ctrl-C, an error): Ray 2.60's
        # ray.cancel races the reply of a chunk that is just finishing and aborts this
        # process (task_manager.cc: "Tried to complete task that was not pending"; 3 of
        # 16 runs of the Ctrl-C test). Few chunks are in flight, each a second or so of
        # play, and Ray ends a driver's tasks when it exits, so the CPUs come back anyway.
        submit()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                number = pending.pop(ref)
                try:
                    records = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    # The agent's or env's own exception, as the local backend raises it.
                    if isinstance(error.cause, Exception):
                        raise error.cause from None
                    raise
                except ray.exceptions.RayError as error:  # retries used up, cluster lost
                    raise RuntimeError(_one_line(error)) from None
                yield number, records
            submit()

    def close(self) -> None:
        if self._owned:
            import ray

            ray.shutdown()
            self._owned = False

    def describe(self) -> str:
        where = f"at {self.address}" if self.address else "local"
        return f"ray {where}, {self._cpus} CPU{'s' if self._cpus != 1 else ''}"
