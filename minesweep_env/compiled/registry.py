"""Which modules hold compiled code: the ``semiautomines.compiled`` entry-point group.

Each installed distribution names its kernel modules there (name = dotted
module), the library its own and the agents theirs, so the warm-up compiles
whatever is installed and nothing here knows a kernel by name. A kernel module
may declare, all optional:

- ``KERNELS``: ``(dispatcher, signature)`` pairs the warm-up compiles;
- ``compile_kernels()``: compiles what a plain list cannot say;
- ``CHECK``: ``"module:function"``, a function that raises when the compiled
  answer differs from the Python reference (the warm-up calls it before marking
  the cache ready; named by string so the kernel module never imports its owner).

The sources are found without importing anything (importing a kernel module
imports numba), so the cache key costs a few file reads.
"""

from __future__ import annotations

import ast
import importlib.util
from importlib import metadata
from pathlib import Path

GROUP = "semiautomines.compiled"
"""The entry-point group naming every kernel module."""


def kernel_modules() -> dict[str, str]:
    """Every registered kernel module, name -> dotted module, in name order."""
    found = {point.name: point.value for point in metadata.entry_points(group=GROUP)}
    return dict(sorted(found.items()))


def source_path(module: str) -> Path:
    """The source file of ``module``, found without importing it or its packages.

    :raises ModuleNotFoundError: when its top-level package is not installed.
    """
    top, *rest = module.split(".")
    spec = importlib.util.find_spec(top)  # a top-level name imports nothing
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"no package {top!r} for kernel module {module!r}")
    for location in spec.submodule_search_locations:
        base = Path(location).joinpath(*rest)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate.resolve()
    raise ModuleNotFoundError(f"no source file for kernel module {module!r}")


def _imported_names(module: str, tree: ast.Module) -> set[str]:
    """Every dotted name ``module``'s imports could mean: each module named, and for a
    ``from ... import`` each imported name as a submodule too (relative ones resolved)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            package = module.split(".")[: -node.level]
            origin = ".".join([*package, *([node.module] if node.module else [])])
        else:
            origin = node.module or ""
        names.add(origin)
        names.update(f"{origin}.{alias.name}" for alias in node.names)
    return names


def kernel_imports() -> dict[str, set[str]]:
    """Which registered modules each registered module imports, by name, read from the
    sources with :mod:`ast` (nothing is imported).

    numba compiles a kernel's callees in the process that compiles the kernel, so a module
    that imports kernels from another compiles (its share of) that module too: the
    warm-up keeps such modules in one process.
    """
    registered = kernel_modules()
    name_of = {module: name for name, module in registered.items()}
    found = {}
    for name, module in registered.items():
        tree = ast.parse(source_path(module).read_text(encoding="utf-8"))
        found[name] = {
            name_of[other]
            for other in _imported_names(module, tree)
            if other in name_of and other != module
        }
    return found


__all__ = ["GROUP", "kernel_imports", "kernel_modules", "source_path"]
