"""The first guess after a corner probe, raced on many layouts: is a book worth having?

From the safe-corner start, about half of expert games reach the same few positions
at their first guess: the corner probed at (0,0) shows a 1, 2 or 3 and nothing else is
open (386, 96 and 11 of the 1,000 games of the expert guess log). A cell better than
search's there would gain its lead on every such game ever played, so these are the
positions where a book of first guesses could pay, and where the guess-regret
instrument can afford thousands of layouts instead of a few dozen.

At each position, candidates (search's own choice, the other corners, the covered cells
two steps from the probe, the middle of the top and left edges and of the board) are
probed on the same layouts, drawn exactly in proportion to the engine's weights
(common random numbers), and ``search`` plays every game on to its end, as in
``guess_regret.py``. Layouts come in rounds of ``--batch``; each finished round is one
JSON line of ``--out`` (its outcomes per cell), so a rerun plays only the rounds still
missing, and a run stopped by SIGINT, SIGTERM or a kill keeps every round it finished.
After ``--min-rounds`` rounds a candidate more than ``--drop-z`` paired standard errors
behind the leader is no longer played (search's own choice always is).

A race picks its leaders on the very layouts that then measure them, so their leads read
high. ``--cells`` races only the cells named against search's own: run it with another
``--seed`` (fresh layouts) and ``--out`` to confirm an earlier race's leaders.

Run: ``nice -n 15 python benchmarks/first_guess_book.py --out runs/first_guess_book.jsonl
--rounds 60 --markdown benchmarks/results/first_guess_book.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import signal
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from regret.estimate import paired
from regret.rollouts import play_on, position_game

from minesweep_env import STANDARD_BOARDS
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import count_position
from minesweep_env.solver.probability.sampling import LayoutSampler
from semiautomines_agents import make_agent
from semiautomines_agents.search.agent import SearchAgent

GAME_SHARE = {1: 386, 2: 96, 3: 11}
"""Expert games (of the guess log's 1,000) whose first guess met the corner showing 1, 2, 3."""


@dataclass(frozen=True)
class Position:
    """The corner (0,0) probed on ``board``, showing ``number``, nothing else open."""

    board_name: str
    number: int

    @property
    def name(self) -> str:
        return f"{self.board_name}/corner-{self.number}"

    def board(self) -> Board:
        width, height, mines = STANDARD_BOARDS[self.board_name]
        grid = np.full((height, width), COVERED, dtype=np.int8)
        grid[0, 0] = self.number
        return Board(grid, mines)

    def candidates(self, search_cell: int) -> list[int]:
        """Search's cell first, then one cell of each kind a player might try."""
        width, height, _ = STANDARD_BOARDS[self.board_name]
        spots = [
            (width - 1, 0),
            (0, height - 1),
            (width - 1, height - 1),
            (2, 0),
            (0, 2),
            (2, 2),
            (2, 1),
            (1, 2),
            (width // 2, 0),
            (0, height // 2),
            (width // 2, height // 2),
        ]
        cells = [search_cell] + [y * width + x for x, y in spots]
        return list(dict.fromkeys(cells))


def round_seed(position: Position, number: int, seed: int) -> int:
    """The layouts of one round: the same whichever process plays it, and whenever."""
    return zlib.crc32(f"{seed}/{position.name}/{number}".encode())


def read_rounds(path: Path) -> dict[str, dict[int, dict[str, str]]]:
    """position -> round -> cell (as text) -> outcomes ("1" won, "0" lost), per layout."""
    rounds: dict[str, dict[int, dict[str, str]]] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
                rounds.setdefault(row["position"], {})[int(row["round"])] = row["outcomes"]
            except (ValueError, KeyError, TypeError):
                continue  # a line a hard kill cut short
    return rounds


def outcomes_by_cell(rounds: dict[int, dict[str, str]]) -> dict[int, list[int]]:
    """Each cell's outcomes over the rounds it was played in, aligned by layout: a cell
    dropped from the race simply stops (its layouts are a prefix of the others')."""
    cells: dict[int, list[int]] = {}
    for number in sorted(rounds):
        for cell, text in rounds[number].items():
            cells.setdefault(int(cell), []).extend(int(ch) for ch in text)
    return cells


def racing(cells: dict[int, list[int]], own: int, rounds_done: int, options: Any) -> list[int]:
    """Candidates still played: all until ``min_rounds``; then the leader, search's own
    cell, and every cell within ``drop_z`` paired standard errors of the leader. A
    cell dropped once stays dropped (it has fewer outcomes than the last round's)."""
    longest = max(len(v) for v in cells.values())
    alive = [c for c, v in cells.items() if len(v) == longest]
    if rounds_done < options.min_rounds:
        return alive
    leader = max(alive, key=lambda c: np.mean(cells[c]))
    kept = []
    for cell in alive:
        gap, se, _ = paired(cells[leader], cells[cell])
        if cell in (leader, own) or not gap > options.drop_z * se:
            kept.append(cell)
    return kept


def play_round(
    agent: SearchAgent, position: Position, cells: list[int], batch: int, seed: int
) -> dict[str, str]:
    """``batch`` layouts drawn from ``seed``; every cell probed in each, played on."""
    board = position.board()
    sampler = LayoutSampler(board)
    rng = random.Random(seed)
    outcomes: dict[int, list[str]] = {cell: [] for cell in cells}
    for _ in range(batch):
        mines = sampler.sample(rng)
        flat = mines.reshape(-1)
        for cell in cells:
            won = not flat[cell] and play_on(agent, position_game(board.grid, mines), cell)
            outcomes[cell].append("1" if won else "0")
    return {str(cell): "".join(marks) for cell, marks in outcomes.items()}


def search_cell(agent: SearchAgent, position: Position) -> int:
    board = position.board()
    valid = board.grid.reshape(-1) == COVERED
    return int(agent.advise(board, valid, count_position(board), every=False).cell)


def run(options: argparse.Namespace, agent: SearchAgent) -> None:
    """Play every missing round, position by position, appending each as it finishes."""
    for number in options.numbers:
        position = Position(options.board, number)
        own = search_cell(agent, position)
        for count in range(options.rounds):
            done = read_rounds(options.out).get(position.name, {})
            if count in done:
                continue
            cells = outcomes_by_cell(done)
            first = position.candidates(own) if options.cells is None else [own, *options.cells]
            live = list(dict.fromkeys(first)) if not cells else racing(cells, own, count, options)
            begin = time.perf_counter()
            seed = round_seed(position, count, options.seed)
            outcomes = play_round(agent, position, live, options.batch, seed)
            line = {"position": position.name, "round": count, "search": own}
            line |= {"seed": seed, "outcomes": outcomes}
            line["seconds"] = round(time.perf_counter() - begin, 1)
            with options.out.open("a") as handle:
                handle.write(json.dumps(line) + "\n")
            print(
                f"{position.name} round {count + 1}/{options.rounds}: {len(live)} cells, "
                f"{line['seconds']:.0f} s",
                file=sys.stderr,
                flush=True,
            )


def cell_name(cell: int, width: int) -> str:
    y, x = divmod(cell, width)
    return f"({x},{y})"


def table(options: argparse.Namespace, agent: SearchAgent) -> str:
    """Per position: every candidate's win rate and its paired difference to search's."""
    width = STANDARD_BOARDS[options.board][0]
    lines = []
    rounds = read_rounds(options.out)
    for number in options.numbers:
        name = Position(options.board, number).name
        if name not in rounds:
            continue
        own = search_cell(agent, Position(options.board, number))
        cells = outcomes_by_cell(rounds[name])
        games = GAME_SHARE.get(number) if options.board == "expert" else None
        share = f", the first guess of {games} in 1,000 games" if games else ""
        lines += [
            f"### Corner showing {number}{share}",
            "",
            "| cell | layouts | win rate | minus search's (points, 95% CI) |",
            "|---|---:|---:|---:|",
        ]
        for cell in sorted(cells, key=lambda c: -np.mean(cells[c])):
            gap, se, n = paired(cells[cell], cells[own])
            mark = " (search's)" if cell == own else ""
            diff = (
                "-"
                if cell == own
                else f"{100 * gap:+.2f} ({100 * (gap - 1.96 * se):+.2f} to "
                f"{100 * (gap + 1.96 * se):+.2f})"
            )
            rate = 100 * np.mean(cells[cell])
            lines.append(f"| {cell_name(cell, width)}{mark} | {n:,} | {rate:.2f}% | {diff} |")
        lines.append("")
    return "\n".join(lines)


def parse_cells(parser: argparse.ArgumentParser, text: str, board: str) -> list[int]:
    """``x,y;x,y`` as cell indices of ``board``; one line and exit 2 when malformed, off
    the board, or the probed corner itself."""
    width, height, _ = STANDARD_BOARDS[board]
    cells = []
    for part in text.split(";"):
        try:
            x, y = (int(v) for v in part.split(","))
        except ValueError:
            parser.error(f"--cells: {part!r} is not x,y")
        if not (0 <= x < width and 0 <= y < height) or (x, y) == (0, 0):
            parser.error(f"--cells: ({x},{y}) is not a covered cell of the {board} board")
        cells.append(y * width + x)
    return cells


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines rounds")
    parser.add_argument("--board", default="expert", choices=sorted(STANDARD_BOARDS))
    parser.add_argument("--numbers", default="1,2,3", help="the corner's numbers to race")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per position")
    parser.add_argument("--batch", type=int, default=64, help="layouts per round")
    parser.add_argument("--min-rounds", type=int, default=8, help="rounds before any drop")
    parser.add_argument("--drop-z", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="search", help="a search setting string")
    parser.add_argument(
        "--cells",
        help="race only these cells against search's, as x,y;x,y (a confirmation race "
        "of an earlier race's leaders: give it another --seed and --out)",
    )
    parser.add_argument("--markdown", type=Path, help="write the tables here too")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    options = parser.parse_args(argv)
    try:
        options.numbers = [int(n) for n in options.numbers.split(",")]
    except ValueError:
        parser.error("--numbers: whole numbers, comma-separated")
    if not all(1 <= n <= 3 for n in options.numbers):
        parser.error("--numbers: a corner shows 1, 2 or 3")
    if options.cells is not None:
        options.cells = parse_cells(parser, options.cells, options.board)
    if min(options.rounds, options.batch, options.min_rounds + 1) < 1 or options.drop_z <= 0:
        parser.error("--rounds and --batch must be at least 1, --drop-z above 0")
    try:
        agent = make_agent(options.agent)
    except ValueError as error:
        parser.error(str(error).splitlines()[0])
    if not isinstance(agent, SearchAgent):
        parser.error(f"--agent {options.agent!r} is not a search agent")
    options.out.parent.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        run(options, agent)
    except KeyboardInterrupt:
        print(f"stopped: every finished round is in {options.out}", file=sys.stderr)
        return 130
    text = table(options, agent)
    print(text)
    if options.markdown:
        command = " ".join(
            ["python benchmarks/first_guess_book.py", *map(shlex.quote, argv or sys.argv[1:])]
        )
        header = f"# The first guess after a corner probe\n\n```sh\n{command}\n```\n\n"
        options.markdown.write_text(header + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
