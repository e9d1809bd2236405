"""``is_solvable`` and the ``semiautomines solvable`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from minesweep_env import MineLayout, parse_board
from minesweep_env.core.cells import neighbour_table
from minesweep_env.generation import is_solvable

CLI = [str(Path(sys.executable).parent / "semiautomines")]

# One mine in the corner: any zero start clears the board.
EASY = ["ooooo", "ooooo", "ooooo", "oooox"]
# The two left-hand cells touch exactly the same numbers: a true 50/50 from (3, 0).
FIFTY_FIFTY = ["xooo", "oooo"]


def exact_verdict(layout: MineLayout, start: tuple[int, int]) -> tuple[bool, int]:
    """(solvable, safe cells left covered) by plain enumeration of every layout.

    A cell is opened when it is safe in every layout that fits what is open
    (numbers, and the total mine count), a mine when it is a mine in all of
    them; repeat until nothing changes. Independent of the rule-set code.
    """
    w, h = layout.width, layout.height
    truth = layout.mines.reshape(-1)
    numbers = layout.numbers.reshape(-1)
    table = neighbour_table(w, h)
    if truth[start[1] * w + start[0]]:
        return False, int((~truth).sum())
    candidates = [frozenset(c) for c in combinations(range(w * h), int(truth.sum()))]
    opened: set[int] = set()

    def open_cell(i: int) -> None:
        stack = [i]
        while stack:
            c = stack.pop()
            if c in opened:
                continue
            opened.add(c)
            if numbers[c] == 0:
                stack.extend(table[c])

    open_cell(start[1] * w + start[0])
    while True:
        candidates = [
            m
            for m in candidates
            if not (m & opened) and all(sum(n in m for n in table[c]) == numbers[c] for c in opened)
        ]
        safe_everywhere = set(range(w * h)) - opened - set().union(*candidates)
        if not safe_everywhere:
            break
        for c in safe_everywhere:
            open_cell(c)
    covered_safe = int((~truth).sum()) - len(opened)
    return covered_safe == 0, covered_safe


def test_an_easy_map_is_solvable_with_nothing_left() -> None:
    verdict = is_solvable(MineLayout.from_rows(EASY), (0, 0), "substitution")
    assert verdict.solvable and bool(verdict)
    assert verdict.covered_safe == 0 and not verdict.start_on_mine
    assert verdict.board.total_mines == 1


def test_a_fifty_fifty_is_not_solvable_and_the_stuck_board_is_true() -> None:
    layout = MineLayout.from_rows(FIFTY_FIFTY)
    for rule_set in ("substitution", "complete"):
        verdict = is_solvable(layout, (3, 0), rule_set)
        assert not verdict.solvable
        assert verdict.covered_safe == 1
        assert verdict.board.rows() == ["?100", "?100"]


def test_a_start_on_a_mine_is_not_solvable() -> None:
    layout = MineLayout.from_rows(EASY)
    verdict = is_solvable(layout, (4, 3), "complete")
    assert not verdict.solvable and verdict.start_on_mine
    assert verdict.covered_safe == 19
    assert set("".join(verdict.board.rows())) == {"?"}


def test_the_endoh_first_click_deletes_the_mine_under_the_start() -> None:
    layout = MineLayout.from_rows(EASY)
    verdict = is_solvable(layout, (4, 3), "complete", first_click="endoh")
    assert verdict.solvable and not verdict.start_on_mine
    assert verdict.board.total_mines == 0


def test_bad_starts_and_random_first_click_policies_are_refused() -> None:
    layout = MineLayout.from_rows(EASY)
    with pytest.raises(ValueError, match="outside the 5x4 board"):
        is_solvable(layout, (5, 0))
    with pytest.raises(ValueError, match="first_click"):
        is_solvable(layout, (0, 0), first_click="safe")


@pytest.mark.parametrize("seed", range(60))
def test_complete_verdict_equals_plain_enumeration(seed: int) -> None:
    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(3, 6)), int(rng.integers(2, 5))
    mines = int(rng.integers(1, min(5, w * h - 1)))
    layout = MineLayout.random(w, h, mines, rng)
    safe = np.flatnonzero(~layout.mines.reshape(-1))
    start_index = int(rng.choice(safe))
    start = (start_index % w, start_index // w)
    verdict = is_solvable(layout, start, "complete")
    assert (verdict.solvable, verdict.covered_safe) == exact_verdict(layout, start)
    # The stuck board is a true position of the layout.
    grid = verdict.board.grid
    shown = grid >= 0
    assert np.array_equal(grid[shown], layout.numbers[shown])
    assert layout.mines[grid == -2].all()


@pytest.mark.parametrize("seed", range(30))
def test_complete_solves_whatever_substitution_solves(seed: int) -> None:
    rng = np.random.default_rng(1000 + seed)
    layout = MineLayout.random(10, 8, int(rng.integers(6, 16)), rng)
    start = (int(rng.integers(10)), int(rng.integers(8)))
    weak = is_solvable(layout, start, "substitution")
    exact = is_solvable(layout, start, "complete")
    assert exact.covered_safe <= weak.covered_safe
    assert exact.solvable or not weak.solvable


# --- the command, through the installed entry point --------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    (tmp_path / "easy.txt").write_text("\n".join(EASY) + "\n")
    (tmp_path / "fifty.txt").write_text("\n".join(" ".join(r) for r in FIFTY_FIFTY) + "\n")
    # The same easy layout in the IOCCC format: priorities below 1 are mines.
    priorities = [str(i + 1) for i in range(19)] + ["0"]
    (tmp_path / "easy-ioccc.txt").write_text("5 4 1\n" + " ".join(priorities) + "\n")
    return tmp_path


@pytest.mark.parametrize("name", ["easy.txt", "easy-ioccc.txt"])
def test_cli_solvable_prints_solvable_and_exits_0(maps: Path, name: str) -> None:
    done = run_cli("solvable", str(maps / name), "--start", "0", "0")
    assert (done.returncode, done.stdout, done.stderr) == (0, "solvable\n", "")


def test_cli_not_solvable_prints_count_and_a_readable_board(maps: Path) -> None:
    done = run_cli("solvable", str(maps / "fifty.txt"), "--start", "3", "0")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "not solvable"
    assert lines[1].startswith("1 safe cells stayed covered")
    board = parse_board("\n".join(lines[2:]))
    assert board.rows() == ["?100", "?100"] and board.total_mines == 1


def test_cli_start_on_a_mine_says_so(maps: Path) -> None:
    done = run_cli(
        "solvable", str(maps / "easy.txt"), "--start", "4", "3", "--rule-set", "complete"
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[:2] == ["not solvable", "the start cell (4, 3) is a mine"]


def test_cli_json(maps: Path) -> None:
    done = run_cli("solvable", str(maps / "fifty.txt"), "--start", "3", "0", "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["solvable"] is False and data["covered_safe"] == 1
    assert data["rule_set"] == "substitution" and data["start"] == [3, 0]
    assert data["board"] == ["?100", "?100"] and data["mines"] == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["missing.txt", "--start", "0", "0"], "missing.txt: no such file"),
        (["easy.txt", "--start", "9", "0"], "outside the 5x4 board"),
        (["easy.txt", "--start", "0", "0", "--rule-set", "nope"], "unknown rule set 'nope'"),
        (["bad.txt", "--start", "0", "0"], "bad.txt:2:"),
        (["easy.txt"], "give --start X Y (no easy.start beside it)"),
        (["easy.txt", "--start", "0"], "--start"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(maps: Path, args: list[str], fragment: str) -> None:
    (maps / "bad.txt").write_text("ooo\noo\n")
    args = [str(maps / a) if a.endswith(".txt") else a for a in args]
    done = run_cli("solvable", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and fragment in done.stderr


def test_cli_takes_the_start_from_the_start_file_when_not_given(maps: Path) -> None:
    (maps / "fifty.start").write_text("3 0\n")
    done = run_cli("solvable", str(maps / "fifty.txt"), "--json")
    assert done.returncode == 1 and json.loads(done.stdout)["start"] == [3, 0]
    (maps / "easy.start").write_text("4 3\n")  # on the mine
    assert run_cli("solvable", str(maps / "easy.txt")).returncode == 1
    given = run_cli("solvable", str(maps / "easy.txt"), "--start", "0", "0")
    assert (given.returncode, given.stdout) == (0, "solvable\n")  # --start wins


@pytest.mark.parametrize("policy", ["safe", "zero"])
def test_first_click_offers_every_policy_and_says_why_random_ones_cannot_judge(policy, capsys):
    from minesweep_env.cli.main import main as cli

    path = "maps/no-guess/intermediate/intermediate-069.txt"
    assert cli(["solvable", path, "--rule-set", "complete", "--first-click", policy]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "moves mines at random" in err
    with pytest.raises(SystemExit):
        cli(["solvable", "--help"])
    assert "safe and zero are refused" in " ".join(capsys.readouterr().out.split())
