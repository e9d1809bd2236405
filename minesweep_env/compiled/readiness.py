"""When the compiled paths may answer: never compile in a caller's path.

Compiling the registered kernels takes minutes on one core, and even importing
numba costs about half a second, while the Python paths answer an expert
position in about a millisecond. So an owner of compiled code asks
:func:`ready` before it imports its ``*_compiled`` module; the answer is yes only
once numba's on-disk cache holds every kernel (the marker of :mod:`.marker`
says so). Until then the Python paths answer, with the same results (every
compiled path is tested against its Python reference), so no game changes.

The first call that finds the cache cold starts one background warm-up: a
detached, low-priority ``python -m minesweep_env.compiled --background`` that
compiles every registered kernel (numba writes its cache) and then writes the
marker. It is started through ``/bin/sh`` which puts it in the background and
exits at once; that shell is reaped here, so the warm-up is nobody's child and
no process ends with a subprocess handle still open. The start is logged (logger
``minesweep_env.compiled``, level INFO) with the warm-up's log file. A process still
waiting looks for the marker again every :data:`RECHECK` seconds, so a long run
switches to the compiled paths once the warm-up is done.

A warm-up that fails writes a marker saying so: from then on the Python paths
answer, said once per process by a warning, until the key changes (another
numba, edited kernels) or the marker is deleted; nothing retries in a loop. At
most one warm-up runs at a time (a lock file made with ``O_EXCL``; one older
than :data:`STALE_LOCK` seconds, or naming a process that is gone, is taken as
left by a killed warm-up), and a process starts at most one.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

from .marker import (
    JIT_SYNC,
    NO_JIT,
    cache_key,
    flag,
    lock_path,
    log_path,
    marker_path,
    marker_ready,
    read_marker,
)

RECHECK = 5.0
"""Seconds between two looks for the marker while the warm-up runs."""

STALE_LOCK = 1800.0
"""Age in seconds after which a warm-up's lock is taken as left by a killed warm-up."""

LOG = logging.getLogger("minesweep_env.compiled")

_PACKAGE_ROOT = Path(__file__).resolve().parents[2]

_DETACH = 'log=$1; shift; "$@" </dev/null >"$log" 2>&1 & echo $!'
"""The shell line that starts the warm-up in the background and prints its process id."""


class _Readiness:
    """One process's view: ready, or why and until when not."""

    def __init__(self) -> None:
        self.ready = False
        self.final = False  # the Python paths answer for the rest of this process
        self.next_look = 0.0
        self.key: dict | None = None
        self.waiting = False  # a warm-up (this process's or another's) holds the lock
        self.lock = threading.Lock()

    def look(self) -> None:
        """Decide again (called under ``self.lock``, at most every :data:`RECHECK` s)."""
        self.next_look = time.monotonic() + RECHECK
        if flag(NO_JIT):
            self.final = True
            return
        if self.key is None:
            try:
                self.key = cache_key()
            except (OSError, ModuleNotFoundError, metadata.PackageNotFoundError) as error:
                self.give_up(f"cannot read what the kernels depend on ({error})")
                return
        marker = read_marker()
        if marker_ready(marker, self.key):
            self.ready = True
        elif flag(JIT_SYNC):
            self.compile_here()
        elif marker and marker.get("key") == self.key and marker.get("status") == "failed":
            self.give_up(f"an earlier warm-up failed ({marker.get('error')}); see {marker_path()}")
        elif not self.waiting:
            self.start_warm_up()
        elif not lock_path().exists():  # the warm-up ended: with a marker, or it failed
            if marker_ready(read_marker(), self.key):
                self.ready = True
            else:
                self.give_up(f"the warm-up ended without marking the cache; see {log_path()}")

    def compile_here(self) -> None:
        from .warm_up import compile_and_mark

        assert self.key is not None
        error = compile_and_mark(self.key)
        if error:
            self.give_up(error)
        else:
            self.ready = True

    def start_warm_up(self) -> None:
        lock = lock_path()
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            if _stale(lock):
                lock.unlink(missing_ok=True)
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            self.waiting = True  # another process's warm-up runs: wait for its marker
            return
        except OSError as error:
            self.give_up(f"cannot write the warm-up's lock ({error})")
            return
        os.close(descriptor)
        try:
            pid = _launch_detached(lock)
        except (OSError, ValueError, subprocess.SubprocessError) as error:
            lock.unlink(missing_ok=True)
            self.give_up(f"cannot start the warm-up ({error})")
            return
        lock.write_text(str(pid))  # whose lock it is, for _stale
        self.waiting = True
        LOG.info(
            "compiling the fast paths in the background (pid %d, log %s); "
            "the Python paths answer until then",
            pid,
            log_path(),
        )

    def give_up(self, why: str) -> None:
        self.final = True
        warnings.warn(
            f"semiautomines: compiled paths off, the Python paths answer: {why}",
            RuntimeWarning,
            stacklevel=5,
        )


