"""How the project installs: its import names, its packages, and which layer imports which."""

from __future__ import annotations

import ast
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from paths import REPO

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

IMPORT_NAMES = {"minesweep_env": "minesweep_env", "agents": "semiautomines_agents"}
"""Repository folder -> the import name it installs as."""


def test_every_package_folder_is_installed_under_its_import_name():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {"semiautomines_agents": "agents"}
    folders = set()
    for folder, name in IMPORT_NAMES.items():
        for init in (REPO / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / folder).parts
            folders.add(".".join((name, *parts)))
    assert set(config["packages"]) == folders


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def test_the_library_never_imports_the_agents():
    agents = set(IMPORT_NAMES.values()) - {"minesweep_env"} | {"agents"}
    offenders = {
        str(path.relative_to(REPO)): sorted(imports)
        for path in (REPO / "minesweep_env").rglob("*.py")
        if (imports := {m for m in _imported_modules(path) if m.split(".")[0] in agents})
    }
    assert offenders == {}


def test_nothing_imports_the_agents_under_the_folder_name():
    folders = ("agents", "minesweep_env", "tests", "benchmarks", "scripts")
    offenders = [
        str(path.relative_to(REPO))
        for folder in folders
        for path in (REPO / folder).rglob("*.py")
        if any(m.split(".")[0] == "agents" for m in _imported_modules(path))
    ]
    assert offenders == []


def test_the_agents_add_their_commands_to_the_command_line():
    commands = {e.name: e.value for e in entry_points(group="semiautomines.commands")}
    assert commands == {
        "evaluate": "semiautomines_agents.commands.evaluate",
        "guess": "semiautomines_agents.commands.guess",
        "replay": "semiautomines_agents.commands.replay",
        "serve": "semiautomines_agents.commands.serve",
        "train": "semiautomines_agents.commands.train",
        "watch": "semiautomines_agents.commands.watch",
    }
