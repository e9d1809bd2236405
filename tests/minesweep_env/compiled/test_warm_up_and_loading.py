"""When mine_probabilities uses the compiled kernels (minesweep_env.compiled).

The exact engine answers until a warm-up has put the kernels in numba's cache
and written a marker with this install's key; a marker with another key, a
failed status or a missing cache is not used; SEMIAUTOMINES_NO_JIT keeps numba
out entirely.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from paths import REPO
from positions import random_position

from minesweep_env import analyse_position, mine_probabilities
from minesweep_env import compiled as jit
from minesweep_env.compiled import readiness


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """An empty marker folder, background mode, and this process's decision forgotten."""
    monkeypatch.setenv(jit.CACHE_DIR, str(tmp_path))
    monkeypatch.delenv(jit.JIT_SYNC, raising=False)
    monkeypatch.delenv(jit.NO_JIT, raising=False)
    jit.reset()
    yield tmp_path
    jit.reset()


def _run(code: str, **environment: str) -> str:
    """Run ``code`` in a fresh interpreter importing this tree; its stdout."""
    env = {**os.environ, "PYTHONPATH": str(REPO), **environment}
    env.pop(jit.JIT_SYNC, None)
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


PLAY = """
import sys
from minesweep_env import Board, mine_probabilities
from minesweep_env import compiled as jit
board = Board.from_rows(["1?", "??"], total_mines=1)
print(mine_probabilities(board)[1, 1], jit.ready(), "numba" in sys.modules)
"""


def test_exact_engine_answers_while_a_warm_up_runs(fresh: Path) -> None:
    jit.lock_path().write_text("1")  # another process's warm-up, just started
    for seed in range(20):
        board, _ = random_position(seed)
        exact = analyse_position(board).probabilities
        assert np.array_equal(mine_probabilities(board), exact, equal_nan=True)
    assert not jit.ready()
    assert not jit.marker_path().exists()


def test_a_cold_process_answers_without_numba(fresh: Path) -> None:
    jit.lock_path().write_text("1")
    out = _run(PLAY, **{jit.CACHE_DIR: str(fresh)}).split()
    assert out == [str(1 / 3), "False", "False"]


def test_no_jit_never_imports_numba(fresh: Path) -> None:
    out = _run(PLAY, **{jit.CACHE_DIR: str(fresh), jit.NO_JIT: "1"}).split()
    assert out == [str(1 / 3), "False", "False"]
    assert not jit.lock_path().exists()  # and starts no warm-up


def test_background_warm_up_then_fast_path(fresh: Path) -> None:
    out = _run(PLAY, **{jit.CACHE_DIR: str(fresh)}).split()
    assert out[1:] == ["False", "False"]
    deadline = time.monotonic() + 280
    while time.monotonic() < deadline and jit.lock_path().exists():
        time.sleep(0.5)
    marker = jit.read_marker()
    assert marker is not None and marker["status"] == "ready", jit.log_path().read_text()
    assert jit.marker_ready(marker, jit.cache_key())
    out = _run(PLAY, **{jit.CACHE_DIR: str(fresh)}).split()
    assert out[1:] == ["True", "True"]
    assert float(out[0]) == pytest.approx(1 / 3, abs=1e-12)


def test_marker_for_another_key_or_status_is_not_used(fresh: Path) -> None:
    key = jit.cache_key()
    index = fresh / "index.nbi"
    index.write_text("")
    jit.write_marker(key, "ready", index=str(index))
    assert jit.marker_ready(jit.read_marker(), key)
    for name, value in [("numba", "0.0.0"), ("numpy", "0.0.0"), ("python", "2.7")]:
        assert not jit.marker_ready(jit.read_marker(), {**key, name: value})
    edited = json.loads(json.dumps(key))
    edited["sources"]["counting"]["mtime_ns"] += 1  # numba would recompile: so do not trust
    assert not jit.marker_ready(jit.read_marker(), edited)
    jit.write_marker(key, "failed", error="boom", index=str(index))
    assert not jit.marker_ready(jit.read_marker(), key)
    jit.write_marker(key, "ready", index=str(fresh / "deleted.nbi"))
    assert not jit.marker_ready(jit.read_marker(), key)
    jit.marker_path().write_text("{not json")
    assert jit.read_marker() is None