def _launch_detached(lock: Path) -> int:
    """Start the warm-up detached and at low priority; return its process id.

    On POSIX a shell starts it in the background and exits at once; the shell is
    waited for here, so no handle of a still-running child is left to finalise.
    """
    # The child must import this very copy of the package, whatever this process's sys.path.
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(_PACKAGE_ROOT), environment.get("PYTHONPATH")])
    )
    command = [sys.executable, "-u", "-m", __package__, "--background", "--lock", str(lock)]
    if os.name == "posix":
        shell = subprocess.run(
            ["/bin/sh", "-c", _DETACH, "sh", str(log_path()), *command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=environment,
            start_new_session=True,
            timeout=30,
            check=True,
            text=True,
        )
        return int(shell.stdout.split()[-1])
    with open(log_path(), "wb") as log:
        flags = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(
            subprocess, "CREATE_NEW_PROCESS_GROUP", 0
        )
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environment,
            creationflags=flags,
        )
    _DETACHED.append(child)  # kept for the life of the process: it is meant to outlive us
    return child.pid


_DETACHED: list[subprocess.Popen] = []


def _stale(lock: Path) -> bool:
    """Whether ``lock`` was left by a warm-up that no longer runs (gone, or too old)."""
    try:
        if time.time() - lock.stat().st_mtime > STALE_LOCK:
            return True
        pid = int(lock.read_text())
    except (OSError, ValueError):
        return False
    if os.name != "posix":
        return False  # Windows' os.kill would end the process: trust the age alone
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (another user's) or we cannot tell
    return False


_readiness = _Readiness()


def ready() -> bool:
    """Whether the compiled paths may answer now (their kernels are in numba's cache):
    cheap enough to ask on every call. The first ``False`` may start the warm-up."""
    state = _readiness
    if state.ready:
        return True
    if state.final or time.monotonic() < state.next_look:
        return False
    with state.lock:
        if not state.ready and not state.final and time.monotonic() >= state.next_look:
            state.look()
    return state.ready


def loaded() -> bool:
    """Whether this process has found the compiled paths ready already; never looks,
    loads or compiles (for callers whose own work may be too short to pay the load)."""
    return _readiness.ready


def exact_only() -> None:
    """The Python paths answer for the rest of this process, unless it has found the
    compiled paths ready already (then they stay in use).

    Why: importing numba and loading kernels from its cache costs about a second,
    more than a one-shot analysis of one position spends on the exact engine
    (``semiautomines guess``); both give the same counts, so the answer is the same.
    Stronger than :data:`~.marker.JIT_SYNC`: the caller knows its own work is short.
    """
    state = _readiness
    with state.lock:
        if not state.ready:
            state.final = True


@contextmanager
def python_only() -> Iterator[None]:
    """Within: the Python paths answer (:func:`ready` and :func:`loaded` say no), whatever
    numba's cache holds; this process's decision is back as it was afterwards. For
    comparing a compiled path with its Python reference (tests, benchmarks)."""
    global _readiness
    kept = _readiness
    _readiness = _Readiness()
    _readiness.final = True
    try:
        yield
    finally:
        _readiness = kept


def reset() -> None:
    """Forget this process's decision (tests; loaded kernels stay in memory)."""
    global _readiness
    _readiness = _Readiness()


__all__ = ["LOG", "RECHECK", "STALE_LOCK", "exact_only", "loaded", "python_only", "ready", "reset"]
