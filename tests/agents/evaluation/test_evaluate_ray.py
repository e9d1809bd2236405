"""``evaluate --backend ray``: the same games as the local backend, on a local Ray.

One Ray (2 CPUs) is started for the whole module and shared: in-process runs
use it as it is, and ``semiautomines evaluate`` subprocesses join it through
its address, which tests the "join a running cluster" path too. Every address
used is on this machine (a loopback port nobody listens on for the
unreachable case). Skipped when Ray is not installed (``pip install -e '.[ray]'``).
"""

from __future__ import annotations

import csv
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from interrupting import ctrl_c_once_playing

from minesweep_env import MineLayout, format_ioccc
from semiautomines_agents.evaluation import (
    BackendError,
    LocalBackend,
    Settings,
    board_target,
    evaluate,
    map_targets,
)

ray = pytest.importorskip("ray")

from semiautomines_agents.evaluation.backends.ray import (  # noqa: E402  (needs Ray)
    RayBackend,
    play_games,
    split_address,
)

CLI = Path(sys.executable).with_name("semiautomines")


@pytest.fixture(scope="module")
def ray_address():
    """A local Ray with 2 CPUs for the module; its GCS address on the loopback."""
    # ray.init exports its settings (RAY_AUTH_MODE) to this process's environment, which
    # the subprocesses joining the cluster need; they go once the module is done.
    environment = dict(os.environ)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.ERROR,
        object_store_memory=128 * 1024 * 1024,
    )
    port = ray.get_runtime_context().gcs_address.rpartition(":")[2]
    yield f"127.0.0.1:{port}"
    ray.shutdown()
    os.environ.clear()
    os.environ.update(environment)


def run_cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return subprocess.run(
        [*command, "evaluate", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def without_seconds(records: dict) -> dict:
    """The records of a run minus play time, the one field that may differ."""
    return {key: [replace(r, seconds=0.0) for r in played] for key, played in records.items()}


def speedless(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "games_per_s"} for row in rows]


def games_rows(folder: Path) -> list[dict]:
    with (folder / "games.csv").open() as handle:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)]


def only_run_folder(out: Path) -> Path:
    (folder,) = out.iterdir()
    return folder


def test_ray_plays_exactly_the_games_of_the_local_backend(ray_address, tmp_path):
    for i in range(3):
        layout = MineLayout.random(7, 7, 8, np.random.default_rng(i))
        (tmp_path / "suite").mkdir(exist_ok=True)
        (tmp_path / "suite" / f"{i}.txt").write_text(format_ioccc(layout))
    targets = [board_target("beginner"), board_target("6x6x6"), *map_targets([tmp_path / "suite"])]
    agents = ["random", "greedy"]
    settings = Settings(seed=7)
    local = evaluate(agents, targets, settings, 40, progress=False, backend=LocalBackend(1))
    # Chunks of 7 games, not the local 25: the chunking must not change a game either.
    backend = RayBackend(chunk_games=7)
    backend.start()
    try:
        on_ray = evaluate(agents, targets, settings, 40, progress=False, backend=backend)
    finally:
        backend.close()
    assert ray.is_initialized()  # a Ray it did not start is left running
    assert on_ray.played_games == local.played_games == on_ray.planned_games
    assert without_seconds(on_ray.records) == without_seconds(local.records)
    assert speedless(on_ray.rows) == speedless(local.rows)
    assert any(0 < row["wins"] < row["games"] for row in local.rows)  # not all-or-nothing
    assert on_ray.backend == "ray local, 2 CPUs" and on_ray.seconds > 0


