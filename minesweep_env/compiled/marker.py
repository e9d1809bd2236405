"""The marker: a small JSON file saying numba's cache holds every registered kernel.

It is keyed by everything the cached machine code depends on (Python, numpy and
numba versions; every kernel module's source, by content and by the size and
time stamp numba itself checks). A process that finds a marker with its own key
may use the compiled paths; one that finds none starts the warm-up.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import metadata
from pathlib import Path

import numpy as np

from .registry import kernel_modules, source_path

NO_JIT = "SEMIAUTOMINES_NO_JIT"
"""Set to 1: the Python paths only; numba is never imported."""
JIT_SYNC = "SEMIAUTOMINES_JIT_SYNC"
"""Set to 1: load, or compile, in the calling process on first use and wait (tests, benchmarks)."""
CACHE_DIR = "SEMIAUTOMINES_CACHE_DIR"
"""The marker's folder (default ``$XDG_CACHE_HOME/semiautomines``, else
``~/.cache/semiautomines``)."""

_HERE = Path(__file__).resolve().parent


def flag(name: str) -> bool:
    """Whether the environment variable ``name`` is set to something true."""
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def cache_dir() -> Path:
    """The folder of the marker and the warm-up's lock and log."""
    if os.environ.get(CACHE_DIR):
        return Path(os.environ[CACHE_DIR])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "semiautomines"


def _stem() -> str:
    # One marker per installed copy: two checkouts have two sets of kernels and caches.
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
    :raises OSError, ModuleNotFoundError: when a registered kernel module cannot be read.
    """
    sources = {}
    for name, module in kernel_modules().items():
        path = source_path(module)
        stat = path.stat()
        sources[name] = {
            "module": module,
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


__all__ = [
    "CACHE_DIR",
    "JIT_SYNC",
    "NO_JIT",
    "cache_dir",
    "cache_key",
    "flag",
    "lock_path",
    "log_path",
    "marker_path",
    "marker_ready",
    "read_marker",
    "write_marker",
]
