"""The guess log: search's decisions with their positions, the same games as evaluate's."""

from __future__ import annotations

import json
import sys

import numpy as np
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

from guess_log import GuessLogger, log_games, logged_games  # noqa: E402
from peers.jsminesweeper_player import Choice  # noqa: E402

from minesweep_env import Board  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.evaluation import Settings, board_target  # noqa: E402
from semiautomines_agents.evaluation.play import make_env, play_game  # noqa: E402
from semiautomines_agents.evaluation.records import Chunk  # noqa: E402


class LowestCell:
    """Stands in for JSMinesweeper: names the lowest covered cell."""

    def choose(self, board: Board) -> Choice:
        cell = int(np.flatnonzero(board.grid.reshape(-1) == -1)[0])
        return Choice(cell, 0.5, "tie-break", 1.0)


def _plain_outcomes(games: range) -> list[bool]:
    target, settings = board_target("beginner"), Settings("complete", "safe", 0)
    agent = make_agent("search")
    env = make_env(target, settings, agent.obs_mode)
    chunk = Chunk("search", target, (), settings)
    return [play_game(env, agent, chunk, i).won for i in games]


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_log_holds_search_s_own_games_and_decisions(tmp_path):
    out = tmp_path / "guesses.jsonl"
    games = range(6)
    logger = GuessLogger(make_agent("search"), LowestCell())
    assert log_games("beginner", "safe", games, 0, logger, out) == 6
    rows = _read(out)
    assert {r["game"] for r in rows} == set(games)
    won = {r["game"]: r.get("won") for r in rows if "won" in r}
    plain = _plain_outcomes(games)
    assert all(won[g] == plain[g] for g in won)  # logging changes no game
    decisions = [r for r in rows if "cell" in r]
    assert decisions, "six beginner games with no guess after the first click"
    search = make_agent("search")
    for row in decisions:
        board = Board(np.array(row["grid"], dtype=np.int8), row["mines"])
        assert search.advise(board).cell == row["cell"]  # the position is the one decided
        assert row["grid"][row["cell"] // 9][row["cell"] % 9] == -1
        assert row["jsminesweeper"]["cell"] == LowestCell().choose(board).cell


def test_a_rerun_goes_on_after_the_games_logged(tmp_path):
    out = tmp_path / "guesses.jsonl"
    log_games("beginner", "safe", range(3), 0, GuessLogger(make_agent("search")), out)
    with out.open("a") as handle:
        handle.write('{"game": 9, "cut')  # a hard kill mid-line
    assert logged_games(out) == {0, 1, 2}
    logger = GuessLogger(make_agent("search"))
    assert log_games("beginner", "safe", range(5), 0, logger, out) == 2
    assert logged_games(out) == {0, 1, 2, 3, 4}
