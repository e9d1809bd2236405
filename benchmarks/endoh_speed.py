"""How fast is the ``endoh`` rule set on full expert games, next to the IOCCC program?

The target: a full expert game with ``endoh`` must not be slower than the
IOCCC 2020 endoh1 program would be without its animation. The program applies
one deduction per 9 ms tick between clicks (``timeout(9)`` on ``getch``); that
wait is the animation. Without it, its cost is the work it does between a click
and the moment its solver comes to rest.

What this script does, for ``--games`` seeded expert layouts (30x16, 99 mines):

1. Plays each with ``Game(layout, rule_set="endoh", first_click="endoh")``: the
   first click in the middle, then every further click on a covered safe cell
   drawn at random (an oracle player, so every game is played to the end and
   won). It times every ``probe`` (flood fill and auto-solve included).
2. With ``--prog PATH`` (``prog.c``, or a binary compiled from it; not part of
   this project: the repository ioccc-src/winner, ``2020/endoh1/prog.c``), it
   plays the same layouts with the same clicks in the real program, run in a
   detached tmux session with a small ``LD_PRELOAD`` library (written here and
   compiled with gcc) standing in for the keyboard and mouse: its ``wgetch``
   never waits, so the 9 ms ticks run back to back. It delivers the next click
   once the program has come to rest (the board unchanged over two full scans)
   and measures, per click, the wall time and the process CPU time from the
   click to the rest. The counting is the program's own; nothing is estimated.
   It also checks that the program ends every game with our final board, and
   counts the ticks, whose 9 ms each give the time with the animation, and
   times the program's ``refresh()`` calls apart, so its CPU time can also be
   shown without the terminal output (what is left is its solver and its
   drawing into curses' memory).

Printed: per-game totals (median, p90, max) for us and for the program, and
the per-click cost. CPU time (``time.process_time`` here, the process CPU
clock in the program) is the fair comparison on a shared machine: wall time
also counts the moments the scheduler gives the core to someone else, and the
program's wall time includes waiting on its terminal. Needs gcc, tmux and the
ncurses headers for part 2.

Usage::

    .venv/bin/python benchmarks/endoh_speed.py --games 50
    .venv/bin/python benchmarks/endoh_speed.py --games 50 --prog /tmp/endoh/prog.c
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from minesweep_env import Game, MineLayout
from minesweep_env.core.cells import STANDARD_BOARDS
from minesweep_env.formats import format_ioccc

TICK_SECONDS = 0.009

# The stand-in for the terminal's input. Every call of wgetch() comes right
# after the program has redrawn the board (its loop is: draw, getch, handle the
# click, one scan). A board equal over three consecutive draws means two scans
# found nothing (one scan visits all cells but one) and the counting rule did
# not fire: the solver is at rest.
SHIM_SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <ncurses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int loaded, n_clicks, next_click, waiting, unchanged, width, height;
static int (*clicks)[2];
static MEVENT pending;
static chtype *before, *now_;
static double wall0, cpu0, refresh_cpu;
static long ticks;
static FILE *out;

static double clock_of(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void load(void) {
    FILE *f = fopen(getenv("SHIM_CLICKS"), "r");
    if (fscanf(f, "%d %d %d", &width, &height, &n_clicks) != 3) exit(3);
    clicks = malloc(sizeof(*clicks) * (n_clicks + 1));
    for (int i = 0; i < n_clicks; i++)
        if (fscanf(f, "%d %d", &clicks[i][0], &clicks[i][1]) != 2) exit(3);
    fclose(f);
    out = fopen(getenv("SHIM_OUT"), "w");
    before = calloc((size_t)width * 2 * height + 1, sizeof(chtype));
    now_ = calloc((size_t)width * 2 * height + 1, sizeof(chtype));
    loaded = 1;
}

static int snapshot_changed(void) {
    chtype row[1024];
    for (int y = 0; y < height; y++) {
        mvwinchnstr(stdscr, y + 1, 0, row, 2 * width);
        memcpy(now_ + (size_t)y * 2 * width, row, sizeof(chtype) * 2 * width);
    }
    int changed = memcmp(now_, before, sizeof(chtype) * 2 * width * height) != 0;
    chtype *swap = before; before = now_; now_ = swap;
    return changed;
}

static void write_board(void) {
    /* '?' covered (colour pair 3), '0' probed zero (pair 4), else the character. */
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            chtype c = before[(size_t)y * 2 * width + 2 * x + 1];
            int ch = c & A_CHARTEXT, pair = PAIR_NUMBER(c & A_COLOR);
            fputc(ch == '.' ? (pair == 3 ? '?' : '0') : ch, out);
        }
        fputc('\n', out);
    }
}

int wgetch(WINDOW *w) {
    (void)w;
    if (!loaded) load();
    unchanged = snapshot_changed() ? 0 : unchanged + 1;
    if (waiting) {
        if (unchanged < 2) { ticks++; return ERR; }
        fprintf(out, "click %.9f %.9f %ld %.9f\n", clock_of(CLOCK_MONOTONIC) - wall0,
                clock_of(CLOCK_PROCESS_CPUTIME_ID) - cpu0, ticks, refresh_cpu);
        waiting = 0;
    }
    if (next_click < n_clicks) {
        pending.id = 0; pending.z = 0; pending.bstate = BUTTON1_CLICKED;
        pending.x = 2 * clicks[next_click][0] + 1;
        pending.y = clicks[next_click][1] + 1;
        next_click++;
        waiting = 1; unchanged = 0; ticks = 0; refresh_cpu = 0;
        wall0 = clock_of(CLOCK_MONOTONIC);
        cpu0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
        return KEY_MOUSE;
    }
    write_board();
    fclose(out);
    out = NULL;
    return 'q';
}

/* The program's refresh() (a macro for wrefresh(stdscr)): timed, to tell the
   terminal output apart from the rest of its work. */
int wrefresh(WINDOW *w) {
    static int (*real)(WINDOW *);
    if (!real) real = (int (*)(WINDOW *))dlsym(RTLD_NEXT, "wrefresh");
    double start = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    int result = real(w);
    if (waiting) refresh_cpu += clock_of(CLOCK_PROCESS_CPUTIME_ID) - start;
    return result;
}

int getmouse(MEVENT *event) {
    *event = pending;
    return OK;
}
"""


