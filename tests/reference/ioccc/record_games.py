"""Record reference games from the IOCCC 2020 endoh1 program, played in tmux.

The program is public: the repository ioccc-src/winner, files
``2020/endoh1/prog.c`` (rule set ``endoh``) and ``2020/endoh1/prog.alt.c``
(``endoh-alt``). It is not part of this project and is not copied here: get it
yourself and pass its path, either the C source (compiled here with
``gcc -O2 -w SRC -o prog -lncurses``) or a compiled binary. Needs ``tmux``,
``gcc`` and the ncurses headers (Debian: ``tmux libncurses-dev``).

For every game the script draws a small random map (5..10 x 3..8, 8..32 %
mines unless ``--min-density`` / ``--max-density`` say otherwise, with random
IOCCC priorities), writes it as an IOCCC map file and runs
the program on it in a detached tmux session whose window is ``max(40, 2W)``
columns by ``H + 2`` lines. Clicks are X10 mouse press and release sequences
(``ESC [ M`` then button+32, column+33, row+33) sent with ``tmux send-keys``
at screen column ``2x + 1``, row ``y + 1`` (the small-map games were recorded
with ``-l``; now ``-H``, the same bytes, see :meth:`TmuxGame.click`).
After each click the screen is read with ``tmux capture-pane -p -e`` until it
has changed and then stopped changing for
``--quiet`` seconds (the program applies one deduction per 9 ms tick, so a
quiet screen means its solver is at rest), then decoded:

* board cells: a ``.`` on a white background is covered (``?``), a ``.`` on
  black is a probed zero (``0``); digits, ``!`` (flag) and ``*`` (a mine shown
  after a loss) are kept;
* the counter is the first three characters of the top line; the face at
  columns ``W-1 .. W+1`` gives the state: ``X-(`` lost, ``8-)`` (``prog.c``) or
  ``[-)`` (``prog.alt.c``) won, ``:-)`` playing.

Click policies (one per game, drawn at random): ``safe`` clicks covered safe
cells only (games end won, or stuck under ``prog.alt.c`` when only mines are
left covered); ``random`` clicks any covered unflagged cell (mostly lost);
``mixed`` is ``safe`` with a 15 % chance of a random click; ``mine-first``
aims the first click at a mine (the program deletes it) and goes on as
``mixed``. A game stops when it is won or lost, when no covered unflagged safe
cell is left (``stuck``), or after ``--max-clicks`` clicks.

Output: one JSON object per line (JSON Lines), one game each::

    {"name": "prog-0007", "width": 7, "height": 5, "mines": 9,
     "priorities": [[...], ...], "policy": "mixed", "outcome": "won",
     "clicks": [{"x": 3, "y": 1, "rows": ["??1..", ...], "mines_left": 8,
                 "state": "playing"}, ...]}

``rows`` uses our notation (``?`` covered, ``!`` flag, digits, ``*``), so a
test compares it with ``Game.rows()`` directly. ``--map FILE --clicks X,Y ...``
records one game on a given map with given clicks instead (used for
``maps/ioccc/unwinnable.txt``).

Usage::

    python tests/reference/ioccc/record_games.py --prog /tmp/endoh/prog.c \\
        --games 300 --seed 1 --out tests/reference/ioccc/games_prog.jsonl
    python tests/reference/ioccc/record_games.py --prog /tmp/endoh/prog.alt.c \\
        --games 300 --seed 2 --out tests/reference/ioccc/games_prog_alt.jsonl
    python tests/reference/ioccc/record_games.py --prog /tmp/endoh/prog.c \\
        --map maps/ioccc/unwinnable.txt --clicks 4,4 --name unwinnable-a \\
        --out tests/reference/ioccc/games_prog.jsonl --append

The committed files were made with, in this order (``prog.c`` seeds first,
then ``prog.alt.c`` seeds; all appended to the same two files):

* ``--games 300``, seeds 1 / 2 (names ``prog-0000``, ``prog-alt-0000`` ...);
* ``unwinnable.txt`` with ``--clicks`` ``4,4``; ``0,0 4,4``; ``2,0 4,4``;
  ``1,1 3,3`` (names ``prog-unwinnable-a..d``, ``prog-alt-unwinnable-a..d``);
* dense maps, ``--games 100 --first 300 --min-density 0.3 --max-density 0.5``,
  seeds 1 / 2;
* expert boards, ``--board 30x16x99 --games 40``, seeds 3 / 4, prefixes
  ``prog-expert`` / ``prog-alt-expert``;
* ``--map maps/ioccc/ioccc.txt --games 20``, seeds 5 / 6; ``--map
  maps/ioccc/hilbert4x4.txt --games 10``, seeds 7 / 8; ``--map
  maps/ioccc/megumin.txt --games 4 --max-clicks 25``, seeds 9 / 10, the
  ``prog.alt.c`` ones with ``--quiet 2`` (prefixes ``prog-<map>`` /
  ``prog-alt-<map>``).

``screens/`` holds five raw ``capture-pane -p -e`` texts of the program on
``unwinnable.txt``; the test suite decodes them with :func:`decode_screen`.

Glitches found by the replay test and fixed in this script: a game
(``prog-alt-0354``, recorded again with ``--games 1 --first 354``) where the
program, on a busy machine, took a click in only after the screen had been
quiet for 0.4 s (the script now waits for a click to show before it waits for
quiet), and clicks on row 25 of ``megumin.txt``, whose X10 row byte ``;`` tmux
took for a command separator (clicks now go with ``send-keys -H``). A third
showed what a machine with a load average of 10 on 2 cores can do: the
program, starved of CPU, once stood still for 0.4 s in the middle of its
animation on ``megumin.txt``; those games were recorded again with
``--quiet 2``. Use a longer ``--quiet`` on big maps or busy machines: the
replay test catches a screen read too early (it shows fewer deductions than
ours), so a glitch cannot slip into the data unnoticed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyte
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from minesweep_env.core.layout import MineLayout  # noqa: E402
from minesweep_env.formats import load_layout  # noqa: E402
from minesweep_env.formats.ioccc import format_ioccc  # noqa: E402

FACES = {":-)": "playing", "8-)": "won", "[-)": "won", "X-(": "lost"}
POLICIES = ("safe", "random", "mixed", "mine-first")
POLICY_WEIGHTS = (0.35, 0.25, 0.25, 0.15)


@dataclass(frozen=True)
class Screen:
    """What the program shows, decoded into our notation."""

    rows: tuple[str, ...]
    mines_left: int
    state: str


class ScreenError(RuntimeError):
    """The screen does not look like the program's board."""


