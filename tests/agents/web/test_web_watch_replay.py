"""Watch and Replay: a watched game is ``evaluate``'s game K of seed S, move for move,
and a saved run replays through ``/api/runs`` to the end it had."""

from __future__ import annotations

import json

import pytest
from web_client import sse_events, web_client

from semiautomines_agents.evaluation import Settings, board_target, evaluate
from semiautomines_agents.evaluation.saved_games import write_saved_games
from semiautomines_agents.web.runs import RunFolders

SEED = 7
GAMES = 4


@pytest.fixture(scope="module")
def run():
    """``evaluate --seed 7 --save-games`` of greedy and search on beginner and a small board."""
    targets = [board_target("beginner"), board_target("6x6x7")]
    settings = Settings(seed=SEED, save_games=True)
    return evaluate(["greedy", "search"], targets, settings, GAMES, workers=1, progress=False)


@pytest.fixture(scope="module")
def client(run, tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    write_saved_games(run, folder)
    return web_client(runs=RunFolders.from_paths([folder])), folder.name


def _watch(client, query: str) -> list[tuple[str, dict]]:
    with client.stream("GET", f"/api/watch?{query}") as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        text = "".join(answer.iter_text())
    return [(name, json.loads(data)) for name, data in sse_events(text)]


def test_a_watched_game_is_evaluates_game(run, client):
    client, _ = client
    for (agent, board), records in run.records.items():
        for record in records:
            events = _watch(client, f"agent={agent}&board={board}&seed={SEED}&game={record.index}")
            *moves, (last, end) = events
            assert last == "end" and all(name == "move" for name, _ in moves)
            cells = [m["y"] * int(board_target(board).width) + m["x"] for _, m in moves]
            assert cells == list(record.saved.moves), (agent, board, record.index)
            assert end["state"] == ("won" if record.won else "lost")
            assert end["guesses"] == record.guesses and end["moves"] == len(moves)
            assert moves[-1][1]["state"] == end["state"]
            for _, move in moves:
                assert move["kind"] in ("guess", "auto") and move["rounds"][0]
                assert move["probability"] is None or 0 <= move["probability"] <= 1


def test_watch_refuses_bad_queries_in_a_line(run, client):
    client, _ = client
    for query, fragment in [
        ("agent=nobody", "unknown agent"),
        ("board=huge", "board"),
        ("seed=-3", "'seed'"),
        ("game=x", "'game'"),
        ("rules=zz", "'rules'"),
        ("first_click=zz", "'first_click'"),
        ("board=300x300x10", "limit"),
    ]:
        answer = client.get(f"/api/watch?{query}")
        assert answer.status_code == 400 and fragment in answer.json()["error"], query


def test_runs_are_listed_by_folder_name(run, client):
    client, name = client
    runs = client.get("/api/runs").json()["runs"]
    assert [r["name"] for r in runs] == [name]
    assert runs[0]["games"] == 4 * GAMES
    assert runs[0]["won"] + runs[0]["lost"] == 4 * GAMES
    assert runs[0]["boards"] == ["6x6x7", "beginner"]


def test_games_filter_by_result_and_guesses(run, client):
    client, name = client
    every = client.get(f"/api/runs/{name}/games").json()["games"]
    assert len(every) == 4 * GAMES
    lost = client.get(f"/api/runs/{name}/games?result=lost").json()["games"]
    assert lost == [g for g in every if g["result"] == "lost"]
    many = client.get(f"/api/runs/{name}/games?min_guesses=2").json()["games"]
    assert many == [g for g in every if g["guesses"] >= 2]


def test_a_saved_game_replays_to_its_end(run, client):
    client, name = client
    every = client.get(f"/api/runs/{name}/games").json()["games"]
    for entry in every:
        game = client.get(f"/api/runs/{name}/games/{entry['game']}").json()
        assert game["result"] == entry["result"] == game["state"]
        assert len(game["moves"]) == entry["moves"]
        assert len(game["layout"]) == game["height"]
        grid = [["covered"] * game["width"] for _ in range(game["height"])]
        for move in game["moves"]:
            for changes in move["rounds"]:
                for cell in changes:
                    grid[cell["y"]][cell["x"]] = cell["state"]
        if game["result"] == "won":
            assert all(
                (s == "covered" or s == "flag") == (game["layout"][y][x] == "x")
                for y, row in enumerate(grid)
                for x, s in enumerate(row)
            )


def test_runs_and_games_are_named_never_pathed(run, client):
    client, name = client
    for path in (
        "/api/runs/..%2F..%2Fetc/games",
        "/api/runs/nope/games",
        f"/api/runs/{name}/games/999",
        f"/api/runs/{name}/games/-1",
        f"/api/runs/{name}/games/..",
    ):
        answer = client.get(path)
        assert answer.status_code == 404 and "error" in answer.json(), path
    for query in ("result=maybe", "min_guesses=x"):
        answer = client.get(f"/api/runs/{name}/games?{query}")
        assert answer.status_code == 400
