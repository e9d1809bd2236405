"""Imports point one way: no module of the library or the agents imports itself back.

Python tolerates many import circles at run time (a lazy import inside a
function, an import under ``if TYPE_CHECKING:``), but each one ties modules
that should stand in layers, so a circle of any kind fails here, printed module
by module. The walk reads the source with :mod:`ast`: every import counts,
wherever it sits, relative ones resolved against their package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import minesweep_env
import semiautomines_agents

ROOTS = {
    "minesweep_env": Path(minesweep_env.__file__).parent,
    "semiautomines_agents": Path(semiautomines_agents.__file__).parent,
}
"""The packages walked, by import name, and their folders."""


def module_files(name: str, folder: Path) -> dict[str, Path]:
    """Every module under ``folder`` by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join((name, *parts))] = path
    return modules


def resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import ...`` written in ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: -(level - 1)]
    return ".".join(base + ([target] if target else []))


def imported_modules(module: str, path: Path, known: set[str]) -> set[str]:
    """The walked modules ``module`` imports, from anywhere in its source.

    ``import a.b`` imports ``a.b``; ``from a import b`` imports the submodule
    ``a.b`` when there is one, otherwise ``a`` itself (its ``__init__``).
    """
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in known else source)
    return {name for name in found if name in known and name != module}


def import_graph(roots: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the walked modules it imports."""
    files: dict[str, Path] = {}
    for name, folder in roots.items():
        files.update(module_files(name, folder))
    known = set(files)
    return {module: imported_modules(module, path, known) for module, path in files.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep package cannot exceed the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def one_circle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest circle through the component's first module, ending where it starts."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                return paths[node] + [start]
            if nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    raise AssertionError(f"no circle through {start}")  # a component always has one


def circles(graph: dict[str, set[str]], prefix: str) -> list[str]:
    """Each knot of modules touching ``prefix``: one circle through it, as
    ``a -> b -> a``, and every module the knot ties together."""
    return [
        " -> ".join(one_circle(graph, component))
        + ("" if len(component) == 2 else f"  (knot of {len(component)}: {', '.join(component)})")
        for component in strongly_connected(graph)
        if any(m == prefix or m.startswith(prefix + ".") for m in component)
    ]


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(ROOTS)


def test_the_walk_finds_every_kind_of_import(tmp_path: Path) -> None:
    """A made-up package with a lazy, a TYPE_CHECKING and a relative submodule
    import: each edge is seen and the circle they close is reported."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import A\n")
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n\nclass A: ...\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n"
    )
    (pkg / "c.py").write_text("import pkg.a\nfrom pkg import A\n")
    found = import_graph({"pkg": pkg})
    assert found["pkg.a"] == {"pkg.sub.b"}
    assert found["pkg.sub.b"] == {"pkg.c"}
    assert found["pkg.c"] == {"pkg.a", "pkg"}
    [circle] = circles(found, "pkg")
    assert circle.startswith("pkg -> pkg.a -> pkg.sub.b -> pkg.c -> pkg  (knot of 4")


def test_a_layered_package_has_no_circle(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import a, b\n")
    (pkg / "a.py").write_text("from .b import B\n")
    (pkg / "b.py").write_text("import os\nB = 1\n")
    found = import_graph({"pkg": pkg})
    assert found["pkg"] == {"pkg.a", "pkg.b"}
    assert circles(found, "pkg") == []


def test_the_agents_have_no_import_circle(graph: dict[str, set[str]]) -> None:
    found = circles(graph, "semiautomines_agents")
    assert not found, "import circles:\n" + "\n".join(found)


def test_the_library_has_no_import_circle(graph: dict[str, set[str]]) -> None:
    found = circles(graph, "minesweep_env")
    assert not found, "import circles:\n" + "\n".join(found)


def test_the_library_never_imports_the_agents(graph: dict[str, set[str]]) -> None:
    """The library finds commands and advisors through entry points, never by import."""
    leaks = sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if module.startswith("minesweep_env")
        for target in targets
        if target.startswith("semiautomines_agents")
    )
    assert not leaks, "\n".join(leaks)
