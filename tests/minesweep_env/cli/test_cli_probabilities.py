"""``semiautomines probabilities`` through the real entry point (a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-m", "minesweep_env.cli.main", "probabilities"]


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text("11 1\n?1?1???????\n")
    return path


def test_grid_output_replaces_each_covered_cell_by_its_probability(board_file: Path) -> None:
    done = _run(str(board_file), "--mines", "2", cwd=board_file.parent)
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()
    assert header == "11 1 2"
    tokens = row.split()
    # 7 layouts: the middle cell is the mine in 6 of them.
    assert tokens[:4] == ["0.143", "1", "0.857", "1"]
    assert tokens[4:] == ["0.143"] * 7
    assert len(row) == 11 * 6 - 1  # aligned: every column 5 wide, one space between
    assert row[5:12] == "     1 "


def test_without_total_cells_off_the_frontier_stay_unknown(board_file: Path) -> None:
    done = _run(str(board_file), "--decimals", "2", cwd=board_file.parent)
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()
    assert header == "11 1"
    assert row.split() == ["0.50", "1", "0.50", "1", "0.50"] + ["?"] * 6


def test_json_output(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("3 3 2\n???\n?2!\n???\n")
    done = _run(str(path), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["width"], data["height"], data["mines"]) == (3, 3, 2)
    rows = data["probabilities"]
    assert rows[1][1] is None and rows[1][2] is None
    assert rows[0][0] == pytest.approx(1 / 7, abs=1e-12)


def test_header_total_is_used_and_mines_overrides_it(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("11 1 1\n?1?1???????\n")
    done = _run(str(path), "--json", cwd=tmp_path)
    assert json.loads(done.stdout)["probabilities"][0][2] == 1.0
    done = _run(str(path), "--json", "--mines", "2", cwd=tmp_path)
    assert json.loads(done.stdout)["probabilities"][0][2] == pytest.approx(6 / 7)


def test_output_file_is_not_overwritten_without_force(board_file: Path) -> None:
    out = board_file.parent / "out.txt"
    out.write_text("keep me\n")
    done = _run(str(board_file), "-o", str(out), cwd=board_file.parent)
    assert done.returncode == 2
    assert "--force" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert out.read_text() == "keep me\n"
    done = _run(str(board_file), "-o", str(out), "--force", cwd=board_file.parent)
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith("11 1\n")
    assert done.stdout == ""


def test_board_is_never_overwritten(board_file: Path) -> None:
    before = board_file.read_text()
    done = _run(str(board_file), "-o", str(board_file), "--force", cwd=board_file.parent)
    assert done.returncode == 2
    assert board_file.read_text() == before


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("2 2\n3?\n?1\n", "board.txt:2: inconsistent position: cell (0, 0)"),
        ("2 2\n\n1 ?\n\n? 3\n", "board.txt:5: inconsistent position: cell (1, 1)"),
        ("3 2\n???\n?x?\n", "board.txt:3: unexpected character 'x'"),
        ("3 2\n???\n", "board.txt:2: expected 2 rows"),
        ("2 1 0\n1?\n", "board.txt: inconsistent position"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "board.txt"
    path.write_text(content)
    done = _run("board.txt", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_missing_file_and_bad_mines(tmp_path: Path, board_file: Path) -> None:
    done = _run("nowhere.txt", cwd=tmp_path)
    assert done.returncode == 2 and "nowhere.txt: no such file" in done.stderr
    done = _run(str(board_file), "--mines", "99", cwd=tmp_path)
    assert done.returncode == 2 and "--mines 99" in done.stderr


def test_help_shows_an_example(tmp_path: Path) -> None:
    done = _run("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "semiautomines probabilities board.txt" in done.stdout


def test_compact_fits_an_expert_board_in_100_columns(tmp_path, capsys):
    from minesweep_env import Game, format_board, mine_probabilities
    from minesweep_env.cli.main import main as cli

    game = Game.new("expert", seed=3, first_click="zero", rule_set="endoh")
    game.probe(15, 8)
    path = tmp_path / "expert.txt"
    path.write_text(format_board(game.board))
    assert cli(["probabilities", str(path)]) == 0
    wide = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in wide) > 100  # the reason for --compact
    assert cli(["probabilities", str(path), "--compact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "30 16 99" and len(lines) == 17
    assert max(len(line) for line in lines) <= 100
    probabilities = mine_probabilities(game.board)
    for y, line in enumerate(lines[1:]):
        tokens = [line[3 * x : 3 * x + 2].strip() for x in range(30)]
        for x, token in enumerate(tokens):
            p = probabilities[y, x]
            if token.isdigit() and game.view[y, x] < 0:  # a covered cell's percent
                assert abs(int(token) - 100 * p) <= 1 if 0 < p < 1 else int(token) == 0
            elif token == "M":
                assert p == 1


@pytest.fixture
def expert_position(tmp_path: Path) -> Path:
    """An expert position after one opening: its full grid is 179 columns wide."""
    from minesweep_env import Game, format_board

    game = Game.new("expert", seed=3, first_click="zero", rule_set="endoh")
    game.probe(15, 8)
    path = tmp_path / "expert.txt"
    path.write_text(format_board(game.board))
    return path


def _printed_in_a_terminal(monkeypatch, capsys, columns: int, *args: str) -> list[str]:
    """What ``probabilities ARGS`` prints when standard output is a ``columns``-wide terminal."""
    from minesweep_env.cli.main import main as cli

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", str(columns))  # what shutil.get_terminal_size reads first
    assert cli(["probabilities", *args]) == 0
    return capsys.readouterr().out.splitlines()


def _is_compact(lines: list[str]) -> bool:
    return max(len(line) for line in lines) <= 90 and "." not in "".join(lines)


def test_a_terminal_narrower_than_the_grid_gets_the_compact_view(
    expert_position, monkeypatch, capsys
):
    narrow = _printed_in_a_terminal(monkeypatch, capsys, 100, str(expert_position))
    assert _is_compact(narrow) and narrow[0] == "30 16 99" and len(narrow) == 17
    wide = _printed_in_a_terminal(monkeypatch, capsys, 200, str(expert_position))
    assert max(len(line) for line in wide) > 100 and "0." in wide[1]  # fits: decimals
    kept = _printed_in_a_terminal(monkeypatch, capsys, 100, str(expert_position), "--no-compact")
    assert kept == wide
    asked = _printed_in_a_terminal(
        monkeypatch, capsys, 100, str(expert_position), "--decimals", "3"
    )
    assert asked == wide  # decimals asked for are decimals shown


def test_a_small_board_keeps_its_decimals_in_a_narrow_terminal(board_file, monkeypatch, capsys):
    lines = _printed_in_a_terminal(monkeypatch, capsys, 80, str(board_file), "--mines", "2")
    assert "0." in lines[1] and max(len(line) for line in lines) <= 80


def test_a_pipe_or_a_file_keeps_the_full_grid_whatever_the_terminal(expert_position):
    import os

    env = {**os.environ, "COLUMNS": "80", "SEMIAUTOMINES_NO_JIT": "1"}
    piped = subprocess.run(
        [*COMMAND, str(expert_position)], capture_output=True, text=True, timeout=60, env=env
    )
    assert piped.returncode == 0, piped.stderr
    assert max(len(line) for line in piped.stdout.splitlines()) > 100
    out = expert_position.with_name("out.txt")
    written = subprocess.run(
        [*COMMAND, str(expert_position), "-o", str(out)], capture_output=True, text=True, env=env
    )
    assert written.returncode == 0 and out.read_text() == piped.stdout


def test_help_says_when_the_view_is_compact(tmp_path: Path) -> None:
    text = " ".join(_run("--help", cwd=tmp_path).stdout.split())
    assert "narrower than the full grid" in text and "--no-compact" in text
    assert "always the full grid unless --compact is given" in text


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs a POSIX pty")
def test_in_a_real_100_column_terminal_the_rows_do_not_wrap(expert_position, monkeypatch):
    from pty_terminal import Terminal

    monkeypatch.setenv("SEMIAUTOMINES_NO_JIT", "1")
    with Terminal(
        [str(expert_position)], command="probabilities", lines=40, cols=100, timeout=60.0
    ) as terminal:
        assert terminal.wait_exit() == 0
        printed = bytes(terminal.raw).decode().replace("\r\n", "\n").splitlines()
    assert printed[0] == "30 16 99" and len(printed) == 17 and _is_compact(printed)
