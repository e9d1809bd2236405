"""The hybrid: search with JSMinesweeper's cell where its solver takes a chosen path."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

from guess_log import logged_games  # noqa: E402
from jsminesweeper_hybrid import (  # noqa: E402
    PATHS,
    Hybrid,
    main,
    play,
    read_logs,
    report,
)
from peers.jsminesweeper_player import Choice  # noqa: E402

from minesweep_env import Board  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.evaluation import Settings, board_target  # noqa: E402
from semiautomines_agents.evaluation.play import make_env, play_game  # noqa: E402
from semiautomines_agents.evaluation.records import Chunk  # noqa: E402

GAMES = range(12)


class LowestCell:
    """Stands in for JSMinesweeper: names the lowest covered cell, from ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.calls = 0

    def choose(self, board: Board) -> Choice:
        self.calls += 1
        cell = int(np.flatnonzero(board.grid.reshape(-1) == -1)[0])
        return Choice(cell, 0.5, self.path, 1.0)


def _plain_outcomes() -> dict[int, bool]:
    target, settings = board_target("intermediate"), Settings("complete", "safe", 0)
    agent = make_agent("search")
    env = make_env(target, settings, agent.obs_mode)
    chunk = Chunk("search", target, (), settings)
    return {i: play_game(env, agent, chunk, i).won for i in GAMES}


PLAIN = _plain_outcomes()


def _play(tmp_path, path: str, paths: frozenset[str]):
    out = tmp_path / "hybrid.jsonl"
    peer = LowestCell(path)
    hybrid = Hybrid(make_agent("search"), peer, paths)
    assert play("intermediate", "safe", GAMES, 0, hybrid, out) == len(GAMES)
    return [json.loads(line) for line in out.read_text().splitlines()], peer


def test_a_path_never_taken_leaves_search_s_games_as_they_were(tmp_path):
    rows, peer = _play(tmp_path, "tie-break", frozenset({"50/50"}))
    assert peer.calls > 0  # JSMinesweeper was asked at the look-ahead's guesses
    assert all(r["overrides"] == 0 for r in rows)
    assert {r["game"]: r["won"] for r in rows} == PLAIN
    assert all(r["won"] == r["search_won"] for r in rows)


def test_the_log_names_the_parts_taken():
    assert Hybrid(None, None, frozenset(PATHS)).taken == "all"  # type: ignore[arg-type]
    assert Hybrid(None, None, frozenset({"dead", "50/50"})).taken == "50/50,dead"  # type: ignore[arg-type]


def test_overridden_games_pair_with_search_s_own_outcome(tmp_path):
    rows, _ = _play(tmp_path, "50/50", frozenset({"50/50"}))
    assert {r["paths"] for r in rows} == {"50/50"}
    overridden = [r for r in rows if r["overrides"]]
    assert overridden, "the lowest covered cell never differed from search's guess"
    assert all(r["overrides"] <= r["asked"] for r in rows)
    assert {r["game"]: r["search_won"] for r in rows} == PLAIN
    # Taking the lowest cell at every look-ahead guess loses games search won.
    assert any(r["search_won"] and not r["won"] for r in overridden)


def test_a_rerun_goes_on_after_the_games_logged(tmp_path):
    out = tmp_path / "hybrid.jsonl"
    hybrid = Hybrid(make_agent("search"), LowestCell("50/50"), frozenset({"50/50"}))
    play("intermediate", "safe", range(3), 0, hybrid, out)
    with out.open("a") as handle:
        handle.write('{"game": 7, "cut')  # a hard kill mid-line
    assert logged_games(out) == {0, 1, 2}
    assert play("intermediate", "safe", range(5), 0, hybrid, out) == 2
    assert logged_games(out) == {0, 1, 2, 3, 4}
    # The same log asked for another start holds none of its games yet.
    other = {"board": "intermediate", "start": "zero", "seed": 0, "paths": "50/50"}
    assert logged_games(out, other) == set()
    assert logged_games(out, other | {"start": "safe"}) == {0, 1, 2, 3, 4}
    assert play("intermediate", "safe", range(5), 0, hybrid, out, stop=lambda: True) == 0


def test_the_report_pairs_the_games_and_counts_the_overrides(tmp_path):
    rows = [
        {"game": 0, "won": True, "search_won": False, "overrides": 2, "asked": 3, "cpu": 0.1},
        {"game": 1, "won": False, "search_won": False, "overrides": 0, "asked": 1, "cpu": 0.3},
        {"game": 2, "won": True, "search_won": True, "overrides": 0, "asked": 0, "cpu": 0.2},
        {"game": 3, "won": False, "search_won": True, "overrides": 1, "asked": 1, "cpu": 0.2},
    ]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    common = {"board": "expert", "start": "safe", "seed": 0, "paths": "50/50"}
    first.write_text("".join(json.dumps(common | r) + "\n" for r in rows[:3]))
    # The second half repeats game 2 (counted once) and adds game 3.
    second.write_text("".join(json.dumps(common | r) + "\n" for r in rows[2:]))
    # A hybrid that takes other parts is another row; a second start adds a row of both.
    other = tmp_path / "c.jsonl"
    other.write_text(json.dumps(common | rows[0] | {"paths": "all"}) + "\n")
    opening = tmp_path / "d.jsonl"
    opening.write_text(json.dumps(common | rows[0] | {"start": "zero"}) + "\n")
    lines = report(read_logs([first, second, other, opening])).splitlines()[2:]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    assert [row[:4] for row in cells] == [
        ["expert", "safe", "50/50", "4"],
        ["expert", "zero", "50/50", "1"],
        ["expert", "both", "50/50", "5"],
        ["expert", "safe", "all", "1"],
    ]
    row = cells[0]
    assert row[4:6] == ["50.00%", "50.00%"]
    assert row[6].startswith("+0.00") and row[7] == "1 / 1"
    assert row[8:11] == ["2", "3", "5"] and row[11] == "0.200 s"
    both = cells[2]
    assert both[4:8] == ["40.00%", "60.00%", both[6], "1 / 2"] and both[6].startswith("+20.00")


def test_bad_arguments_get_one_line_and_a_non_zero_exit(tmp_path, capsys):
    assert main(["--report", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err.strip().endswith("none.jsonl: no such log")
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path / "x.jsonl"), "--jsminesweeper", "x", "--paths", "coin"])
    assert stopped.value.code == 2
    assert "unknown part 'coin'" in capsys.readouterr().err