def build_program(path: Path, workdir: Path) -> Path:
    """The program to run: ``path`` itself, or ``path`` compiled if it is C source."""
    if path.suffix != ".c":
        return path.resolve()
    binary = workdir / (path.stem.replace(".", "_") + "_bin")
    subprocess.run(["gcc", "-O2", "-w", str(path), "-o", str(binary), "-lncurses"], check=True)
    return binary


def decode_screen(text: str, width: int, height: int, name: str = "screen") -> Screen:
    """Decode ``tmux capture-pane -p -e`` text of the program's window (W x H board).

    The window is ``max(40, 2W)`` columns by ``H + 2`` lines; cell (x, y) is at
    column ``2x + 1`` of line ``y + 1``.
    """
    columns, lines = max(40, 2 * width), height + 2
    screen = pyte.Screen(columns, lines)
    stream = pyte.Stream(screen)
    stream.feed("\r\n".join(text.split("\n")[:lines]))
    top = "".join(screen.buffer[0][c].data for c in range(columns))
    face = top[width - 1 : width + 2]
    if face not in FACES:
        raise ScreenError(f"{name}: no face in top line {top!r}")
    try:
        mines_left = int(top[:3])
    except ValueError:
        raise ScreenError(f"{name}: no counter in top line {top!r}") from None
    rows = []
    for y in range(height):
        line = screen.buffer[y + 1]
        chars = []
        for x in range(width):
            cell = line[2 * x + 1]
            if cell.data == ".":
                chars.append("?" if cell.bg == "white" else "0")
            elif cell.data in "12345678!*":
                chars.append(cell.data)
            else:
                raise ScreenError(f"{name}: unexpected cell {cell.data!r} at ({x}, {y})")
        rows.append("".join(chars))
    return Screen(tuple(rows), mines_left, FACES[face])


