"""``semiautomines deduce`` through the real entry point (a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from minesweep_env import RULE_SETS, Board, deduce

COMMAND = [sys.executable, "-m", "minesweep_env.cli.main", "deduce"]

INTERSECTION = "4 2\n????\n!23!\n"
"""The "Mines" tool's groups (123, 1) and (234, 2): (0, 0) safe, (3, 0) a mine, the middle open."""


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(INTERSECTION)
    return path


def test_grid_marks_proven_safe_cells_and_mines(board_file: Path) -> None:
    done = run(str(board_file), "--rule-set", "groups", cwd=board_file.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["4 2", "o??x", "!23!", "# groups: 1 safe (o), 1 mine (x)"]
    assert done.stderr == ""


def test_json_lists_cells_as_x_y(board_file: Path) -> None:
    done = run(str(board_file), "--rule-set", "mysweeper", "--json", cwd=board_file.parent)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"safe": [[0, 0]], "mines": [[3, 0]]}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_json_is_the_deduce_fixed_point_for_every_rule_set(tmp_path: Path, name: str) -> None:
    rows = ["01?", "02?", "02?", "01?"]  # mine-solver's column
    path = tmp_path / "column.txt"
    path.write_text("3 4 2\n" + "\n".join(rows) + "\n")
    done = run(str(path), "--rule-set", name, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    safe, mines = deduce(Board.from_rows(rows, 2), name)
    expected = {
        "safe": sorted([x, y] for x, y in safe),
        "mines": sorted([x, y] for x, y in mines),
    }
    got = json.loads(done.stdout)
    assert {key: sorted(value) for key, value in got.items()} == expected


def test_mines_option_gives_the_total(tmp_path: Path) -> None:
    path = tmp_path / "count.txt"
    path.write_text("4 1\n?1??\n")  # one mine in all: (3, 0) is safe by the count alone
    without = run(str(path), "--rule-set", "complete", "--json", cwd=tmp_path)
    with_total = run(str(path), "--rule-set", "complete", "--mines", "1", "--json", cwd=tmp_path)
    assert json.loads(without.stdout) == {"safe": [], "mines": []}
    assert json.loads(with_total.stdout) == {"safe": [[3, 0]], "mines": []}
    header = run(str(path), "--rule-set", "substitution", "--mines", "1", cwd=tmp_path)
    assert header.stdout.splitlines()[0] == "4 1 1"


def test_help_shows_an_example_and_the_marks() -> None:
    done = subprocess.run([*COMMAND, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "semiautomines deduce board.txt --rule-set" in done.stdout
    assert '"o"' in done.stdout and '"x"' in done.stdout
    for name in RULE_SETS:
        assert name in done.stdout


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("2 2\n1?\n?3\n", [], "board.txt:3: inconsistent position: cell (1, 1)"),
        ("2 2\n1?\n?x\n", [], "board.txt:3: unexpected character 'x'"),
        ("3 1\n!1?\n", ["--mines", "0"], "1 flag(s) but only 0 mine(s)"),
        ("4 2\n????\n!23!\n", ["--mines", "99"], "--mines 99 out of range 0..8"),
        ("4 2\n????\n!23!\n", ["--rule-set", "nope"], "invalid choice: 'nope'"),
        ("", [], "board.txt:1: empty file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, content: str, args: list[str], message: str
) -> None:
    path = tmp_path / "board.txt"
    path.write_text(content)
    done = run(str(path), *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert message in done.stderr


def test_missing_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run(str(tmp_path / "nowhere.txt"), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("nowhere.txt: no such file")
