"""How long ``semiautomines guess`` takes on expert positions, process start included.

The target: an answer on a recorded expert position in under a second, counting
the process's own start (what a person waiting at a shell sees). This plays seeded
expert games with the lowest-probability guess (rule set ``complete``, a safe corner
start), keeps the position after 0-9 guesses of each game still going, and times one
``semiautomines guess POSITION --json`` process per position: wall and CPU seconds
(the child's, from ``os.wait4``). For scale it times ``semiautomines --help`` too, the
start of the process with nothing to answer.

Python's bytecode cache matters at this scale: a process that finds no cached bytecode
for the project compiles its sources first (about 0.1-0.2 s here). A normal install
caches it after the first run; an environment with ``PYTHONDONTWRITEBYTECODE`` set and
no cache (a fresh sandbox) pays it every time. The last line says which was measured.

    python benchmarks/guess_speed.py --positions 24
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from minesweep_env import Game, mine_probabilities
from minesweep_env.core.board import Board
from minesweep_env.core.layout import MineLayout
from minesweep_env.formats.position import format_board

CLI = Path(sys.executable).parent / "semiautomines"


def positions(count: int, seed: int) -> list[str]:
    """``count`` expert positions (position text), each after 0-9 lowest-probability guesses."""
    found: list[str] = []
    game_index = 0
    while len(found) < count:
        layout = MineLayout.random(30, 16, 99, np.random.default_rng([seed, game_index]))
        game = Game(layout, rule_set="complete", first_click="safe", seed=game_index)
        game.probe(0, 0)
        for _ in range(game_index % 10):
            if game.state != "playing":
                break
            risk = mine_probabilities(_position(game))
            y, x = np.unravel_index(np.nanargmin(risk), risk.shape)
            game.probe(int(x), int(y))
        if game.state == "playing":
            found.append(format_board(_position(game)))
        game_index += 1
    return found


def _position(game: Game) -> Board:
    """What the player sees of ``game``, with the expert mine total."""
    return Board.from_rows(game.rows(), total_mines=99)


def timed(*args: str) -> tuple[float, float]:
    """Wall and CPU seconds of one ``semiautomines ARGS`` process (it must succeed)."""
    start = time.perf_counter()
    child = subprocess.Popen([str(CLI), *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"semiautomines {' '.join(args)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def summary(name: str, figures: list[tuple[float, float]]) -> str:
    walls = sorted(w for w, _ in figures)
    cpus = [c for _, c in figures]
    return (
        f"{name:<28} n={len(figures):<3} wall median {statistics.median(walls):.2f} s, "
        f"max {walls[-1]:.2f} s; CPU median {statistics.median(cpus):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cache = bytecode_cache()  # before the first process can write one
    starts = [timed("--help") for _ in range(5)]
    answers = []
    with tempfile.TemporaryDirectory() as folder:
        for k, text in enumerate(positions(args.positions, args.seed)):
            path = Path(folder) / f"position-{k}.txt"
            path.write_text(text)
            answers.append(timed("guess", str(path), "--json"))
    print(summary("semiautomines --help", starts))
    print(summary("semiautomines guess (expert)", answers))
    print(f"answers under 1 s of wall time: {sum(w < 1.0 for w, _ in answers)} of {len(answers)}")
    print(f"python bytecode cache: {cache}")


def bytecode_cache() -> str:
    """Whether the processes timed here could read or write the project's bytecode cache."""
    source = Path(__file__).resolve().parent.parent / "minesweep_env" / "cli" / "main.py"
    cached = Path(importlib.util.cache_from_source(str(source))).is_file()
    written = not os.environ.get("PYTHONDONTWRITEBYTECODE")
    if cached:
        return "present (each process reads compiled modules)"
    if written:
        return "written by the first process (the later ones read it)"
    return "none, PYTHONDONTWRITEBYTECODE set: every process compiles the project's sources"


if __name__ == "__main__":
    main()
