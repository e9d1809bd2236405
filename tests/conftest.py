"""Session set-up: the probability fast path is decided the same way in every test run.

Tests load (or, on a fresh checkout, compile) the compiled kernels in the test
process on first use rather than in a background warm-up, so no test run leaves
a detached process behind, and keep the warm-up's marker in a temporary folder
rather than the user's cache. Subprocesses started by tests inherit both.

stable-baselines3 makes a log folder in the system's temporary folder for every
model that learns without one; ``SB3_LOGDIR`` puts those in this run's folder
too, and the folder goes when the run ends.
"""

import atexit
import os
import shutil
import tempfile

import pytest

_RUN_FOLDER = tempfile.mkdtemp(prefix="semiautomines-tests-")
atexit.register(shutil.rmtree, _RUN_FOLDER, ignore_errors=True)

os.environ.setdefault("SEMIAUTOMINES_JIT_SYNC", "1")
os.environ.setdefault("SEMIAUTOMINES_CACHE_DIR", os.path.join(_RUN_FOLDER, "jit"))
os.environ.setdefault("SB3_LOGDIR", os.path.join(_RUN_FOLDER, "sb3"))


@pytest.fixture
def python_paths():
    """Within the test the compiled paths are off: the Python paths answer."""
    from minesweep_env.compiled import python_only

    with python_only():
        yield


def pytest_collection_modifyitems(config, items):
    """The ``recipes`` tests (heavy extras: TorchRL, RLlib, PufferLib) run only when
    selected with ``-m recipes``; otherwise they are skipped, saying so."""
    if "recipes" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a recipes test: run with -m recipes (needs the examples extra)")
    for item in items:
        if "recipes" in item.keywords:
            item.add_marker(skip)
