"""Compile every registered kernel into numba's cache, check it, then mark the cache ready.

``python -m minesweep_env.compiled`` does it in the foreground (the set-up
scripts run it right after installing, so even the first game is fast);
:mod:`.readiness` starts it in the background, detached and at low priority,
the first time a process finds the cache cold. Either way each kernel module's
``CHECK`` compares the compiled answer with its Python reference before the
marker is written, and a marker saying "failed" is written instead when anything
goes wrong, so that no process tries again until the kernels or numba change.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import multiprocessing
import os
import time
import traceback
from pathlib import Path
from types import ModuleType

from .loading import (
    cache_files,
    cache_index,
    compile_module,
    declared_kernels,
    dispatchers,
    import_kernel_modules,
)
from .marker import cache_key, marker_path, marker_ready, read_marker, write_marker
from .registry import kernel_imports, kernel_modules, source_path

STAMP = "semiautomines-kernel-sources.json"
"""File next to numba's cache: the kernel sources (by content) that cache was built from."""


def _sources_stamp(key: dict) -> str:
    return json.dumps({name: source["sha256"] for name, source in key["sources"].items()})


def _stamp_folder(modules: dict[str, ModuleType]) -> Path | None:
    """Where the stamp lives: beside the cache of the first kernel numba caches."""
    for module in modules.values():
        for kernel in dispatchers(module):
            index = cache_index(kernel)
            if index is not None:
                return Path(index).parent
    return None


def drop_stale_caches(key: dict, modules: dict[str, ModuleType]) -> Path | None:
    """Drop numba's cache of every kernel when any kernel source changed since it was written.

    numba checks only a cached kernel's own file, not the files of the kernels it
    calls (the ``complete`` play-out calls the proof, which calls the counting):
    after an edit of the counting alone it would load the old play-out. So a stamp
    of all the sources is kept beside the cache, and when it differs every kernel
    compiles afresh.

    :returns: the stamp to write once the kernels are compiled and checked.
    """
    folder = _stamp_folder(modules)
    if folder is None:
        return None
    stamp = folder / STAMP
    wanted = _sources_stamp(key)
    try:
        if stamp.read_text() == wanted:
            return None
    except OSError:
        pass
    for module in modules.values():
        for cached in cache_files(module):
            cached.unlink(missing_ok=True)
    return stamp


