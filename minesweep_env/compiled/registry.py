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


__all__ = ["GROUP", "kernel_modules", "source_path"]