@dataclass
class GameTimes:
    """Per-click costs of one game (seconds), and the final board."""

    clicks: list[tuple[int, int]]
    ours: list[float] = field(default_factory=list)
    ours_wall: list[float] = field(default_factory=list)
    final_rows: list[str] = field(default_factory=list)
    program_wall: list[float] = field(default_factory=list)
    program_cpu: list[float] = field(default_factory=list)
    program_ticks: list[int] = field(default_factory=list)
    program_refresh_cpu: list[float] = field(default_factory=list)


def play_ours(layout: MineLayout, rng: np.random.Generator) -> GameTimes:
    """An oracle player's full game under ``endoh``; times every probe."""
    game = Game(layout, rule_set="endoh", first_click="endoh")
    x, y = layout.width // 2, layout.height // 2
    times = GameTimes(clicks=[])
    while True:
        times.clicks.append((x, y))
        wall, cpu = time.perf_counter(), time.process_time()
        game.probe(x, y)
        times.ours.append(time.process_time() - cpu)
        times.ours_wall.append(time.perf_counter() - wall)
        if game.state != "playing":
            break
        safe = np.argwhere((game.view == -1) & ~game.layout.mines)
        y, x = (int(v) for v in safe[rng.integers(len(safe))])
    if game.state != "won":
        raise RuntimeError(f"oracle game ended {game.state}")
    times.final_rows = game.rows()
    return times


def build(prog: Path, workdir: Path) -> tuple[Path, Path]:
    """The program binary (compiled if ``prog`` is C source) and the shim library."""
    binary = prog.resolve()
    if prog.suffix == ".c":
        binary = workdir / "prog"
        subprocess.run(["gcc", "-O2", "-w", str(prog), "-o", str(binary), "-lncurses"], check=True)
    shim_c = workdir / "shim.c"
    shim_c.write_text(SHIM_SOURCE)
    shim = workdir / "shim.so"
    subprocess.run(
        ["gcc", "-O2", "-shared", "-fPIC", str(shim_c), "-o", str(shim), "-lncurses", "-ldl"],
        check=True,
    )
    return binary, shim


def play_program(
    binary: Path, shim: Path, layout: MineLayout, times: GameTimes, workdir: Path, index: int
) -> None:
    """Replay ``times.clicks`` in the program; fill in its per-click costs and final board."""
    map_path = workdir / f"map{index}.txt"
    map_path.write_text(format_ioccc(layout))
    clicks_path = workdir / f"clicks{index}.txt"
    clicks_path.write_text(
        f"{layout.width} {layout.height} {len(times.clicks)}\n"
        + "".join(f"{x} {y}\n" for x, y in times.clicks)
    )
    out_path = workdir / f"out{index}.txt"
    socket = f"endoh-speed-{os.getpid()}"
    command = (
        f"env LD_PRELOAD={shim} SHIM_CLICKS={clicks_path} SHIM_OUT={out_path} "
        f"{binary} {map_path}; touch {out_path}.done"
    )
    subprocess.run(
        [
            "tmux",
            "-L",
            socket,
            "new-session",
            "-d",
            "-s",
            f"g{index}",
            "-x",
            str(max(40, 2 * layout.width)),
            "-y",
            str(layout.height + 2),
            command,
        ],
        check=True,
    )
    done = Path(f"{out_path}.done")
    deadline = time.monotonic() + 120
    while not done.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the program did not finish its game in 120 s")
        time.sleep(0.05)
    lines = out_path.read_text().splitlines()
    for line in lines:
        if line.startswith("click "):
            _, wall, cpu, ticks, refresh_cpu = line.split()
            times.program_wall.append(float(wall))
            times.program_cpu.append(float(cpu))
            times.program_ticks.append(int(ticks))
            times.program_refresh_cpu.append(float(refresh_cpu))
    board = [line for line in lines if not line.startswith("click ")]
    if len(times.program_wall) != len(times.clicks):
        raise RuntimeError(f"the program handled {len(times.program_wall)} of the clicks")
    if board != times.final_rows:
        raise RuntimeError("the program's final board differs from ours:\n" + "\n".join(board))


