"""Helpers for the tests that press Ctrl-C on a child process.

A shell starts a background job (``pytest ... &``, a CI runner's detached step)
with SIGINT ignored, the child inherits that, and Python then installs no
KeyboardInterrupt handler: the test's SIGINT would be lost and the test would
wait for a run of 100,000 games. Resetting SIGINT to its default before exec
gives the child what a terminal's Ctrl-C meets.
"""

from __future__ import annotations

import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO


def as_if_from_a_terminal() -> None:
    """``preexec_fn`` for Popen: SIGINT back to its default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read_all(stream: IO[str], chunks: list[str]) -> None:
    """Collect a pipe as it is written (the caller watches the progress bar live)."""
    chunks.extend(iter(lambda: stream.read(64), ""))


def ctrl_c_once_playing(command: list[str], cwd: Path, games: int) -> tuple[int, str, str]:
    """Run ``command``, press Ctrl-C once its progress bar counts ``games``, wait for it.

    Waiting for the bar, not a fixed sleep: on a loaded machine start-up alone can
    outlast any sleep, and a Ctrl-C during start-up tests something else.
    Returns (exit status, stdout, stderr).
    """
    return signal_once(command, cwd, lambda _, err: _bar_count(err) >= games, signal.SIGINT)


def sigterm_once_playing(
    command: list[str],
    cwd: Path,
    games: int,
    env: dict[str, str] | None = None,
    before_signal: Callable[[int], None] | None = None,
) -> tuple[int, str, str]:
    """:func:`ctrl_c_once_playing` with SIGTERM, what ``timeout`` and ``kill`` send
    (``before_signal`` as in :func:`signal_once`)."""
    ready = lambda _, err: _bar_count(err) >= games  # noqa: E731
    return signal_once(command, cwd, ready, signal.SIGTERM, env, before_signal)


def _bar_count(stderr: str) -> int:
    counts = re.findall(r"\| *(\d+)/\d+", stderr)
    return int(counts[-1]) if counts else 0


def signal_once(
    command: list[str],
    cwd: Path,
    ready: Callable[[str, str], bool],
    signum: int,
    env: dict[str, str] | None = None,
    before_signal: Callable[[int], None] | None = None,
) -> tuple[int, str, str]:
    """Run ``command``, send it ``signum`` once ``ready(stdout, stderr)`` holds, wait for it.

    ``before_signal(pid)``, if given, runs just before the signal is sent (a test
    notes the processes the command started, to check that none outlives it).
    Returns (exit status, stdout, stderr).
    """
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_if_from_a_terminal,
        env=env,
    )
    stdout_chunks: list[str] = []
    stderr_chunks: list[str] = []
    readers = [
        threading.Thread(target=_read_all, args=(stream, chunks), daemon=True)
        for stream, chunks in ((process.stdout, stdout_chunks), (process.stderr, stderr_chunks))
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + 300  # start-up alone can take a minute on a loaded machine
    while not ready("".join(stdout_chunks), "".join(stderr_chunks)):
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            process.wait(timeout=60)
            raise AssertionError(f"never ready to be stopped: {''.join(stderr_chunks)[-2000:]}")
        time.sleep(0.1)
    if before_signal is not None:
        before_signal(process.pid)
    process.send_signal(signum)
    process.wait(timeout=60)
    for reader in readers:
        reader.join(timeout=10)
    return process.returncode, "".join(stdout_chunks), "".join(stderr_chunks)
