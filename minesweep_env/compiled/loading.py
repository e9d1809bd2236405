"""Loading kernel modules by name, compiling what they declare, finding numba's cache.

Only :mod:`.warm_up` and kernel modules import this (it knows numba's dispatchers
by duck type and never imports numba itself).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable, Iterator, MutableMapping
from pathlib import Path
from types import ModuleType
from typing import Any

from .registry import kernel_modules

Kernel = tuple[Any, tuple]
"""A numba dispatcher and the one signature it is called with."""


def import_kernel_modules() -> dict[str, ModuleType]:
    """Every registered kernel module, imported (this imports numba)."""
    return {name: importlib.import_module(module) for name, module in kernel_modules().items()}


def declared_kernels(module: ModuleType) -> list[Kernel]:
    """The ``(dispatcher, signature)`` pairs ``module`` lists in ``KERNELS`` (maybe none)."""
    return list(getattr(module, "KERNELS", ()))


def compile_module(module: ModuleType) -> None:
    """Compile (or load from numba's cache) everything ``module`` declares."""
    for kernel, signature in declared_kernels(module):
        if signature not in kernel.overloads:
            kernel.compile(signature)
    compile_kernels = getattr(module, "compile_kernels", None)
    if callable(compile_kernels):
        compile_kernels()


def dispatchers(module: ModuleType) -> Iterator[Any]:
    """The cached numba dispatchers defined in ``module`` itself."""
    for value in vars(module).values():
        py_func = getattr(value, "py_func", None)
        if getattr(value, "_cache", None) is not None and getattr(
            py_func, "__module__", None
        ) == module.__name__:
            yield value


def cache_index(kernel: Any) -> str | None:
    """numba's index file for ``kernel``'s cache, if numba says where it is."""
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    return getattr(cache_file, "_index_path", None)


def cache_files(module: ModuleType) -> list[Path]:
    """numba's cache files (index and data) of the kernels defined in ``module``."""
    found: set[Path] = set()
    stem = Path(module.__file__ or "").stem
    for kernel in dispatchers(module):
        index = cache_index(kernel)
        if index is not None:
            found.update(Path(index).parent.glob(f"{stem}.*.nb[ic]"))
    return sorted(found)


_LOADING = threading.Lock()


def load(kernel: Any, signature: tuple) -> None:
    """Load ``kernel`` for ``signature`` (from numba's cache, else by compiling it), then
    forbid further compiles: an unforeseen argument type raises instead of compiling in
    a caller's path."""
    with _LOADING:
        # Once compiles are off numba refuses even a signature it holds: ask only once.
        if signature not in kernel.overloads:
            kernel.compile(signature)
        kernel.disable_compile()


class LoadedOnFirstCall:
    """A kernel that loads itself from numba's cache on its first call (:func:`load`), then
    stands aside: its module's name for it is the kernel again.

    Loading every kernel of a module when the compiled paths open costs CPU that a
    short process, which calls one or two, never earns back.
    """

    def __init__(
        self, namespace: MutableMapping[str, Any], name: str, kernel: Any, signature: tuple
    ) -> None:
        self.namespace, self.name = namespace, name
        self.kernel, self.signature = kernel, signature
        self.loaded = False

    def __call__(self, *args: Any) -> Any:
        if not self.loaded:
            load(self.kernel, self.signature)
            self.loaded = True
            self.namespace[self.name] = self.kernel
        return self.kernel(*args)


def load_on_first_call(namespace: MutableMapping[str, Any], kernels: Iterable[Kernel]) -> None:
    """Put a :class:`LoadedOnFirstCall` in ``namespace`` (a module's globals) for each of
    ``kernels`` not loaded yet, so a kernel never called costs nothing."""
    for kernel, signature in kernels:
        name = kernel.py_func.__name__
        if kernel.overloads.get(signature) is None and namespace.get(name) is kernel:
            namespace[name] = LoadedOnFirstCall(namespace, name, kernel, signature)


__all__ = [
    "LoadedOnFirstCall",
    "cache_files",
    "cache_index",
    "compile_module",
    "declared_kernels",
    "dispatchers",
    "import_kernel_modules",
    "load",
    "load_on_first_call",
]