def summary(label: str, per_game: list[float]) -> str:
    values = np.array(per_game) * 1000
    return (
        f"{label:<48} median {np.median(values):8.2f} ms   p90 {np.percentile(values, 90):8.2f}"
        f" ms   max {values.max():8.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="expert layouts to play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prog", type=Path, help="prog.c (or its binary) to measure as well")
    args = parser.parse_args(argv)
    width, height, mines = STANDARD_BOARDS["expert"]
    games: list[tuple[MineLayout, GameTimes]] = []
    seeds = np.random.SeedSequence(args.seed).spawn(args.games)
    # One untimed game first: imports, neighbour tables and caches are not the solver's cost.
    play_ours(
        MineLayout.random(width, height, mines, np.random.default_rng(seeds[0])),
        np.random.default_rng(1),
    )
    for seed in tqdm(seeds, desc="endoh", unit="game"):
        rng = np.random.default_rng(seed)
        layout = MineLayout.random(width, height, mines, rng)
        games.append((layout, play_ours(layout, rng)))
    clicks = [len(t.clicks) for _, t in games]
    print(
        f"{args.games} expert games ({width}x{height}, {mines} mines), oracle clicks per game:"
        f" median {np.median(clicks):.0f}, max {max(clicks)}"
    )
    print(summary("ours: endoh, whole game, CPU", [sum(t.ours) for _, t in games]))
    print(summary("ours: endoh, whole game, wall", [sum(t.ours_wall) for _, t in games]))
    per_click = np.array([c for _, t in games for c in t.ours]) * 1000
    print(
        f"{'ours: endoh, one probe, CPU':<48} median {np.median(per_click):8.3f} ms   p99"
        f" {np.percentile(per_click, 99):8.3f} ms"
    )
    if args.prog is None:
        print("(pass --prog PATH/TO/prog.c to measure the IOCCC program too)")
        return 0
    for tool in ("gcc", "tmux"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is needed for --prog")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        binary, shim = build(args.prog, workdir)
        socket = f"endoh-speed-{os.getpid()}"
        # A session that outlives the games keeps the tmux server up between them.
        subprocess.run(
            ["tmux", "-L", socket, "new-session", "-d", "-s", "keeper", "sleep 86400"], check=True
        )
        try:
            for index, (layout, times) in enumerate(tqdm(games, desc="prog.c", unit="game")):
                play_program(binary, shim, layout, times, workdir, index)
        finally:
            subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
    print(summary("prog.c without animation, wall", [sum(t.program_wall) for _, t in games]))
    print(summary("prog.c without animation, CPU", [sum(t.program_cpu) for _, t in games]))
    outside = [sum(t.program_cpu) - sum(t.program_refresh_cpu) for _, t in games]
    print(summary("prog.c without animation, CPU outside refresh", outside))
    animated = [sum(t.program_ticks) * TICK_SECONDS for _, t in games]
    print(summary("prog.c with animation (9 ms x ticks)", animated))
    ratio = [sum(t.ours) / sum(t.program_cpu) for _, t in games]
    slower = sum(sum(t.ours) > sum(t.program_cpu) for _, t in games)
    print(
        f"ours / prog.c, CPU per game: median {np.median(ratio):.3f}, max {max(ratio):.3f};"
        f" games where ours took more CPU: {slower} of {len(games)}"
    )
    ratio = [sum(t.ours) / o for (_, t), o in zip(games, outside, strict=True)]
    slower = sum(sum(t.ours) > o for (_, t), o in zip(games, outside, strict=True))
    print(
        f"ours / prog.c CPU outside refresh: median {np.median(ratio):.3f}, max {max(ratio):.3f};"
        f" games where ours took more CPU: {slower} of {len(games)}"
    )
    print("final boards: identical to the program's in every game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
