"""No-guess generation and the ``semiautomines generate`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from minesweep_env import MapFormatError, MineLayout, format_ioccc, load_layout, parse_layout
from minesweep_env.generation import (
    default_start,
    generate_no_guess,
    generate_random,
    is_solvable,
    load_start,
    start_path,
    start_zone,
    write_start,
)

CLI = [str(Path(sys.executable).parent / "semiautomines")]


@pytest.mark.parametrize("method", ["rejection", "repair"])
@pytest.mark.parametrize("rule_set", ["substitution", "complete"])
@pytest.mark.parametrize(
    ("width", "height", "mines", "start"),
    [(9, 9, 10, None), (16, 16, 40, (0, 0)), (12, 7, 20, (11, 3)), (30, 16, 99, None)],
)
def test_no_guess_maps_are_solvable_from_a_mine_free_start_zone(
    method: str, rule_set: str, width: int, height: int, mines: int, start: tuple | None
) -> None:
    for i in range(3):
        made = generate_no_guess(
            width, height, mines, np.random.default_rng(i), start, rule_set, method
        )
        layout = made.layout
        expected_start = start or default_start(width, height)
        assert made.start == expected_start
        assert (layout.width, layout.height, layout.mine_count) == (width, height, mines)
        assert not layout.mines.reshape(-1)[start_zone(width, height, expected_start)].any()
        assert is_solvable(layout, expected_start, rule_set).solvable
        # The IOCCC priorities describe the mines, so the written map reads back the same.
        assert parse_layout(format_ioccc(layout)) == layout
        if method == "rejection":
            assert made.repairs == 0


def test_the_default_start_is_the_centre() -> None:
    assert default_start(30, 16) == (15, 8)
    assert default_start(9, 9) == (4, 4)


def test_a_seed_fixes_the_map_and_maps_differ() -> None:
    def make(seed: int) -> MineLayout:
        return generate_no_guess(16, 16, 40, np.random.default_rng(seed)).layout

    assert make(3) == make(3)
    layouts = [make(seed).rows() for seed in range(15)]
    assert len({tuple(rows) for rows in layouts}) == 15


def test_rejection_draws_every_no_guess_layout_about_equally_often() -> None:
    """On a 4x3 board with 3 mines, start (0, 0): all no-guess layouts, uniformly.

    The no-guess layouts are found by checking every layout with a mine-free
    start zone; a chi-square statistic over the draws must be plausible.
    """
    width, height, mines, start = 4, 3, 3, (0, 0)
    zone = set(start_zone(width, height, start))
    free = [c for c in range(width * height) if c not in zone]
    no_guess = set()
    for cells in combinations(free, mines):
        flat = np.zeros(width * height, dtype=bool)
        flat[list(cells)] = True
        if is_solvable(MineLayout(flat.reshape(height, width)), start, "complete"):
            no_guess.add(cells)
    assert 3 <= len(no_guess) < len(list(combinations(free, mines)))
    rng = np.random.default_rng(11)
    draws = 60 * len(no_guess)
    seen: Counter = Counter()
    for _ in range(draws):
        layout = generate_no_guess(width, height, mines, rng, start, "complete", "rejection").layout
        seen[tuple(np.flatnonzero(layout.mines.reshape(-1)))] += 1
    assert set(seen) == no_guess
    expected = draws / len(no_guess)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    # For k-1 degrees of freedom the statistic is near k; 3k is far in the tail.
    assert chi2 < 3 * len(no_guess)


def test_impossible_requests_are_refused() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="do not fit"):
        generate_no_guess(5, 5, 17, rng)
    with pytest.raises(ValueError, match="outside"):
        generate_no_guess(5, 5, 3, rng, start=(5, 0))
    with pytest.raises(ValueError, match="method"):
        generate_no_guess(5, 5, 3, rng, method="magic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no no-guess layout"):
        # Every layout is a 50/50 between (1, 0) and (1, 1), or (0, 0) and (0, 1).
        generate_no_guess(4, 2, 1, rng, (3, 0), "complete", method="rejection", max_draws=30)


def test_random_layouts_with_a_start_keep_its_zone_free() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        layout = generate_random(6, 5, 20, rng, start=(5, 4))
        assert layout.mine_count == 20
        assert not layout.mines.reshape(-1)[start_zone(6, 5, (5, 4))].any()
    assert generate_random(6, 5, 30, rng).mine_count == 30


def test_start_files_round_trip_and_bad_ones_are_one_clear_error(tmp_path: Path) -> None:
    map_path = tmp_path / "a.txt"
    assert load_start(map_path) is None
    assert write_start(map_path, (7, 2)) == tmp_path / "a.start"
    assert load_start(map_path) == (7, 2)
    with pytest.raises(FileExistsError):
        write_start(map_path, (1, 1))
    start_path(tmp_path / "b.txt").write_text("7\n")
    with pytest.raises(MapFormatError, match=r"b\.start:1: expected one line 'x y'"):
        load_start(tmp_path / "b.txt")


# --- the command, through the installed entry point --------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


def test_cli_writes_no_guess_maps_with_start_files(tmp_path: Path) -> None:
    out = tmp_path / "maps"
    done = run_cli("generate", "--board", "beginner", "--no-guess", "--count", "3",
                   "--seed", "5", "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        f"beginner-00{i}.{ext}" for i in range(3) for ext in ("start", "txt")
    ]
    for i in range(3):
        path = out / f"beginner-00{i}.txt"
        assert load_start(path) == (4, 4)
        layout = load_layout(path)
        assert (layout.width, layout.height, layout.mine_count) == (9, 9, 10)
        assert is_solvable(layout, (4, 4), "substitution").solvable
        done = run_cli("solvable", str(path), "--start", "4", "4")
        assert (done.returncode, done.stdout) == (0, "solvable\n")


def test_cli_same_seed_same_maps_and_never_writes_over(tmp_path: Path) -> None:
    args = ["generate", "--width", "10", "--height", "8", "--mines", "15", "--no-guess",
            "--rule-set", "complete", "--start", "0", "0", "--seed", "9"]  # fmt: skip
    assert run_cli(*args, "--out", str(tmp_path / "a")).returncode == 0
    assert run_cli(*args, "--out", str(tmp_path / "b")).returncode == 0
    first = (tmp_path / "a" / "10x8-15-000.txt").read_text()
    assert first == (tmp_path / "b" / "10x8-15-000.txt").read_text()
    assert (tmp_path / "a" / "10x8-15-000.start").read_text() == "0 0\n"
    again = run_cli(*args, "--out", str(tmp_path / "a"))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert (tmp_path / "a" / "10x8-15-000.txt").read_text() == first


def test_cli_json_lists_the_maps(tmp_path: Path) -> None:
    done = run_cli("generate", "--width", "6", "--height", "5", "--mines", "4", "--count",
                   "2", "--seed", "1", "--json", "--out", str(tmp_path))  # fmt: skip
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["board"] == [6, 5, 4] and data["seed"] == 1 and data["no_guess"] is False
    assert [Path(m["path"]).name for m in data["maps"]] == ["6x5-4-000.txt", "6x5-4-001.txt"]
    assert not list(tmp_path.glob("*.start"))  # no start without --start or --no-guess


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--board", "expert", "--width", "3"], "not both"),
        (["--width", "5", "--height", "5"], "all three"),
        (["--board", "huge"], "unknown board 'huge'"),
        (["--width", "5", "--height", "5", "--mines", "30"], "--mines must be in 0..25"),
        (["--width", "5", "--height", "5", "--mines", "20", "--no-guess"], "do not fit"),
        (["--board", "beginner", "--no-guess", "--rule-set", "nope"], "unknown rule set"),
        (["--board", "beginner", "--rule-set", "complete"], "only apply with --no-guess"),
        (["--board", "beginner", "--start", "9", "0"], "outside the 9x9 board"),
        (["--board", "beginner", "--count", "0"], "--count must be at least 1"),
        (["--board", "beginner"], "--out"),
        (["--board", "beginner", "--max-draws", "0"], "--max-draws must be at least 1"),
        (
            [
                "--width",
                "4",
                "--height",
                "2",
                "--mines",
                "1",
                "--start",
                "3",
                "0",
                "--no-guess",
                "--rule-set",
                "complete",
                "--max-draws",
                "20",
            ],  # fmt: skip
            "no no-guess layout found in 20 draws",
        ),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], fragment: str
) -> None:
    out = [] if "--out" in fragment else ["--out", str(tmp_path / "o")]
    done = run_cli("generate", *args, *out)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and fragment in done.stderr
    assert not (tmp_path / "o").exists()


def test_board_takes_a_custom_size_as_everywhere_else(tmp_path, capsys):
    from minesweep_env.cli.main import main as cli

    out = tmp_path / "maps"
    assert cli(["generate", "--board", "8x8x10", "--seed", "1", "--out", str(out)]) == 0
    (written,) = out.glob("*.txt")
    assert written.name == "8x8-10-000.txt"
    layout = load_layout(written)
    assert (layout.width, layout.height, layout.mine_count) == (8, 8, 10)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        cli(["generate", "--board", "8x8", "--out", str(out)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "WIDTHxHEIGHTxMINES" in err