class TmuxGame:
    """One run of the program on one map, in its own detached tmux session."""

    def __init__(self, socket: str, name: str, program: Path, map_path: Path, w: int, h: int):
        self.socket, self.name, self.width, self.height = socket, name, w, h
        self.columns, self.lines = max(40, 2 * w), h + 2
        self._tmux(
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            str(self.columns),
            "-y",
            str(self.lines),
            f"{program} {map_path}",
        )

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True
        )
        return result.stdout

    def click(self, x: int, y: int) -> None:
        """Press and release mouse button 1 on cell (x, y).

        The bytes are what ``send-keys -l`` sends for ASCII, but go as
        hexadecimal with ``send-keys -H``: tmux reads an argument ending in
        ``;`` (row 25) as a command separator, and past screen column 94 the
        X10 bytes are not ASCII (``-l`` would send them UTF-8 encoded).
        """
        column, row = 2 * x + 1 + 33, y + 1 + 33
        sequence = [0x1B, ord("["), ord("M"), 32, column, row]
        sequence += [0x1B, ord("["), ord("M"), 32 + 3, column, row]
        self._tmux("send-keys", "-t", self.name, "-H", *(f"{b:02x}" for b in sequence))

    def read(self) -> Screen:
        """Decode the pane as it is now."""
        text = self._tmux("capture-pane", "-t", self.name, "-p", "-e")
        return decode_screen(text, self.width, self.height, self.name)

    def settle(self, quiet: float, before: Screen | None = None, timeout: float = 120.0) -> Screen:
        """Read until the screen (timer aside) has not changed for ``quiet`` seconds.

        With ``before`` (the screen before a click), first wait for the screen to
        differ from it: a click on a covered cell always changes the board, and
        on a busy machine the program may take a while to see the click at all.
        """
        start = time.monotonic()
        last, since = None, time.monotonic()
        while True:
            try:
                current = self.read()
            except ScreenError:
                current = None  # still starting up or mid-redraw
            now = time.monotonic()
            if current != last:
                last, since = current, now
            elif current is not None and current != before and now - since >= quiet:
                return current
            if now - start > timeout:
                raise ScreenError(f"{self.name}: screen did not settle in {timeout} s")
            time.sleep(0.02)

    def close(self) -> None:
        self._tmux("kill-session", "-t", self.name)


def covered_cells(rows: tuple[str, ...]) -> list[tuple[int, int]]:
    return [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "?"]


def play(
    socket: str,
    program: Path,
    name: str,
    layout: MineLayout,
    policy: str,
    rng: np.random.Generator,
    quiet: float,
    max_clicks: int,
    workdir: Path,
    fixed_clicks: list[tuple[int, int]] | None = None,
) -> dict:
    """Play one game; return its JSON record."""
    map_path = workdir / f"{name}.txt"
    map_path.write_text(format_ioccc(layout))
    game = TmuxGame(socket, name, program, map_path, layout.width, layout.height)
    mines = layout.mines.copy()
    clicks: list[dict] = []
    outcome = "playing"
    try:
        screen = game.settle(quiet)
        while len(clicks) < (len(fixed_clicks) if fixed_clicks else max_clicks):
            covered = covered_cells(screen.rows)
            safe = [c for c in covered if not mines[c[1], c[0]]]
            if fixed_clicks:
                x, y = fixed_clicks[len(clicks)]
            else:
                if not safe:
                    outcome = "stuck"
                    break
                if not clicks and policy == "mine-first":
                    pool = [c for c in covered if mines[c[1], c[0]]] or covered
                elif policy == "safe" or (
                    policy in ("mixed", "mine-first") and rng.random() > 0.15
                ):
                    pool = safe
                else:
                    pool = covered
                x, y = pool[int(rng.integers(len(pool)))]
            if not clicks:
                mines[y, x] = False  # the program deletes the mine under the first click
            game.click(x, y)
            screen = game.settle(quiet, before=screen)
            clicks.append(
                {
                    "x": x,
                    "y": y,
                    "rows": list(screen.rows),
                    "mines_left": screen.mines_left,
                    "state": screen.state,
                }
            )
            if screen.state != "playing":
                outcome = screen.state
                break
        else:
            if fixed_clicks and screen.state == "playing":
                covered = covered_cells(screen.rows)
                if not [c for c in covered if not mines[c[1], c[0]]]:
                    outcome = "stuck"
    finally:
        game.close()
    return {
        "name": name,
        "width": layout.width,
        "height": layout.height,
        "mines": layout.mine_count,
        "priorities": layout.priorities.tolist(),
        "policy": policy if not fixed_clicks else "fixed",
        "outcome": outcome,
        "clicks": clicks,
    }


