"""Compile the fast path's kernels into numba's cache, then mark the cache ready.

``python -m minesweep_env.solver.probability.warm`` does it in the foreground
(the README's set-up commands run it right after installing, so even the first
game is fast); :mod:`.jit` starts it in the background, detached and at low
priority, the first time a process finds the cache cold. Either way it checks
the compiled answer against the exact engine on a small position before writing
the marker, and writes a marker saying "failed" instead when anything goes
wrong, so that no process tries again until the kernels or numba change.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import jit


def _check(fast_mine_probabilities: jit.FastPath) -> None:
    """The compiled kernel answers the way the exact engine does, with and without a total."""
    from ...core.layout import MineLayout
    from ...core.minefield import Minefield
    from .engine import analyse_position

    rng = np.random.default_rng(7)
    field = Minefield(MineLayout.random(9, 9, 10, rng), first_click="safe", rng=rng)
    field.probe(4, 4)
    board = field.board()
    for total in (board.total_mines, None):
        fast = fast_mine_probabilities(board, total)
        exact = analyse_position(board, total).probabilities
        if fast is None or not np.allclose(fast, exact, rtol=0, atol=1e-12, equal_nan=True):
            raise RuntimeError(f"compiled kernel disagrees with the exact engine: {fast} {exact}")


def _check_proof(complete_proof: jit.ProofPath) -> None:
    """The compiled proof of ``complete`` is the Python path's, along a whole game."""
    from ...core.layout import MineLayout
    from ...core.minefield import GameState, Minefield
    from ..rules.complete import Complete

    rng = np.random.default_rng(11)
    field = Minefield(MineLayout.random(16, 16, 40, rng), first_click="safe", rng=rng)
    field.probe(8, 8)
    exact = Complete()
    while field.state is GameState.PLAYING:
        board = field.board()
        answer = complete_proof(board)
        want = exact._prove_exactly(board)
        if answer is None or (answer[0], answer[1]) != (want.safe, want.mines):
            raise RuntimeError(f"compiled proof disagrees with the Python one on {board.rows()}")
        if not want.safe and not want.mines:
            break
        for index in want.mines:
            field.set_flag(index % 16, index // 16)
        field.open_safe(want.safe)


def _check_choice(greedy_choice: jit.ChoicePath) -> None:
    """The one-call greedy kernel picks a cell of exactly the lowest mine weight, along a game."""
    from ...core.cells import COVERED
    from ...core.layout import MineLayout
    from ...core.minefield import GameState, Minefield
    from .engine import count_position

    rng = np.random.default_rng(5)
    field = Minefield(MineLayout.random(9, 9, 10, rng), first_click="safe", rng=rng)
    field.probe(0, 0)
    margins = np.array([1e-9, 1e-11, 1e-10, 1e-9])
    while field.state is GameState.PLAYING:
        board = field.board()
        valid = board.grid.reshape(-1) == COVERED
        status, ranked = greedy_choice(board, valid, 6, True, margins)
        weights = count_position(board)
        lowest = min(w for i, w in weights.mine_weight.items() if w is not None and valid[i])
        if status == "chosen" and weights.mine_weight[ranked[0]] != lowest:
            raise RuntimeError(f"compiled greedy choice {ranked[0]} not lowest on {board.rows()}")
        cell = ranked[0] if status == "chosen" else min(
            i for i, w in weights.mine_weight.items() if w == lowest and valid[i]
        )
        field.probe(cell % 9, cell // 9)


STAMP = "semiautomines-kernel-sources.json"
"""File next to numba's cache: the kernel sources (by content) that cache was built from."""


def _sources_stamp(key: dict) -> str:
    return json.dumps({name: source["sha256"] for name, source in key["sources"].items()})


def drop_stale_caches(key: dict) -> Path | None:
    """Drop numba's cache of every kernel when any kernel source changed since it was written.

    numba checks only a cached kernel's own file, not the files of the kernels
    it calls (``play_kernels.py`` calls ``proof_kernels.py``, which calls
    ``kernels.py``): after an edit of ``kernels.py`` alone it would load the old
    play-out kernel. So a stamp of all the sources is kept beside the cache, and
    when it differs every kernel compiles afresh.

    :returns: the stamp to write once the kernels are compiled and checked.
    """
    from . import fast

    index = fast.cache_index()
    if index is None:
        return None
    folder = Path(index).parent
    stamp = folder / STAMP
    wanted = _sources_stamp(key)
    try:
        if stamp.read_text() == wanted:
            return None
    except OSError:
        pass
    for name in jit.KERNEL_SOURCES:
        for cached in folder.glob(f"{Path(name).stem}.*.nb[ic]"):
            cached.unlink(missing_ok=True)
    return stamp


COMPILE_GROUPS = (
    ("fast.1", "fast.2", "fast.3", "fast.4", "play", "tracked", "batch", "step"),
    ("fast.0", "fast.5", "fast.6", "fast.7", "fast.8", "fast.9", "generation", "layout",
     "lookahead", "view"),
)
"""The kernels' compile jobs in two families of about equal cost (cold cache, one core):
the proof and play-out kernels, and the counting and choice kernels. numba compiles
a callee into each caller, so a family compiled in one process shares its callees;
``fast.N`` is ``fast.KERNELS[N]`` alone."""


def module_compilers() -> dict[str, Callable[[], object]]:
    """The compile job of each kernel module outside ``fast``'s list, by its family name.

    Imported here, not at the top, so that importing this module loads no numba.
    """
    from . import (
        batch_kernels,
        generation_kernels,
        layout_kernels,
        lookahead_kernels,
        play_kernels,
        step_kernels,
        tracked_kernels,
        view_kernels,
    )

    return {
        "play": play_kernels.compile_probe_kernel,  # the env's kernels
        "tracked": tracked_kernels.compile_kernels,
        "batch": batch_kernels.compile_kernels,  # the vector env's step
        "step": step_kernels.compile_kernels,  # the vector env's whole step in one call
        "view": view_kernels.compile_kernels,  # the single env's observation and mask
        "generation": generation_kernels.compile_kernels,
        "layout": layout_kernels.compile_kernels,
        "lookahead": lookahead_kernels.compile_kernels,
    }


def compile_group(names: tuple[str, ...]) -> list[tuple[str, float]]:
    """Compile (or load from numba's cache) the kernels of one :data:`COMPILE_GROUPS` family.

    :returns: each job's name and the CPU seconds it took.
    """
    from . import fast

    groups = module_compilers()
    took = []
    for name in names:
        start = time.process_time()
        if name.startswith("fast."):
            kernel, signature = fast.KERNELS[int(name.removeprefix("fast."))]
            if signature not in kernel.overloads:
                kernel.compile(signature)
        else:
            groups[name]()
        took.append((name, time.process_time() - start))
    return took


def compile_in_parallel(jobs: int) -> None:
    """Fill numba's cache from up to ``jobs`` processes at once, one family each.

    numba writes each cache file whole (a temporary file, then a rename), so two
    processes that compile a shared callee at once both leave a valid file; an
    index entry lost to such a race only means the final load compiles that
    kernel again. The caller then loads every kernel from the cache and checks it.
    """
    context = multiprocessing.get_context("spawn")  # no numba state inherited by a fork
    with context.Pool(min(jobs, len(COMPILE_GROUPS))) as pool:
        for took in pool.imap_unordered(compile_group, COMPILE_GROUPS):
            jobs_took = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in took)
            print(f"  CPU {jobs_took}", flush=True)


def compile_and_mark(key: dict, jobs: int = 1) -> str | None:
    """Load or compile the kernels in this process, check them, write the marker.

    :param jobs: processes that compile at once before this one loads (1: compile here).
    :returns: ``None`` when the cache is ready, else what went wrong (also in the marker).
    """
    try:
        from . import fast

        stamp = drop_stale_caches(key)
        if jobs > 1:
            compile_in_parallel(jobs)
        fast.load_kernels()
        for compile_module in module_compilers().values():
            compile_module()
        _check(fast.fast_mine_probabilities)
        _check_proof(fast.complete_proof)
        _check_choice(fast.greedy_choice)
        if stamp is not None:
            with contextlib.suppress(OSError):  # then the next warm-up compiles afresh again
                stamp.write_text(_sources_stamp(key))
        index = fast.cache_index()
        if index is None or not os.path.exists(index):
            raise RuntimeError(f"numba wrote no cache index (looked for {index})")
    except Exception as error:  # noqa: BLE001 - any failure means: exact engine from now on
        why = f"{type(error).__name__}: {error}"
        traceback.print_exc()
        # No marker where none can be written: each process then starts one warm-up.
        with contextlib.suppress(OSError):
            jit.write_marker(key, "failed", error=why)
        return why
    try:
        jit.write_marker(key, "ready", index=index)
    except OSError as error:
        return f"cannot write the marker ({error})"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--background", action="store_true", help="run at low priority")
    parser.add_argument("--lock", type=Path, help="the lock file to remove when done")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes compiling at once (the test command uses every core; default 1)",
    )
    args = parser.parse_args(argv)
    try:
        if args.background and hasattr(os, "nice"):
            os.nice(10)
        start = time.perf_counter()
        key = jit.cache_key()
        if jit.marker_ready(jit.read_marker(), key):
            print(f"kernels already cached ({jit.marker_path()})")
            return 0
        error = compile_and_mark(key, jobs=max(1, args.jobs))
        if error:
            print(f"warm-up failed, the exact engine will answer: {error}")
            return 1
        print(f"kernels compiled and cached in {time.perf_counter() - start:.1f} s")
        return 0
    finally:
        if args.lock:
            args.lock.unlink(missing_ok=True)


if __name__ == "__main__":
    raise SystemExit(main())
