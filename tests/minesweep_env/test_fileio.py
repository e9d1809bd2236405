"""Files are written whole or not at all; run folders never collide.

Why: a run killed mid-write must leave the previous file or the complete
new one, and two runs started in the same second with the same ``--out`` must
both succeed in distinct folders.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from paths import REPO

from minesweep_env.fileio import TEMP_SUFFIX, append_text, atomic_write, write_bytes, write_text
from semiautomines_agents.evaluation import Run, Settings, new_run_folder, write_run

CLI = Path(sys.executable).with_name("semiautomines")


def temp_files(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def test_write_replaces_the_file_whole_with_the_usual_mode(tmp_path):
    path = tmp_path / "a.json"
    write_text(path, "old\n")
    write_text(path, "new\n")
    write_bytes(tmp_path / "b.bin", b"\x00\x01")
    assert path.read_text() == "new\n"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0600
    assert temp_files(tmp_path) == []


def test_a_crash_mid_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "results.json"
    path.write_text('{"old": true}\n')
    with pytest.raises(RuntimeError, match="disk on fire"), atomic_write(path) as handle:
        handle.write('{"new": ')
        raise RuntimeError("disk on fire")
    assert json.loads(path.read_text()) == {"old": True}
    assert temp_files(tmp_path) == []


def test_exclusive_writes_refuse_an_existing_file_and_leave_it(tmp_path):
    path = tmp_path / "map.txt"
    write_text(path, "first\n", exclusive=True)
    with pytest.raises(FileExistsError):
        write_text(path, "second\n", exclusive=True)
    assert path.read_text() == "first\n"
    assert temp_files(tmp_path) == []


def test_a_symlink_is_written_through_and_a_pipe_is_written_to(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    write_text(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == ["through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # not replaced by a regular file


def test_append_text_adds_at_the_end(tmp_path):
    path = tmp_path / "eval.csv"
    append_text(path, "a\n")
    append_text(path, "b\n")
    assert path.read_text() == "a\nb\n"


def _run(rows: list[dict]) -> Run:
    return Run(
        rows=rows,
        settings=Settings(),
        planned_games=1,
        played_games=1,
        interrupted=False,
        error=None,
    )


def test_a_crash_while_writing_results_keeps_the_previous_results(tmp_path, monkeypatch):
    """write_run dies half-way through the CSV: the old results.csv stays as it was."""
    folder = tmp_path / "run"
    folder.mkdir()
    old = "agent,board\nrandom,beginner\n"
    (folder / "results.csv").write_text(old)

    def half_then_crash(self, rows):
        self.writerow(rows[0])
        raise OSError("killed mid-write")

    monkeypatch.setattr(csv.DictWriter, "writerows", half_then_crash)
    row = {"agent": "greedy", "board": "beginner"}
    with pytest.raises(OSError, match="killed mid-write"):
        write_run(_run([row, row]), folder, "semiautomines evaluate")
    assert (folder / "results.csv").read_text() == old
    assert temp_files(folder) == []


def test_concurrent_run_folders_are_distinct(tmp_path):
    """Sixteen threads ask for a run folder at the same instant (same second, same
    --out): every one gets its own, freshly made folder."""
    barrier = threading.Barrier(16)
    folders: list[Path] = []

    def make() -> None:
        barrier.wait()
        folders.append(new_run_folder(tmp_path / "out"))

    threads = [threading.Thread(target=make) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(folders) == 16 and len(set(folders)) == 16
    assert all(f.is_dir() and not any(f.iterdir()) for f in folders)


@pytest.mark.slow
def test_two_evaluations_with_the_same_out_both_succeed(tmp_path):
    """Two `semiautomines evaluate` runs started together, same --out: two folders."""
    args = [str(CLI), "evaluate", "--agents", "random", "--boards", "5x5x3", "--maps", "none"]
    args += ["--games", "3", "--workers", "1", "--no-progress", "--out", str(tmp_path / "out")]
    runs = [subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE) for _ in "ab"]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    folders = sorted((tmp_path / "out").iterdir())
    assert len(folders) == 2
    for folder in folders:
        assert len(json.loads((folder / "results.json").read_text())) == 1


WRITER = """
import json, sys
from minesweep_env.fileio import atomic_write
path, i = sys.argv[1], 0
rows = [{"agent": "x" * 50, "n": n} for n in range(40000)]
while True:
    i += 1
    with atomic_write(path) as handle:
        json.dump({"i": i, "rows": rows}, handle)  # many small writes: a long window to die in
    print(i, flush=True)
"""


@pytest.mark.slow
def test_kill_9_while_writing_leaves_a_whole_json(tmp_path):
    """A process rewrites a ~3 MB results file in a loop and is killed (SIGKILL)
    at arbitrary moments: the file always parses, and holds a complete write."""
    path = tmp_path / "results.json"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    for kill in range(6):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        writer.stdout.readline()  # at least one write finished
        time.sleep(0.05 + 0.037 * kill)  # then die somewhere inside a later one
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        data = json.loads(path.read_text())
        assert data["i"] >= 1 and len(data["rows"]) == 40000
    # a kill can leave a dot-named temporary file behind, never a torn results.json
    assert {p.name for p in tmp_path.iterdir() if not p.name.startswith(".")} == {"results.json"}


def test_the_learning_curve_skips_a_torn_monitor_line(tmp_path):
    """SB3's Monitor appends in place (not through fileio): a killed run's last
    episode line can be torn, and the curve must still draw."""
    from semiautomines_agents.training.curve import plot_learning_curve

    monitor = tmp_path / "monitor"
    monitor.mkdir()
    lines = ['#{"t_start": 0}', "r,l,t,state"]
    lines += [f"1.0,{1 + n % 3},{n / 10},{'won' if n % 2 else 'lost'}" for n in range(50)]
    (monitor / "0.monitor.csv").write_text("\n".join(lines) + "\n-1.0,2")  # torn
    write_text(tmp_path / "eval.csv", "timesteps,wall_s,win_rate\n0,1.0,0.5\n100,2.0,0.6\n")
    plot_learning_curve(tmp_path, tmp_path / "curve.png", "test")
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    assert temp_files(tmp_path) == []