def compiled_with(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each module with every module it imports, directly or not: what a process compiling
    it compiles (numba compiles a kernel's callees with it)."""
    closures = {}
    for name in imports:
        reached, waiting = {name}, [name]
        while waiting:
            for other in imports.get(waiting.pop(), ()):
                if other not in reached:
                    reached.add(other)
                    waiting.append(other)
        closures[name] = reached
    return closures


def compile_groups(jobs: int) -> list[list[str]]:
    """The registered modules in ``jobs`` families, one compile process each
    (:func:`families`, with each module's source size for its work)."""
    sizes = {name: source_path(module).stat().st_size for name, module in kernel_modules().items()}
    return families(kernel_imports(), sizes, jobs)


def families(imports: dict[str, set[str]], sizes: dict[str, int], jobs: int) -> list[list[str]]:
    """Split modules into up to ``jobs`` families of about equal compile work.

    A family's work is taken as the size (a rough stand-in for compile time) of every
    module its members import, directly or not, since numba compiles a kernel's
    callees in the process that compiles the kernel: modules that share callees go
    together, so that two processes seldom compile the same callee. Modules are
    placed largest work first, each where the longest family stays shortest, then where
    it adds the least new work. Each family lists a module after those it imports.

    :param imports: each module's imported modules (:func:`.registry.kernel_imports`).
    :param sizes: each module's own work.
    """
    closures = compiled_with(imports)

    def work(names: set[str]) -> int:
        return sum(sizes[name] for name in names)

    count = max(1, jobs)
    members: list[list[str]] = [[] for _ in range(count)]
    covered: list[set[str]] = [set() for _ in range(count)]
    for name in sorted(sizes, key=lambda n: (-work(closures[n]), n)):

        def cost(f: int, name: str = name) -> tuple[int, int, int]:
            longest = max(
                work(covered[g] | closures[name]) if g == f else work(covered[g])
                for g in range(count)
            )
            return longest, work(closures[name] - covered[f]), f

        chosen = min(range(count), key=cost)
        members[chosen].append(name)
        covered[chosen] |= closures[name]
    return [_imports_first(family, closures) for family in members if family]


def _imports_first(family: list[str], closures: dict[str, set[str]]) -> list[str]:
    """``family`` ordered so that a module comes after the modules it imports (its own
    compile time then excludes theirs), else by name."""
    return sorted(family, key=lambda name: (len(closures[name]), name))


def compile_group(names: list[str]) -> list[tuple[str, float]]:
    """Compile (or load from numba's cache) the kernels of the registered modules ``names``.

    :returns: each module's name and the CPU seconds it took.
    """
    registered = kernel_modules()
    took = []
    for name in names:
        start = time.process_time()
        compile_module(importlib.import_module(registered[name]))
        took.append((name, time.process_time() - start))
    return took


def compile_in_parallel(jobs: int) -> None:
    """Fill numba's cache from up to ``jobs`` processes at once, one family each.

    numba writes each cache file whole (a temporary file, then a rename), so two
    processes that compile a shared callee at once both leave a valid file; an
    index entry lost to such a race only means the final load compiles that
    kernel again. The caller then loads every kernel from the cache and checks it.
    """
    families = compile_groups(jobs)
    context = multiprocessing.get_context("spawn")  # no numba state inherited by a fork
    with context.Pool(len(families)) as pool:
        for took in pool.imap_unordered(compile_group, families):
            jobs_took = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in took)
            print(f"  CPU {jobs_took}", flush=True)


def run_checks(modules: dict[str, ModuleType]) -> None:
    """Call each module's ``CHECK`` (``"module:function"``); it raises on a disagreement."""
    for module in modules.values():
        check = getattr(module, "CHECK", None)
        if check:
            owner, _, function = check.partition(":")
            getattr(importlib.import_module(owner), function)()


def _index(modules: dict[str, ModuleType]) -> str | None:
    """numba's index file of the first declared kernel: the marker names it, and a
    marker whose index is gone (the cache was deleted) is not trusted."""
    for module in modules.values():
        for kernel, _ in declared_kernels(module):
            index = cache_index(kernel)
            if index is not None:
                return index
    return None


def compile_and_mark(key: dict, jobs: int = 1) -> str | None:
    """Load or compile every registered kernel in this process, check them, write the marker.

    :param jobs: processes that compile at once before this one loads (1: compile here).
    :returns: ``None`` when the cache is ready, else what went wrong (also in the marker).
    """
    try:
        modules = import_kernel_modules()
        stamp = drop_stale_caches(key, modules)
        if jobs > 1:
            compile_in_parallel(jobs)
        for module in modules.values():
            compile_module(module)
        run_checks(modules)
        if stamp is not None:
            with contextlib.suppress(OSError):  # then the next warm-up compiles afresh again
                stamp.write_text(_sources_stamp(key))
        index = _index(modules)
        if index is None or not os.path.exists(index):
            raise RuntimeError(f"numba wrote no cache index (looked for {index})")
    except Exception as error:  # noqa: BLE001 - any failure means: Python paths from now on
        why = f"{type(error).__name__}: {error}"
        traceback.print_exc()
        # No marker where none can be written: each process then starts one warm-up.
        with contextlib.suppress(OSError):
            write_marker(key, "failed", error=why)
        return why
    try:
        write_marker(key, "ready", index=index)
    except OSError as error:
        return f"cannot write the marker ({error})"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m minesweep_env.compiled", description=__doc__.split("\n\n")[0]
    )
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
        key = cache_key()
        if marker_ready(read_marker(), key):
            print(f"kernels already cached ({marker_path()})")
            return 0
        error = compile_and_mark(key, jobs=max(1, args.jobs))
        if error:
            print(f"warm-up failed, the Python paths will answer: {error}")
            return 1
        print(f"kernels compiled and cached in {time.perf_counter() - start:.1f} s")
        return 0
    finally:
        if args.lock:
            args.lock.unlink(missing_ok=True)


if __name__ == "__main__":
    raise SystemExit(main())