def test_the_cli_joins_a_running_cluster_with_the_same_results(ray_address, tmp_path):
    common = ["--agents", "random,greedy-plain", "--boards", "beginner,8x8x10", "--maps", "none"]
    common += ["--games", "60", "--seed", "3", "--no-progress"]
    local = run_cli(*common, "--workers", "1", "--out", str(tmp_path / "local"), cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    joined = run_cli(
        *common,
        "--backend",
        "ray",
        "--ray-address",
        ray_address,
        "--out",
        str(tmp_path / "ray"),
        cwd=tmp_path,
    )
    assert joined.returncode == 0, joined.stderr
    folders = [only_run_folder(tmp_path / name) for name in ("local", "ray")]
    assert games_rows(folders[0]) == games_rows(folders[1])
    assert len(games_rows(folders[1])) == 2 * 2 * 60
    run = json.loads((folders[1] / "run.json").read_text())
    assert run["backend"] == f"ray at {ray_address}, 2 CPUs"
    assert run["played_games"] == 240 and run["games_per_s"] > 0
    assert re.search(r"240 games in [\d.]+ s: [\d.,]+ games/s over the run \(ray at", joined.stdout)
    # The cluster outlives the run that joined it.
    assert ray.cluster_resources().get("CPU") == 2


def _parent(pid: int) -> int:
    # /proc/PID/stat: "pid (name) state ppid ...", and the name may hold spaces.
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def _kill_a_playing_worker(killed: list[int], stop: threading.Event) -> None:
    """SIGKILL the first worker of this module's Ray seen playing a chunk.

    A worker's title is the task's name while it runs one; its parent is the
    raylet this process started, so no other Ray on the machine is touched.
    """
    title = f"ray::{play_games.__name__}".encode()
    while not stop.is_set():
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                pid = int(entry.name)
                if (entry / "cmdline").read_bytes().startswith(title) and (
                    _parent(_parent(pid)) == os.getpid()
                ):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
            except OSError:  # the process ended meanwhile
                continue
        time.sleep(0.02)


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="finds workers in /proc")
def test_a_worker_killed_mid_chunk_is_retried_and_nothing_is_lost_or_doubled(ray_address):
    targets = [board_target("expert")]
    settings = Settings(seed=11)
    # greedy on expert: a 25-game chunk lasts about a second, so the kill lands mid-chunk.
    local = evaluate(["greedy"], targets, settings, 150, progress=False)
    killed: list[int] = []
    stop = threading.Event()
    killer = threading.Thread(target=_kill_a_playing_worker, args=(killed, stop), daemon=True)
    backend = RayBackend(chunk_games=25)
    backend.start()
    killer.start()
    try:
        on_ray = evaluate(["greedy"], targets, settings, 150, progress=False, backend=backend)
    finally:
        stop.set()
        killer.join(timeout=10)
        backend.close()
    assert killed, "no worker was seen playing"
    assert on_ray.error is None and not on_ray.interrupted
    played = on_ray.records[("greedy", "expert")]
    assert [r.index for r in played] == list(range(150))  # every game once
    assert without_seconds(on_ray.records) == without_seconds(local.records)


def test_ctrl_c_writes_partial_results_and_frees_the_cluster(ray_address, tmp_path):
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    args = ["evaluate", "--agents", "random,greedy", "--boards", "expert", "--maps", "none"]
    args += ["--games", "100000", "--backend", "ray", "--ray-address", ray_address]
    args += ["--out", str(tmp_path / "out")]
    # Ctrl-C once the cluster's bar counts some games
    returncode, stdout, stderr = ctrl_c_once_playing([*command, *args], tmp_path, games=100)
    assert returncode == 130, stderr
    assert "interrupted: partial results" in stderr and "Traceback" not in stderr
    assert "games/s over the run (ray at" in stdout
    folder = only_run_folder(tmp_path / "out")
    run = json.loads((folder / "run.json").read_text())
    assert run["interrupted"] and 100 <= run["played_games"] < run["planned_games"]
    assert len(games_rows(folder)) == run["played_games"]
    # The interrupted run's chunks end (they finish, or Ray ends them with the driver):
    # the cluster's CPUs come back.
    deadline = time.monotonic() + 30
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2


def test_an_unreachable_address_is_one_line_and_exit_2_within_30_s(tmp_path):
    # Port 1 of the loopback: nobody listens there, and nothing leaves this machine.
    args = ["--agents", "random", "--boards", "beginner", "--maps", "none", "--games", "5"]
    args += ["--backend", "ray", "--ray-address", "127.0.0.1:1", "--out", str(tmp_path / "out")]
    begin = time.monotonic()
    result = run_cli(*args, cwd=tmp_path, timeout=60)
    assert time.monotonic() - begin < 30
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "127.0.0.1:1: no Ray cluster reachable" in lines[0], result.stderr
    assert not (tmp_path / "out").exists()  # nothing written


def test_a_ray_address_needs_the_ray_backend(tmp_path):
    args = ["--agents", "random", "--boards", "beginner", "--maps", "none"]
    args += ["--ray-address", "127.0.0.1:1"]
    result = run_cli(*args, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "semiautomines evaluate: error: --ray-address needs --backend ray"
    )


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("head.example:6379", ("head.example", 6379)),
        ("ray://10.0.0.5:10001", ("10.0.0.5", 10001)),
        ("[::1]:6379", ("::1", 6379)),
    ],
)
def test_split_address(address, expected):
    assert split_address(address) == expected


@pytest.mark.parametrize("address", ["head", "head:", ":6379", "head:port", "head:70000"])
def test_a_malformed_address_is_bad_input(address):
    with pytest.raises(BackendError, match="give HOST:PORT"):
        split_address(address)