def test_failed_warm_up_is_not_retried(fresh: Path) -> None:
    jit.write_marker(jit.cache_key(), "failed", error="LoweringError: boom")
    with pytest.warns(RuntimeWarning, match="boom"):
        assert not jit.ready()
    assert not jit.lock_path().exists()  # no new warm-up
    board, _ = random_position(3)
    assert np.array_equal(
        mine_probabilities(board), analyse_position(board).probabilities, equal_nan=True
    )


def test_unwritable_cache_folder_means_exact_engine(fresh: Path, monkeypatch) -> None:
    blocker = fresh / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(jit.CACHE_DIR, str(blocker / "cache"))
    with pytest.warns(RuntimeWarning, match="lock"):
        assert not jit.ready()
    assert not jit.ready()  # said once, decided for the process


def test_sync_mode_compiles_here_and_marks_ready(fresh: Path, monkeypatch) -> None:
    monkeypatch.setenv(jit.JIT_SYNC, "1")
    assert jit.ready()
    assert jit.marker_ready(jit.read_marker(), jit.cache_key())
    from minesweep_env.solver.probability.engine_compiled import fast_mine_probabilities

    board, _ = random_position(11)
    board.grid.flags.writeable = False  # a read-only grid takes the same compiled kernel
    probabilities = fast_mine_probabilities(board, None)
    assert probabilities is not None
    exact = analyse_position(board).probabilities
    assert np.allclose(probabilities, exact, rtol=0, atol=1e-12, equal_nan=True)


EXACT_ONLY = """
import sys
from minesweep_env import Board, mine_probabilities
from minesweep_env import compiled as jit
jit.exact_only()
board = Board.from_rows(["1?", "??"], total_mines=1)
print(mine_probabilities(board)[1, 1], jit.ready(), "numba" in sys.modules)
"""


def test_exact_only_starts_no_warm_up_and_keeps_numba_out(fresh: Path) -> None:
    # Without exact_only a cold cache starts a background warm-up (see the test above).
    out = _run(EXACT_ONLY, **{jit.CACHE_DIR: str(fresh)}).split()
    assert out == [str(1 / 3), "False", "False"]
    assert not jit.lock_path().exists() and not jit.marker_path().exists()


def test_exact_only_leaves_loaded_kernels_in_use(fresh: Path, monkeypatch) -> None:
    monkeypatch.setenv(jit.JIT_SYNC, "1")
    assert jit.ready()
    jit.exact_only()
    assert jit.ready() and jit.loaded()


