"""The community's board formats through the command line: ``guess`` and
``probabilities`` read JSMinesweeper's position text, ``evaluate --maps`` and
``solvable`` read .mbf/.abf boards, ``generate --format mbf`` writes them; a
broken file of each format is one line on stderr, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_cli_all import assert_one_line_error, run

from minesweep_env import load_layout
from minesweep_env.formats import parse_mbf

# 4x3, mines at (0, 0), (3, 0), (1, 2); bytes: width, height, count (2 bytes, big-endian),
# then x, y per mine.
BOARD_FILE = bytes([4, 3, 0, 3, 0, 0, 3, 0, 1, 2])
# JSMinesweeper's position text: (0, 0) flagged, the covered (3, 0) a mine by the 1s.
JSM_POSITION = "4x3x3\nF11H\n222H\nHHHH\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {
        "board.mbf": BOARD_FILE,
        "board.abf": BOARD_FILE,
        "cut.mbf": BOARD_FILE[:-3],
        "cut.abf": BOARD_FILE[:-3],
        "position.mine": JSM_POSITION.encode(),
        "broken.mine": b"4x3x3\nF11H\n2Q2H\nHHHH\n",
    }
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    return {name: tmp_path / name for name in made}


@pytest.mark.parametrize("command", ["guess", "probabilities", "deduce"])
def test_jsm_position_text_is_a_position_for_the_analysis_commands(files, command):
    done = run(command, str(files["position.mine"]), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


@pytest.mark.parametrize(
    ("command", "name", "fragment"),
    [
        ("guess", "broken.mine", "broken.mine:3: unexpected character 'Q'"),
        ("probabilities", "broken.mine", "broken.mine:3: unexpected character 'Q'"),
        ("guess", "board.mbf", "holds a mine layout (a map), not a position"),
        ("probabilities", "cut.abf", "holds a mine layout (a map), not a position"),
        ("solvable", "cut.mbf", "cut.mbf: byte 7: truncated"),
    ],
)
def test_a_broken_or_misplaced_file_is_one_line_and_exit_2(files, command, name, fragment):
    args = ["--start", "1", "1"] if command == "solvable" else []
    done = run(command, str(files[name]), *args)
    assert_one_line_error(done, fragment)
    assert done.stdout == ""


def test_probabilities_writes_no_output_file_for_a_broken_position(files, tmp_path):
    out = tmp_path / "out.txt"
    done = run("probabilities", str(files["broken.mine"]), "--output", str(out))
    assert_one_line_error(done, "broken.mine:3:")
    assert not out.exists()


@pytest.mark.parametrize("name", ["cut.mbf", "cut.abf", "broken.mine"])
def test_evaluate_refuses_a_broken_map_before_writing_a_run_folder(files, tmp_path, name):
    out = tmp_path / "runs"
    done = run(
        "evaluate", "--agents", "random", "--boards", "none", "--maps", str(files[name]),
        "--games", "2", "--out", str(out),
    )  # fmt: skip
    assert_one_line_error(done, name)
    assert not out.exists() or not any(out.iterdir())


def test_evaluate_plays_board_files_as_maps(files, tmp_path):
    out = tmp_path / "runs"
    done = run(
        "evaluate", "--agents", "random", "--boards", "none", "--maps",
        str(files["board.mbf"]), str(files["board.abf"]), "--games", "3", "--workers", "1",
        "--out", str(out), "--no-progress",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (folder,) = out.iterdir()
    rows = json.loads((folder / "results.json").read_text())
    assert {(r["width"], r["height"], r["mines"]) for r in rows} == {(4, 3, 3)}
    assert sum(r["games"] for r in rows) == 6


def test_generate_format_mbf_writes_board_files_that_read_back(tmp_path):
    out = tmp_path / "maps"
    done = run(
        "generate", "--board", "expert", "--no-guess", "--count", "2", "--seed", "3",
        "--format", "mbf", "--out", str(out), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = json.loads(done.stdout)["maps"]
    same = run(
        "generate", "--board", "expert", "--no-guess", "--count", "2", "--seed", "3",
        "--out", str(tmp_path / "ioccc"),
    )  # fmt: skip
    assert same.returncode == 0, same.stderr
    for record in written:
        path = Path(record["path"])
        assert path.suffix == ".mbf" and path.with_suffix(".start").exists()
        data = path.read_bytes()
        # The description's fields: 30 wide, 16 high, 99 mines, 2 bytes per mine.
        assert data[:4] == bytes([30, 16, 0, 99]) and len(data) == 4 + 2 * 99
        layout = parse_mbf(data)
        twin = load_layout(tmp_path / "ioccc" / path.with_suffix(".txt").name)
        assert np.array_equal(layout.mines, twin.mines)  # same seed, same map, either format
        solved = run("solvable", str(path))
        assert solved.returncode == 0, solved.stderr  # its .start is found beside it


def test_generate_refuses_a_board_the_format_cannot_hold(tmp_path):
    out = tmp_path / "maps"
    done = run(
        "generate", "--width", "300", "--height", "4", "--mines", "3", "--format", "mbf",
        "--out", str(out),
    )  # fmt: skip
    assert_one_line_error(done, "255x255")
    assert not out.exists()


def test_play_takes_a_board_file_and_names_a_jsm_position_as_a_position(files, tmp_path):
    from minesweep_env.cli.errors import CliError
    from minesweep_env.cli.play import _load_map

    assert _load_map(files["board.abf"]).mine_count == 3
    with pytest.raises(CliError, match="this is a position"):
        _load_map(files["position.mine"])


def test_watch_plays_a_board_file_into_a_gif(files, tmp_path):
    gif = tmp_path / "game.gif"
    done = run("watch", str(files["board.mbf"]), "--agent", "greedy", "--gif", str(gif))
    assert done.returncode == 0, done.stderr
    assert gif.read_bytes()[:3] == b"GIF"
