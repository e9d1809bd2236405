"""The committed no-guess suites in ``maps/no-guess``: solvable, as recorded, reproducible."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from paths import REPO

from minesweep_env import STANDARD_BOARDS, format_ioccc, load_layout
from minesweep_env.generation import generate_no_guess, is_solvable, load_start, start_zone

SUITES = REPO / "maps" / "no-guess"


@pytest.mark.parametrize("board", sorted(STANDARD_BOARDS))
def test_every_suite_map_is_solvable_from_its_recorded_start(board: str) -> None:
    width, height, mines = STANDARD_BOARDS[board]
    maps = sorted((SUITES / board).glob("*.txt"))
    assert len(maps) == 100
    for path in maps:
        start = load_start(path)
        assert start == (width // 2, height // 2), path
        layout = load_layout(path)
        assert (layout.width, layout.height, layout.mine_count) == (width, height, mines)
        assert not layout.mines.reshape(-1)[start_zone(width, height, start)].any()
        assert is_solvable(layout, start, "substitution").solvable, path


@pytest.mark.parametrize("board", sorted(STANDARD_BOARDS))
def test_the_recorded_command_remakes_the_first_maps(board: str) -> None:
    """``generate --seed 2020``: map i comes from the generator ``default_rng([2020, i])``."""
    width, height, mines = STANDARD_BOARDS[board]
    for i in range(3):
        made = generate_no_guess(width, height, mines, np.random.default_rng([2020, i]))
        assert format_ioccc(made.layout) == (SUITES / board / f"{board}-{i:03d}.txt").read_text()


def test_the_evaluation_harness_plays_them_from_their_start(tmp_path: Path) -> None:
    """A random agent wins every no-guess game: its only move is the recorded start."""
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "semiautomines"),
            "evaluate",
            "--agents",
            "random",
            "--maps",
            str(SUITES / "beginner"),
            "--boards",
            "none",
            "--games",
            "30",
            "--rule-set",
            "substitution",
            "--workers",
            "1",
            "--out",
            str(tmp_path),
            "--no-progress",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(next(tmp_path.glob("*/results.json")).read_text())
    assert row["games"] >= 30 and row["wins"] == row["games"] and row["fixed_starts"] == 100
    assert row["mean_guesses"] == 1.0
