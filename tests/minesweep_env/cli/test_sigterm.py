"""SIGTERM (``timeout``, ``kill``, a batch scheduler) stops a run as Ctrl-C does: what
was played is kept in valid files, the status says the run was stopped (143), and no
worker semaphore is left behind."""

from __future__ import annotations

import csv
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from interrupting import signal_once, sigterm_once_playing

from minesweep_env.cli.stopping import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    Terminated,
    interrupted_status,
    sigterm_as_interrupt,
)

CLI = Path(sys.executable).with_name("semiautomines")
COMMAND = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
NO_COMPILING = {**os.environ, "SEMIAUTOMINES_NO_JIT": "1"}
"""Each worker would compile the kernels into this test run's fresh cache first (minutes on a
loaded machine); the exact engine plays the same games at once."""


def test_sigterm_inside_raises_a_keyboard_interrupt_and_the_handler_comes_back():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt) as stop, sigterm_as_interrupt():
        signal.raise_signal(signal.SIGTERM)
    assert isinstance(stop.value, Terminated)
    assert interrupted_status(stop.value) == EXIT_TERMINATED == 143
    assert interrupted_status(KeyboardInterrupt()) == EXIT_INTERRUPTED == 130
    assert signal.getsignal(signal.SIGTERM) == before


def test_evaluate_on_two_workers_keeps_the_games_played(tmp_path):
    out = tmp_path / "out"
    args = ["evaluate", "--agents", "random,greedy", "--boards", "expert", "--maps", "none"]
    args += ["--games", "100000", "--workers", "2", "--save-games", "--out", str(out)]
    status, stdout, stderr = sigterm_once_playing(
        [*COMMAND, *args], tmp_path, games=25, env=NO_COMPILING
    )
    assert status == 143, stderr
    assert "interrupted: partial results" in stderr
    assert "Traceback" not in stderr and "leaked semaphore" not in stderr
    (folder,) = out.iterdir()
    run = json.loads((folder / "run.json").read_text())
    assert run["interrupted"] and 25 <= run["played_games"] < run["planned_games"]
    with (folder / "games.csv").open(newline="") as file:
        assert len(list(csv.DictReader(file))) == run["played_games"]
    saved = (folder / "games.jsonl").read_text().splitlines()
    assert len(saved) == run["played_games"]
    assert all(json.loads(line) for line in saved)
    records = json.loads((folder / "results.json").read_text())
    assert records and all(0 < r["games"] < 100000 for r in records)
    assert "| random | expert |" in stdout


def test_generate_keeps_the_maps_written(tmp_path):
    out = tmp_path / "maps"
    args = ["generate", "--board", "expert", "--no-guess", "--count", "500", "--seed", "1"]
    args += ["--out", str(out)]
    status, stdout, stderr = signal_once(
        [*COMMAND, *args],
        tmp_path,
        lambda o, _: o.count("wrote ") >= 2,
        signal.SIGTERM,
        NO_COMPILING,
    )
    assert status == 143, stderr
    assert stderr.strip().splitlines()[-1] == "semiautomines generate: interrupted"
    maps = sorted(out.glob("*.txt"))
    assert 2 <= len(maps) < 500
    assert len(list(out.glob("*.start"))) == len(maps)  # each map whole, with its start
    from minesweep_env import load_layout

    assert all(load_layout(path).mine_count == 99 for path in maps)


def test_a_held_stop_lets_the_unit_finish_then_stops():
    """Inside ``interrupts_held`` a SIGTERM is noted, the block runs to its end, and the
    stop is raised on the way out (a map is never left without its start file)."""
    import os

    import pytest

    from minesweep_env.cli.stopping import Terminated, interrupts_held, sigterm_as_interrupt

    finished = []
    with sigterm_as_interrupt(), pytest.raises(Terminated), interrupts_held():
        os.kill(os.getpid(), signal.SIGTERM)
        finished.append("map")
        finished.append("start")
    assert finished == ["map", "start"]