def random_layout(rng: np.random.Generator, density_range: tuple[float, float]) -> MineLayout:
    width = int(rng.integers(5, 11))
    height = int(rng.integers(3, 9))
    density = rng.uniform(*density_range)
    mines = max(1, round(density * width * height))
    return MineLayout.random(width, height, mines, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prog", type=Path, required=True, help="prog.c / prog.alt.c or a binary")
    parser.add_argument("--out", type=Path, required=True, help="JSON Lines file to write")
    parser.add_argument("--append", action="store_true", help="add to --out instead of refusing")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prefix", default=None, help="game name prefix (default: program stem)")
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--min-density", type=float, default=0.08, help="share of mines")
    parser.add_argument("--max-density", type=float, default=0.32)
    parser.add_argument("--quiet", type=float, default=0.4, help="seconds of unchanged screen")
    parser.add_argument("--max-clicks", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=4, help="games played at once")
    parser.add_argument(
        "--board", default=None, help="WIDTHxHEIGHTxMINES: random layouts of this size instead"
    )
    parser.add_argument(
        "--map", type=Path, help="play this map: with --clicks once, else --games random games"
    )
    parser.add_argument("--clicks", nargs="+", default=None, help="X,Y cells for --map")
    parser.add_argument("--name", default=None, help="game name for --map")
    args = parser.parse_args(argv)

    if shutil.which("tmux") is None:
        parser.error("tmux is not installed")
    if args.out.exists() and not args.append:
        parser.error(f"{args.out} exists; pass --append to add games to it")
    board = None
    if args.board:
        try:
            board = tuple(int(v) for v in args.board.split("x"))
        except ValueError:
            board = ()
        if len(board) != 3:
            parser.error(f"--board {args.board!r}: expected WIDTHxHEIGHTxMINES, e.g. 30x16x99")
    prefix = args.prefix or args.prog.name.split(".c")[0].replace(".", "-")
    socket = f"endoh-ref-{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        program = build_program(args.prog, workdir)
        # A session that outlives the games keeps the tmux server up between them.
        subprocess.run(
            ["tmux", "-L", socket, "new-session", "-d", "-s", "keeper", "sleep 86400"], check=True
        )
        try:
            if args.map and args.clicks:
                cells = [tuple(int(v) for v in c.split(",")) for c in args.clicks]
                records = [
                    play(
                        socket,
                        program,
                        args.name or f"{prefix}-{args.map.stem}",
                        load_layout(args.map),
                        "fixed",
                        np.random.default_rng(0),
                        args.quiet,
                        len(cells),
                        workdir,
                        fixed_clicks=cells,
                    )
                ]
            else:
                seeds = np.random.SeedSequence(args.seed).spawn(args.first + args.games)
                seeds = seeds[args.first :]

                def one(i_seed: tuple[int, np.random.SeedSequence]) -> dict:
                    i, seed = i_seed
                    rng = np.random.default_rng(seed)
                    if args.map:
                        layout = load_layout(args.map)
                    elif board:
                        layout = MineLayout.random(*board, rng)
                    else:
                        layout = random_layout(rng, (args.min_density, args.max_density))
                    policy = POLICIES[int(rng.choice(len(POLICIES), p=POLICY_WEIGHTS))]
                    return play(
                        socket,
                        program,
                        f"{prefix}-{i:04d}",
                        layout,
                        policy,
                        rng,
                        args.quiet,
                        args.max_clicks,
                        workdir,
                    )

                numbered = list(enumerate(seeds, start=args.first))
                with ThreadPoolExecutor(args.jobs) as pool:
                    records = list(
                        tqdm(pool.map(one, numbered), total=len(numbered), desc=prefix, unit="game")
                    )
        finally:
            subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
    with args.out.open("a") as out:
        for record in records:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    outcomes: dict[str, int] = {}
    for record in records:
        outcomes[record["outcome"]] = outcomes.get(record["outcome"], 0) + 1
    clicks = sum(len(r["clicks"]) for r in records)
    print(f"{len(records)} games, {clicks} clicks written to {args.out}: {outcomes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
