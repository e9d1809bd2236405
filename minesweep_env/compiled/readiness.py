"""When the compiled fast path answers: never compile in a caller's path.

Compiling the kernels of :mod:`.kernels` takes half a minute or more, and even
importing numba costs about half a second, while the exact engine answers an
expert position in about a millisecond. So :func:`~.engine.mine_probabilities`
asks :func:`fast_path`, which hands out the compiled path only once numba's
on-disk cache holds the kernels; until then the exact engine answers (the same
probabilities within 1e-12 and the same order of cells, so no game changes).

The first call that finds the cache cold starts one background warm-up: a
detached, low-priority ``python -m minesweep_env.solver.probability.warm`` that
compiles the kernels (numba writes its cache) and then writes a *marker*, a
small JSON file in the user cache directory keyed by all the compiled code
depends on (Python, numpy and numba versions; the kernels' sources, by content
and by the size and time stamp numba itself checks). A process that finds a
marker with its own key imports numba and loads the kernels from the cache
(about a second, once). A process still waiting looks for the marker again
every :data:`RECHECK` seconds, so a long run switches to the fast path once the
warm-up is done.

The README's set-up commands (``scripts/run_main.sh``, ``scripts/run_tests.sh``)
run ``python -m minesweep_env.solver.probability.warm`` right after installing,
so the first game after set-up is fast already.

Environment variables:

- ``SEMIAUTOMINES_NO_JIT=1``: the exact engine only; numba is never imported.
- ``SEMIAUTOMINES_JIT_SYNC=1``: load, or compile, in the calling process on
  first use and wait for it (benchmarks, tests).
- ``SEMIAUTOMINES_CACHE_DIR``: the marker's folder (default
  ``$XDG_CACHE_HOME/semiautomines``, else ``~/.cache/semiautomines``).

A warm-up that fails writes a marker saying so: from then on the exact engine
answers, said once per process by a warning, until the key changes (another
numba, edited kernels) or the marker is deleted; nothing retries in a loop. At
most one warm-up runs at a time (a lock file made with ``O_EXCL``; one older
than :data:`STALE_LOCK` seconds, or naming a process that is gone, is taken as
left by a killed warm-up), and a process starts at most one.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...core.board import Board

if TYPE_CHECKING:  # the engine imports this module
    from .engine import Weights

FastPath = Callable[[Board, "int | None"], "np.ndarray | None"]
""":func:`.fast.fast_mine_probabilities`'s shape."""

ProofPath = Callable[[Board], "tuple[set[int], set[int], np.ndarray | None] | None"]
""":func:`.fast.complete_proof`'s shape."""

PlayOutPath = Callable[
    [np.ndarray, np.ndarray, np.ndarray, int, bool, int],
    "tuple[list[int], list[int], int, bool, np.ndarray | None]",
]
""":func:`.fast.complete_play_out`'s shape."""

TrialPath = Callable[[Board, int, np.ndarray, bool], "tuple[np.ndarray, np.ndarray]"]
""":func:`.fast.trial_weights`' shape."""

GroupPath = Callable[[Board], "tuple[np.ndarray, np.ndarray] | None"]
""":func:`.fast.group_probabilities`' shape."""

ClassPath = Callable[[Board], "np.ndarray | None"]
""":func:`.fast.weight_classes`' shape."""

WeightsPath = Callable[[Board], "Weights | None"]
""":func:`.fast.exact_weights`' shape."""

ChoicePath = Callable[[Board, np.ndarray, int, bool, np.ndarray], "tuple[str, list[int]]"]
""":func:`.fast.greedy_choice`'s shape."""


class CompiledPaths(NamedTuple):
    """Every compiled path, once the kernels are loaded (see :mod:`.fast`)."""

    probabilities: FastPath
    """:func:`.fast.fast_mine_probabilities`."""
    proof: ProofPath
    """:func:`.fast.complete_proof`: ``complete``'s proof of one position."""
    play_out: PlayOutPath
    """:func:`.fast.complete_play_out`: ``complete``'s auto-solver on one game."""
    play_out_many: Callable[..., None]
    """:func:`.play_kernels.play_out_many`: the same on boards of a batch."""
    open_many: Callable[..., None]
    """:func:`.play_kernels.open_many`: probes and their floods on boards of a batch."""
    trial_weights: TrialPath
    """:func:`.fast.trial_weights`: a guess's numbers weighed (the chance of progress)."""
    group_probabilities: GroupPath
    """:func:`.fast.group_probabilities`: probabilities and groups of interchangeable cells."""
    weight_classes: ClassPath
    """:func:`.fast.weight_classes`: the groups of exactly equal mine weight."""
    exact_weights: WeightsPath
    """:func:`.fast.exact_weights`: ``count_position``'s weights from the compiled count."""
    greedy_choice: ChoicePath
    """:func:`.fast.greedy_choice`: the greedy agent's decision in one call, where floats decide."""


