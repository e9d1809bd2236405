"""``evaluate --backend ray`` stopped by SIGTERM, on the local Ray the command starts itself:
the games played are written, the status is 143, and no Ray process or semaphore is left.

A module of its own: the Ray tests beside it share one Ray for their module, and this one
needs the command's own Ray (the one it must stop) with no other running.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from pathlib import Path

import pytest
from interrupting import sigterm_once_playing

pytest.importorskip("ray")

CLI = Path(sys.executable).with_name("semiautomines")
COMMAND = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process now running (from /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:  # gone meanwhile
                continue
            parents[int(entry)] = int(stat.rpartition(")")[2].split()[1])
    return parents


def _started_at(pid: int) -> str | None:
    """The process's start time (telling it from a later one with the same pid), or
    ``None`` once it has ended (a zombie counts as ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] in ("Z", "X") else fields[19]


def descendants(pid: int) -> dict[int, str]:
    """The processes ``pid`` started, and theirs, with their start times."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found, todo = {}, list(children.get(pid, []))
    while todo:
        child = todo.pop()
        started = _started_at(child)
        if started is not None:
            found[child] = started
        todo += children.get(child, [])
    return found


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def still_running(processes: dict[int, str], seconds: float = 30) -> list[int]:
    """Those of ``processes`` still running after up to ``seconds`` (Ray's own shutdown)."""
    deadline = time.monotonic() + seconds
    while True:
        left = [pid for pid, started in processes.items() if _started_at(pid) == started]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds Ray's processes in /proc")
def test_sigterm_keeps_the_games_writes_the_run_and_leaves_no_ray_behind(tmp_path):
    out = tmp_path / "out"
    args = ["evaluate", "--agents", "random,greedy", "--boards", "expert", "--maps", "none"]
    args += ["--games", "100000", "--backend", "ray", "--workers", "2", "--out", str(out)]
    # No RAY_ADDRESS: the command starts (and must stop) a Ray of its own.
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["SEMIAUTOMINES_NO_JIT"] = "1"  # each Ray worker would compile the kernels first
    started: dict[int, str] = {}
    names: list[str] = []

    def note_ray(pid: int) -> None:
        started.update(descendants(pid))
        names.extend(_name(child) for child in started)

    status, stdout, stderr = sigterm_once_playing(
        [*COMMAND, *args],
        tmp_path,
        games=100,
        env=env,
        before_signal=note_ray,
    )
    assert status == 143, stderr
    assert "interrupted: partial results" in stderr
    assert "Traceback" not in stderr and "leaked semaphore" not in stderr
    (folder,) = out.iterdir()
    run = json.loads((folder / "run.json").read_text())
    assert run["interrupted"] and 100 <= run["played_games"] < run["planned_games"]
    with (folder / "games.csv").open(newline="") as file:
        assert len(list(csv.DictReader(file))) == run["played_games"]
    assert "games/s over the run (ray local, 2 CPUs)" in stdout
    assert "raylet" in names and "gcs_server" in names, names  # Ray's processes were seen
    assert still_running(started) == []
