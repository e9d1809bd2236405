"""Split a paired run of ``search:book=1`` by the games that meet the book's position.

``semiautomines evaluate --agents search,search:book=1`` plays both agents on the same
games; only those whose first guess meets a position of the book
(``agents/search/first_guesses.json``) can differ. This replays every game's first
click (the env's own seeds and first-click policy) to find them, gives both agents'
win rates there with the paired difference per such game, and checks that every other
game ended alike. With ``--replay N`` it also plays the first N such games on again
from the book's position with the regret instrument's play-on
(:mod:`regret.rollouts`), once per agent's cell, and counts how many outcomes match the
run's: the race (``first_guess_book.py``) measures real play only if they all do.

Run: ``python benchmarks/book_games.py --games-csv RUN/games.csv --seed 0 --replay 150``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from math import sqrt
from pathlib import Path

import numpy as np
from regret.rollouts import play_on, position_game

from semiautomines_agents import make_agent
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.evaluation.play import game_seed, make_env
from semiautomines_agents.search.book import book_cell

AGENTS = ("search", "search:book=1")


def read_outcomes(path: Path) -> dict[tuple[str, int], int]:
    """(agent, game) -> 1 won, 0 lost, from an evaluate run's ``games.csv``."""
    with path.open(newline="") as handle:
        return {(r["agent"], int(r["game"])): int(r["won"]) for r in csv.DictReader(handle)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games-csv", type=Path, required=True, help="the run's games.csv")
    parser.add_argument("--seed", type=int, required=True, help="the run's --seed")
    parser.add_argument("--board", default="expert")
    parser.add_argument("--first-click", default="safe", choices=("safe", "zero"))
    parser.add_argument("--replay", type=int, default=0, help="replay this many book games")
    args = parser.parse_args(argv)
    if not args.games_csv.is_file():
        parser.error(f"--games-csv {args.games_csv}: no such file")
    try:
        outcomes = read_outcomes(args.games_csv)
    except (KeyError, ValueError) as error:
        parser.error(f"--games-csv {args.games_csv}: not an evaluate games.csv ({error})")
    games = sorted(
        {g for a, g in outcomes if a == AGENTS[0]} & {g for a, g in outcomes if a == AGENTS[1]}
    )
    if not games:
        parser.error(f"--games-csv {args.games_csv}: no game played by both {' and '.join(AGENTS)}")
    target = board_target(args.board)
    env = make_env(target, Settings("complete", args.first_click, args.seed), "planes")
    agent = make_agent("search")
    booked, replayed, matched = [], 0, 0
    for index in games:
        env.reset(seed=game_seed(args.seed, target.name, index))
        game = env.unwrapped.game
        first = agent.act(None, np.ones(game.width * game.height, dtype=bool), game)
        game.probe(first % game.width, first // game.width)
        board = game.minefield.board()
        cell = book_cell(board)
        if cell is None:
            continue
        booked.append(index)
        if replayed < args.replay:
            own = agent.advise(board, every=False).cell
            for name, probe in zip(AGENTS, (own, cell), strict=True):
                won = play_on(agent, position_game(board.grid, game.layout.mines.copy()), probe)
                matched += int(won) == outcomes[(name, index)]
            replayed += 1
    others = [g for g in games if g not in set(booked)]
    alike = sum(outcomes[(AGENTS[0], g)] == outcomes[(AGENTS[1], g)] for g in others)
    differences = np.array([outcomes[(AGENTS[1], g)] - outcomes[(AGENTS[0], g)] for g in booked])
    print(f"{len(games):,} games; {len(booked):,} meet a book position at their first guess.")
    if len(booked) > 1:
        rates = [np.mean([outcomes[(a, g)] for g in booked]) for a in AGENTS]
        half = 1.96 * differences.std(ddof=1) / sqrt(len(booked))
        print(
            f"There: {AGENTS[0]} won {rates[0]:.2%}, {AGENTS[1]} {rates[1]:.2%}; "
            f"book - search {100 * differences.mean():+.2f} ± {100 * half:.2f} points per game."
        )
    print(f"Every other game alike: {alike:,} of {len(others):,}.")
    if args.replay:
        print(f"Play-on replays: {matched} of {2 * replayed} outcomes as in the run.")
    return 0 if alike == len(others) and matched == 2 * replayed else 1


if __name__ == "__main__":
    sys.exit(main())
