"""Rank second clicks for ``search`` after a first click that showed a lone number.

Under the ``safe`` first click ``search`` opens in a corner; when that shows a
number (a third of beginner's games) the position is one of a few shapes, the
corner's number 1, 2 or 3 and nothing else, and the next probe is a guess in a
position of 10^11 layouts and more, where half of beginner's losses fall
(benchmarks/results/search_endgame_size_small_boards.md). This plays, on the games of
seed ``--seed`` (``--first-game`` .. ``+ --games - 1``, rule set ``complete``)
whose first click showed the number ``N``, the default ``search`` with its second
click forced to each candidate cell (by default one cell of each orbit of the
symmetries that fix the first click, the first click's neighbours left out), and
ranks the cells per number by win rate, paired by game index against ``search``'s
own second click on the same games (the same layouts: the candidates differ only
from the second probe on), with a 95% interval
(:mod:`semiautomines_agents.evaluation.paired`).

Run: ``PYTHONPATH=. python benchmarks/second_clicks.py --board beginner --games 20000
--seed 1 --numbers 1 --out second.csv``; ``--cells 8,0 2,2`` plays only those;
``--played A.csv B.csv`` ranks stored games without playing.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np
from openings import parse_cell, ranked_table  # the sibling script (benchmarks/ is on the path)

from semiautomines_agents import SearchAgent
from semiautomines_agents.evaluation import Settings, board_target, write_games
from semiautomines_agents.evaluation.paired import game_number
from semiautomines_agents.evaluation.play import Chunk, game_seed, make_env, play_game
from semiautomines_agents.evaluation.stats import GameRecord
from semiautomines_agents.evaluation.targets import Target
from semiautomines_agents.search.opening import opening_cell

OWN = "own"
"""The games CSV's name for ``search``'s own second click."""


class SecondClick(SearchAgent):
    """The default ``search``, its second probe forced to one cell."""

    def __init__(self, cell: int) -> None:
        super().__init__()
        self.second = cell

    def act(self, observation, action_mask, game) -> int:
        if game.minefield.probes == 1 and action_mask[self.second]:
            return self.second
        return super().act(observation, action_mask, game)


def lone_numbers(
    target: Target, settings: Settings, first: tuple[int, int], indices: range
) -> dict[int, list[int]]:
    """Per number shown, the games whose first click at ``first`` opened that lone number
    (one cell opened, the game still on)."""
    env = make_env(target, settings, SearchAgent.obs_mode)
    cell = first[1] * target.width + first[0]
    games: dict[int, list[int]] = {}
    for index in indices:
        env.reset(seed=game_seed(settings.seed, target.name, index))
        _, _, terminated, truncated, _ = env.step(cell)
        view = env.unwrapped.game.minefield.view.reshape(-1)
        if terminated or truncated or np.count_nonzero(view >= 0) != 1:
            continue
        games.setdefault(int(view[cell]), []).append(index)
    return games


def candidate_cells(width: int, height: int, first: tuple[int, int]) -> list[tuple[int, int]]:
    """One cell of each orbit of the board's symmetries that fix ``first`` (the mirrors
    and, on a square board, the transposes that map it to itself), in row order, its
    neighbours and itself left out."""

    def images(x: int, y: int) -> list[tuple[int, int]]:
        mirrored = [
            (x, y),
            (width - 1 - x, y),
            (x, height - 1 - y),
            (width - 1 - x, height - 1 - y),
        ]
        return mirrored + [(b, a) for a, b in mirrored] if width == height else mirrored

    # The k-th image of every cell is one symmetry applied: keep those that fix ``first``.
    fixing = [k for k, image in enumerate(images(*first)) if image == first]
    cells = []
    for y in range(height):
        for x in range(width):
            if max(abs(x - first[0]), abs(y - first[1])) <= 1:
                continue
            orbit = [images(x, y)[k] for k in fixing]
            if min(orbit, key=lambda c: (c[1], c[0])) == (x, y):
                cells.append((x, y))
    return cells


def play(target: Target, settings: Settings, agent: SearchAgent, name: str, games: list[int]):
    """``agent``'s records on ``games`` (one env, as a harness worker plays them)."""
    chunk = Chunk(name, target, tuple(games), settings)
    env = make_env(target, settings, agent.obs_mode)
    return [play_game(env, agent, chunk, index) for index in games]


def stored(paths: list[Path], board: str) -> dict[tuple[int, str], list[GameRecord]]:
    """Per (number, agent column), the games in CSVs written by ``--out``."""
    games: dict[tuple[int, str], list[GameRecord]] = {}
    for path in paths:
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                if not row["board"].startswith(board + "#"):
                    continue
                number = int(row["board"].split("#")[1])
                record = GameRecord(game_number(row), row["won"] == "1", int(row["guesses"]), 0, 0)
                games.setdefault((number, row["agent"]), []).append(record)
    return games


def report(number: int, games: dict[str, list[GameRecord]], ms: dict[str, float]) -> None:
    """The ranked table of one number's candidates."""
    print(
        f"\nnumber {number}: {len(games[OWN])} games; second clicks ranked by win rate, "
        f"paired against search's own ({OWN})\n"
    )
    print("\n".join(ranked_table(games, OWN, ms)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="beginner")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--numbers", type=int, nargs="+", default=[1], help="numbers shown")
    parser.add_argument("--cells", nargs="+", type=parse_cell, help="X,Y ... (default: all)")
    parser.add_argument("--out", type=Path, help="write the games CSV (after each cell)")
    parser.add_argument("--played", type=Path, nargs="+", help="rank these CSVs' games instead")
    args = parser.parse_args()
    target = board_target(args.board)
    settings = Settings("complete", args.first_click, args.seed)
    first = opening_cell(target.width, target.height, target.mines, args.first_click)
    if args.played:
        stored_games = stored(args.played, target.name)
        for number in args.numbers:
            per = {name: g for (n, name), g in stored_games.items() if n == number}
            if OWN in per:
                report(number, per, {})
        return
    cells = args.cells or candidate_cells(target.width, target.height, first)
    indices = range(args.first_game, args.first_game + args.games)
    by_number = lone_numbers(target, settings, first, indices)
    print("games per lone number:", {n: len(g) for n, g in sorted(by_number.items())}, flush=True)
    records: dict[tuple[str, str], list[GameRecord]] = {}
    for number in args.numbers:
        games = by_number.get(number, [])
        if not games:
            continue
        played: dict[str, list[GameRecord]] = {}
        ms: dict[str, float] = {}
        agents: list[tuple[str, SearchAgent]] = [(OWN, SearchAgent())]
        for x, y in cells:
            agents.append((f"({x}, {y})", SecondClick(y * target.width + x)))
        for name, agent in agents:
            start = time.process_time()
            played[name] = play(target, settings, agent, name, games)
            ms[name] = 1000 * (time.process_time() - start) / len(games)
            records[(name, f"{target.name}#{number}")] = played[name]
            if args.out:
                write_games(records, args.out)
        report(number, played, ms)


if __name__ == "__main__":
    main()