KERNEL_SOURCES = (
    "kernels.py",
    "proof_kernels.py",
    "play_kernels.py",
    "tracked_kernels.py",
    "batch_kernels.py",
    "step_kernels.py",
    "greedy_kernels.py",
    "choice_kernels.py",
    "generation_kernels.py",
    "layout_kernels.py",
    "lookahead_kernels.py",
    "view_kernels.py",
)
"""The files, next to this one, whose code numba compiles and caches."""

RECHECK = 5.0
"""Seconds between two looks for the marker while the warm-up runs."""

STALE_LOCK = 1800.0
"""Age in seconds after which a warm-up's lock is taken as left by a killed warm-up."""

NO_JIT = "SEMIAUTOMINES_NO_JIT"
JIT_SYNC = "SEMIAUTOMINES_JIT_SYNC"
CACHE_DIR = "SEMIAUTOMINES_CACHE_DIR"

_HERE = Path(__file__).resolve().parent


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def cache_dir() -> Path:
    """The folder of the marker and the warm-up's lock and log."""
    if os.environ.get(CACHE_DIR):
        return Path(os.environ[CACHE_DIR])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "semiautomines"


def _stem() -> str:
    # One marker per installed copy: two checkouts have two kernels files and two caches.
    return "jit-" + hashlib.sha256(str(_HERE).encode()).hexdigest()[:16]


def marker_path() -> Path:
    return cache_dir() / f"{_stem()}.json"


def lock_path() -> Path:
    return cache_dir() / f"{_stem()}.lock"


def log_path() -> Path:
    return cache_dir() / f"{_stem()}.log"


def cache_key() -> dict:
    """Everything the cached machine code depends on, as it is now.

    :raises metadata.PackageNotFoundError: when numba is not installed.
    """
    sources = {}
    for name in KERNEL_SOURCES:
        path = _HERE / name
        stat = path.stat()
        sources[name] = {
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
        }
    return {
        "python": sys.version,
        "numpy": np.__version__,
        "numba": metadata.version("numba"),
        "path": str(_HERE),
        # numba caches there instead when it is set.
        "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR", ""),
        "sources": sources,
    }


def read_marker() -> dict | None:
    """The marker's contents, or ``None`` when there is none or it cannot be read."""
    try:
        marker = json.loads(marker_path().read_text())
    except (OSError, ValueError):
        return None
    return marker if isinstance(marker, dict) else None


def write_marker(key: dict, status: str, **details: object) -> None:
    """Write the marker whole or not at all (readers never see half a file)."""
    path = marker_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"key": key, "status": status, **details}, indent=1))
    os.replace(temporary, path)


def marker_ready(marker: dict | None, key: dict) -> bool:
    """Whether ``marker`` says the cache holds the kernels for ``key``, and the cache is there."""
    if not marker or marker.get("key") != key or marker.get("status") != "ready":
        return False
    index = marker.get("index")
    return isinstance(index, str) and os.path.exists(index)


