"""Compiled code, known by module name only: where it is, when it may answer, the warm-up.

Kernel modules live beside the Python they speed up (``<owner>_compiled.py``)
and are named in the ``semiautomines.compiled`` entry-point group
(:mod:`.registry`); this package imports nothing else of the library, so every
owner may import it. An owner asks :func:`ready` and imports its compiled module
only then; until the warm-up (``python -m minesweep_env.compiled``) has put every
kernel in numba's cache, the Python paths answer with the same results.
Importing this package never imports numba.

Environment variables:

- ``SEMIAUTOMINES_NO_JIT=1``: the Python paths only; numba is never imported.
- ``SEMIAUTOMINES_JIT_SYNC=1``: load, or compile, in the calling process on
  first use and wait for it (benchmarks, tests).
- ``SEMIAUTOMINES_CACHE_DIR``: the marker's folder (default
  ``$XDG_CACHE_HOME/semiautomines``, else ``~/.cache/semiautomines``).
"""

from .marker import (
    CACHE_DIR,
    JIT_SYNC,
    NO_JIT,
    cache_dir,
    cache_key,
    lock_path,
    log_path,
    marker_path,
    marker_ready,
    read_marker,
    write_marker,
)
from .readiness import exact_only, loaded, python_only, ready, reset
from .registry import GROUP, kernel_modules

__all__ = [
    "CACHE_DIR",
    "GROUP",
    "JIT_SYNC",
    "NO_JIT",
    "cache_dir",
    "cache_key",
    "exact_only",
    "kernel_modules",
    "loaded",
    "lock_path",
    "log_path",
    "marker_path",
    "marker_ready",
    "python_only",
    "read_marker",
    "ready",
    "reset",
    "write_marker",
]
