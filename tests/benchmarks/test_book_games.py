"""Splitting a paired book run by the games that meet the book's position."""

from __future__ import annotations

import sys

import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import book_games  # noqa: E402


def write_games(path, outcomes):
    lines = ["agent,board,game,won"]
    lines += [f"{agent},expert,{game},{won}" for (agent, game), won in outcomes.items()]
    path.write_text("\n".join(lines) + "\n")


def test_games_off_the_book_must_end_alike(tmp_path, capsys):
    games = tmp_path / "games.csv"
    outcomes = {(agent, game): game % 2 for agent in book_games.AGENTS for game in range(12)}
    write_games(games, outcomes)
    assert book_games.main(["--games-csv", str(games), "--seed", "0"]) == 0
    out = capsys.readouterr().out
    booked = int(out.split("; ")[1].split(" meet")[0])
    assert 0 < booked < 12  # about two games in five meet the corner showing 1
    assert f"Every other game alike: {12 - booked} of {12 - booked}." in out
    # one game off the book that ended differently: the split says so, and exits 1
    for game in range(12):
        outcomes[("search:book=1", game)] = 1 - outcomes[("search", game)]
    write_games(games, outcomes)
    assert book_games.main(["--games-csv", str(games), "--seed", "0"]) == 1
    assert f"Every other game alike: 0 of {12 - booked}." in capsys.readouterr().out


def test_a_replay_of_made_up_outcomes_does_not_match(tmp_path, capsys):
    games = tmp_path / "games.csv"
    write_games(games, {(a, g): 2 for a in book_games.AGENTS for g in range(6)})
    assert book_games.main(["--games-csv", str(games), "--seed", "0", "--replay", "1"]) == 1
    assert "Play-on replays: 0 of 2" in capsys.readouterr().out


def test_a_file_that_is_not_a_run_is_one_line(tmp_path, capsys):
    games = tmp_path / "games.csv"
    games.write_text("x,y\n1,2\n")
    with pytest.raises(SystemExit) as stop:
        book_games.main(["--games-csv", str(games), "--seed", "0"])
    assert stop.value.code == 2
    assert "not an evaluate games.csv" in capsys.readouterr().err.splitlines()[-1]
