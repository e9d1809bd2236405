"""minesolve (C, totte174/minesolve): its own simulator at search depth 1.

``minesolve --config=expert --depth=1 --simulate=N`` plays N random expert games
(its first click is made safe by moving the mine) and prints the number won. A
game's cost is read from the child's CPU time (``wait4``); the caller takes off
the start-up (a 1-game run: the simulator refuses 0 games).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import PeerMissing

HOW = (
    "pass --minesolve PATH: the built binary, or a source checkout of "
    "https://github.com/totte174/minesolve (built here in a temporary folder with cmake "
    "and a C compiler); by hand: git clone https://github.com/totte174/minesolve && "
    "cmake -S minesolve -B minesolve/build -DCMAKE_BUILD_TYPE=Release && make -C minesolve/build"
)


@dataclass
class Run:
    """One minesolve run: games, wins, wall seconds and CPU seconds of the child."""

    games: int
    wins: int
    wall: float
    cpu: float


def locate(path: str | Path | None) -> Path:
    """The minesolve binary: ``path`` itself, or built from the source checkout ``path``."""
    if path is None:
        raise PeerMissing(f"minesolve not given: {HOW}")
    path = Path(path)
    if path.is_file() and os.access(path, os.X_OK):
        return path
    if (path / "CMakeLists.txt").is_file():
        return _build(path)
    raise PeerMissing(f"{path} is neither the minesolve binary nor its source: {HOW}")


def _build(source: Path) -> Path:
    """Build minesolve (Release) from ``source`` in a temporary folder, removed when this
    process ends; the binary's path."""
    if shutil.which("cmake") is None:
        raise PeerMissing(f"cmake not found, needed to build minesolve: {HOW}")
    build = Path(tempfile.mkdtemp(prefix="minesolve-build-"))
    atexit.register(shutil.rmtree, build, ignore_errors=True)
    quiet = {"check": True, "capture_output": True}
    subprocess.run(
        ["cmake", "-S", str(source), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"], **quiet
    )
    subprocess.run(["cmake", "--build", str(build), "--target", "minesolve"], **quiet)
    return build / "minesolve"


def simulate(binary: Path, games: int, board: str = "expert", depth: int = 1) -> Run:
    """Run minesolve's simulator for ``games`` games; its wall and CPU time."""
    command = [str(binary), f"--config={board}", f"--depth={depth}", f"--simulate={games}"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed with exit code {child.returncode}")
    return Run(games, int(output.split()[-1]), wall, usage.ru_utime + usage.ru_stime)