def test_lock_of_a_killed_warm_up_is_stale(fresh: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    jit.lock_path().write_text(str(gone.pid))
    assert readiness._stale(jit.lock_path())
    jit.lock_path().write_text(str(os.getpid()))
    assert not readiness._stale(jit.lock_path())


def test_an_edited_kernel_source_drops_every_kernels_numba_cache(tmp_path, monkeypatch) -> None:
    """numba checks only a kernel's own file; the warm-up checks all of them."""
    from types import SimpleNamespace

    from minesweep_env.compiled import loading, warm_up

    modules = {name: SimpleNamespace(name=name) for name in ("counting", "complete-play")}
    cached = [tmp_path / f"{name}.f-1.py311.{ext}" for name in modules for ext in ("nbi", "nbc")]
    monkeypatch.setattr(warm_up, "_stamp_folder", lambda found: tmp_path)
    monkeypatch.setattr(
        warm_up,
        "cache_files",
        lambda module: sorted(tmp_path.glob(f"{module.name}.*.nb[ic]")),
    )
    assert loading.cache_files is not warm_up.cache_files  # the stand-in is the warm-up's
    other = tmp_path / "unrelated.f-1.py311.nbi"
    for path in [*cached, other]:
        path.write_text("")
    key = jit.cache_key()
    stamp = warm_up.drop_stale_caches(key, modules)
    assert stamp is not None and not any(path.exists() for path in cached) and other.exists()
    stamp.write_text(warm_up._sources_stamp(key))
    for path in cached:
        path.write_text("")
    assert warm_up.drop_stale_caches(key, modules) is None and all(p.exists() for p in cached)
    edited = {**key, "sources": {**key["sources"], "counting": {"sha256": "edited"}}}
    assert warm_up.drop_stale_caches(edited, modules) == stamp
    assert not any(p.exists() for p in cached)


def test_every_registered_kernel_module_is_compiled_by_one_family() -> None:
    """A module registered but in no compile family would compile during a game."""
    from minesweep_env.compiled import kernel_modules, warm_up

    families = warm_up.compile_groups(2)
    names = [name for family in families for name in family]
    assert sorted(names) == sorted(kernel_modules()) and len(families) == 2


def test_the_registry_names_the_library_and_the_agents_kernels() -> None:
    """Both distributions' kernel modules come from the entry-point group; the library's
    own modules never name the agents' (the registry knows them by dotted name only)."""
    from minesweep_env.compiled import kernel_modules
    from minesweep_env.compiled.registry import source_path

    modules = kernel_modules()
    assert "minesweep_env.solver.probability.counting_compiled" in modules.values()
    assert "semiautomines_agents.greedy.choice_compiled" in modules.values()
    for module in modules.values():
        assert source_path(module).is_file()
    agents = [m for m in modules.values() if m.startswith("semiautomines_agents.")]
    names = [*agents, *(m.rsplit(".", 1)[1] for m in agents), "greedy_choice", "trial_weights"]
    for path in (REPO / "minesweep_env").rglob("*.py"):
        text = path.read_text()
        assert not [name for name in names if name in text], path


def test_parallel_warm_up_fills_the_cache_every_process_then_loads() -> None:
    """Two compile processes, then a fresh one finds every kernel of the engine cached."""
    from minesweep_env.compiled import warm_up

    warm_up.compile_in_parallel(2)
    loaded = _run(
        "from minesweep_env.solver.probability import engine_compiled as m\n"
        "kernel, signature = m.KERNELS[0]\n"
        "kernel.compile(signature)\n"
        "print(kernel.stats.cache_misses == {} or not any(kernel.stats.cache_misses.values()))"
    )
    assert loaded.strip() == "True"


LAZY = """
from minesweep_env import Board, compiled
assert compiled.ready()
from minesweep_env.solver.probability import engine_compiled as fast
from minesweep_env.solver.rules import complete_compiled
kernel = fast.KERNELS[0][0]
waiting = type(fast.mine_probabilities_into).__name__
fast.fast_mine_probabilities(Board.from_rows(["1?", "??"], total_mines=1))
print(waiting, fast.mine_probabilities_into is kernel, kernel._can_compile,
      complete_compiled.KERNELS[0][0]._can_compile)
"""


def test_each_kernel_loads_from_the_cache_on_its_first_call() -> None:
    """The compiled paths open without loading their kernels; a kernel's first call loads
    it from the cache and switches its compiles off, the others wait for theirs."""
    jit.ready()  # the cache ready (this tree's warm-up, as the suite runs it)
    if not jit.loaded():
        pytest.skip("the compiled kernels are not loaded")
    waiting, replaced, can_compile, other_can_compile = _run(LAZY).split()
    assert waiting == "LoadedOnFirstCall" and replaced == "True"
    assert can_compile == "False" and other_can_compile == "True"


QUIET = """
import gymnasium, minesweep_env
e = gymnasium.make("SemiAutoMines-v0")
e.reset(seed=0)
e.step(int(e.unwrapped.action_masks().argmax()))
"""


def test_a_cold_start_exits_quietly_while_the_warm_up_runs_on(fresh: Path) -> None:
    """The background warm-up is nobody's child: no ResourceWarning at exit (``-X dev``
    shows every one, ``-W error`` makes it fail), and its lock names it."""
    env = {**os.environ, "PYTHONPATH": str(REPO), jit.CACHE_DIR: str(fresh)}
    env.pop(jit.JIT_SYNC, None)
    env.pop(jit.NO_JIT, None)
    done = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error::ResourceWarning", "-c", QUIET],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "ResourceWarning" not in done.stderr and "still running" not in done.stderr
    assert jit.lock_path().exists()  # the warm-up started and holds its lock
    pid = int(jit.lock_path().read_text())
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)  # not wanted here: the test's own marker folder