class _Readiness:
    """One process's view: the fast path once loaded, or why and until when not."""

    def __init__(self) -> None:
        self.fast: FastPath | None = None
        self.paths: CompiledPaths | None = None
        self.final = False  # the exact engine answers for the rest of this process
        self.next_look = 0.0
        self.key: dict | None = None
        self.warm_up: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def look(self) -> None:
        """Decide again (called under ``self.lock``, at most every :data:`RECHECK` s)."""
        self.next_look = time.monotonic() + RECHECK
        if _flag(NO_JIT):
            self.final = True
            return
        if self.key is None:
            try:
                self.key = cache_key()
            except (OSError, metadata.PackageNotFoundError) as error:
                self.give_up(f"cannot read what the kernels depend on ({error})")
                return
        marker = read_marker()
        if marker_ready(marker, self.key):
            self.load()
        elif _flag(JIT_SYNC):
            self.compile_here()
        elif marker and marker.get("key") == self.key and marker.get("status") == "failed":
            self.give_up(f"an earlier warm-up failed ({marker.get('error')}); see {marker_path()}")
        elif self.warm_up is None:
            self.start_warm_up()
        elif self.warm_up.poll() not in (None, 0):
            self.give_up(f"the warm-up exited with {self.warm_up.returncode}; see {log_path()}")

    def load(self) -> None:
        from . import fast

        fast.load_kernels_on_use()  # each kernel from the cache on its first call
        self.paths = fast.paths()
        self.fast = self.paths.probabilities

    def compile_here(self) -> None:
        from . import warm

        assert self.key is not None
        error = warm.compile_and_mark(self.key)
        if error:
            self.give_up(error)
        else:
            self.load()

    def start_warm_up(self) -> None:
        lock = lock_path()
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            if _stale(lock):
                lock.unlink(missing_ok=True)
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            # Another process's warm-up runs: wait for its marker.
            self.warm_up = _ANOTHER
            return
        except OSError as error:
            self.give_up(f"cannot write the warm-up's lock ({error})")
            return
        os.close(descriptor)
        # The child must import this very copy of the package, whatever this process's sys.path.
        environment = dict(os.environ)
        package_root = str(_HERE.parents[2])
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [package_root, environment.get("PYTHONPATH")])
        )
        command = [sys.executable, "-u", "-m", f"{__package__}.warm", "--background", "--lock"]
        try:
            with open(log_path(), "wb") as log:
                self.warm_up = subprocess.Popen(
                    [*command, str(lock)],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=environment,
                    start_new_session=True,
                )
        except OSError as error:
            lock.unlink(missing_ok=True)
            self.give_up(f"cannot start the warm-up ({error})")
            return
        lock.write_text(str(self.warm_up.pid))  # whose lock it is, for _stale

    def give_up(self, why: str) -> None:
        self.final = True
        warnings.warn(
            f"semiautomines: compiled probabilities off, the exact engine answers: {why}",
            RuntimeWarning,
            stacklevel=5,
        )


class _Another:
    """Stands for a warm-up another process started: it runs until its marker shows."""

    returncode = None

    def poll(self) -> None:
        return None


_ANOTHER: subprocess.Popen = _Another()  # type: ignore[assignment]


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


def fast_path() -> FastPath | None:
    """The compiled path if its kernels are loaded or can be loaded from the cache now,
    else ``None`` (the exact engine answers): cheap enough to ask on every call."""
    state = _readiness
    if state.fast is not None:
        return state.fast
    if state.final or time.monotonic() < state.next_look:
        return None
    with state.lock:
        if state.fast is None and not state.final and time.monotonic() >= state.next_look:
            state.look()
    return state.fast


def compiled() -> CompiledPaths | None:
    """Every compiled path when :func:`fast_path` answers, else ``None`` (Python answers)."""
    return _readiness.paths if fast_path() is not None else None


def loaded() -> CompiledPaths | None:
    """Every compiled path if this process has loaded the kernels already, else ``None``;
    never loads or compiles (for callers whose own work may be too short to pay the load)."""
    return _readiness.paths


def exact_only() -> None:
    """The exact engine answers for the rest of this process, unless it has loaded the
    kernels already (then they stay in use).

    Why: importing numba and loading the kernels from its cache costs about a second,
    more than a one-shot analysis of one position spends counting on the exact engine
    (``semiautomines guess``); both give the same counts, so the answer is the same.
    Stronger than :data:`JIT_SYNC`: the caller knows its own work is short.
    """
    state = _readiness
    with state.lock:
        if state.fast is None:
            state.final = True


def reset() -> None:
    """Forget this process's decision (tests; the loaded kernels stay in memory)."""
    global _readiness
    _readiness = _Readiness()


__all__ = [
    "CACHE_DIR",
    "CompiledPaths",
    "JIT_SYNC",
    "NO_JIT",
    "cache_dir",
    "cache_key",
    "compiled",
    "exact_only",
    "fast_path",
    "loaded",
    "marker_path",
    "marker_ready",
    "read_marker",
    "write_marker",
]
