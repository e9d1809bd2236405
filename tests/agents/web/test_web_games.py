"""Play mode's API: the same games as ``semiautomines play``, the auto-solver's rounds,
flags, hints, wins and losses, and the bounded store."""

from __future__ import annotations

import numpy as np
import pytest
from web_client import web_client

from minesweep_env.cli.main import build_parser
from minesweep_env.cli.play import build_spec
from minesweep_env.core.layout import MineLayout
from minesweep_env.tui.session import Session
from semiautomines_agents.web.errors import ApiError
from semiautomines_agents.web.games import GameStore, new_game


@pytest.fixture(scope="module")
def client():
    return web_client()


def _covered(grid: list[list[str]]) -> list[tuple[int, int]]:
    return [(x, y) for y, row in enumerate(grid) for x, s in enumerate(row) if s == "covered"]


def _apply(grid: list[list[str]], rounds: list[list[dict]]) -> list[list[str]]:
    grid = [row[:] for row in grid]
    for changes in rounds:
        for cell in changes:
            grid[cell["y"]][cell["x"]] = cell["state"]
    return grid


@pytest.mark.parametrize(("board", "seed"), [("beginner", 5), ("intermediate", 11), ("8x6x9", 2)])
def test_a_game_is_plays_game_with_that_seed(client, board, seed):
    args = build_parser("play").parse_args(["play", "--board", board, "--seed", str(seed)])
    session = Session(build_spec(args), 40, 80, animate=False)
    game = client.post("/api/games", json={"board": board, "seed": seed}).json()
    assert (game["rules"], game["first_click"], game["seed"]) == ("endoh", "endoh", seed)
    assert game["url"] == f"/?board={board}&seed={seed}"
    assert game["grid"] == [["covered"] * game["width"]] * game["height"]
    for _ in range(5):
        if game["state"] != "playing":
            break
        x, y = _covered(game["grid"])[len(_covered(game["grid"])) // 2]
        session.probe(x, y)
        game = client.post(f"/api/games/{game['id']}/probe", json={"x": x, "y": y}).json()["game"]
        expected = [
            [{"?": "covered", "!": "flag", "*": "mine"}.get(c, c) for c in row]
            for row in session.game.rows()
        ]
        assert game["grid"] == expected
        assert game["state"] == session.game.state.value
        assert game["mines_left"] == session.game.mines_left


def test_rounds_start_with_the_probe_and_add_up_to_the_new_grid(client):
    game = client.post(
        "/api/games",
        json={"board": "expert", "seed": 3, "rules": "complete", "first_click": "zero"},
    ).json()
    before = game["grid"]
    moved = client.post(f"/api/games/{game['id']}/probe", json={"x": 15, "y": 8}).json()
    rounds = moved["rounds"]
    assert {"x": 15, "y": 8, "state": "0"} in rounds[0]
    assert all(rounds)
    assert len(rounds) > 1  # the auto-solver went on after the opening
    assert _apply(before, rounds) == moved["game"]["grid"]
    assert moved["game"]["moves"] == 1
    again = client.get(f"/api/games/{game['id']}").json()
    assert again == moved["game"]


def _mines(width: int, height: int, mines: int, seed: int) -> np.ndarray:
    return MineLayout.random(width, height, mines, np.random.default_rng(seed)).mines


def test_probing_a_mine_loses_and_shows_the_mines(client):
    game = client.post(
        "/api/games", json={"board": "beginner", "seed": 4, "first_click": "none"}
    ).json()
    mines = _mines(9, 9, 10, 4)
    y, x = (int(v) for v in np.argwhere(mines)[0])
    moved = client.post(f"/api/games/{game['id']}/probe", json={"x": x, "y": y}).json()
    assert moved["game"]["state"] == "lost"
    grid = moved["game"]["grid"]
    assert all(grid[my][mx] == "mine" for my, mx in np.argwhere(mines).tolist())
    after = client.post(f"/api/games/{game['id']}/probe", json={"x": 0, "y": 0}).json()
    assert after["rounds"] == [] and after["game"]["state"] == "lost"


def test_probing_every_safe_cell_wins(client):
    game = client.post(
        "/api/games",
        json={"board": "beginner", "seed": 6, "rules": "complete", "first_click": "none"},
    ).json()
    mines = _mines(9, 9, 10, 6)
    for y, x in np.argwhere(~mines).tolist():
        if game["state"] != "playing":
            break
        if game["grid"][y][x] == "covered":
            game = client.post(f"/api/games/{game['id']}/probe", json={"x": x, "y": y}).json()[
                "game"
            ]
    assert game["state"] == "won"


def test_flags_toggle_and_count(client):
    game = client.post("/api/games", json={"board": "beginner", "seed": 1}).json()
    flagged = client.post(f"/api/games/{game['id']}/flag", json={"x": 2, "y": 3}).json()
    assert flagged["rounds"] == [[{"x": 2, "y": 3, "state": "flag"}]]
    assert flagged["game"]["mines_left"] == 9 and flagged["game"]["grid"][3][2] == "flag"
    probed = client.post(f"/api/games/{game['id']}/probe", json={"x": 2, "y": 3}).json()
    assert probed["rounds"] == [] and probed["game"]["grid"][3][2] == "flag"
    unflagged = client.post(f"/api/games/{game['id']}/flag", json={"x": 2, "y": 3}).json()
    assert unflagged["rounds"] == [[{"x": 2, "y": 3, "state": "covered"}]]
    assert unflagged["game"]["mines_left"] == 10


def test_a_hint_is_the_analysis_of_the_game_position(client):
    game = client.post(
        "/api/games",
        json={"board": "expert", "seed": 8, "rules": "complete", "first_click": "zero"},
    ).json()
    client.post(f"/api/games/{game['id']}/probe", json={"x": 0, "y": 0})
    hint = client.post(f"/api/games/{game['id']}/hint", json={"agent": "search"}).json()
    advice = hint["advice"]
    grid = client.get(f"/api/games/{game['id']}").json()["grid"]
    assert grid[advice["y"]][advice["x"]] == "covered"
    assert hint["total_mines"] == 99 and advice["decided_by"]


def test_no_guess_games_open_their_start_cell(client):
    game = client.post(
        "/api/games",
        json={
            "board": "intermediate",
            "seed": 2,
            "no_guess": True,
            "rules": "complete",
            "first_click": "none",
        },
    ).json()
    x, y = game["start"]
    assert game["grid"][y][x] == "0" and game["moves"] == 1
    assert game["state"] == "won"  # no guess needed: the auto-solver finished it


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"board": "huge"}, "board"),
        ({"board": "200x200x10"}, "larger than the web app's limit"),
        ({"board": "3x3x8", "first_click": "zero"}, "no room"),
        ({"board": "beginner", "rules": "nope"}, "'rules' must be one of"),
        ({"board": "beginner", "first_click": "nope"}, "'first_click' must be one of"),
        ({"board": "beginner", "seed": -1}, "'seed' must be in"),
        ({"board": "beginner", "seed": 1.5}, "'seed' must be an integer"),
        ({"board": "beginner", "no_guess": "yes"}, "'no_guess' must be true or false"),
    ],
)
def test_bad_games_are_400(client, body, fragment):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400 and fragment in answer.json()["error"]


def test_a_game_without_a_seed_gets_one_its_url_replays(client):
    game = client.post("/api/games", json={"board": "beginner", "first_click": "none"}).json()
    assert isinstance(game["seed"], int) and game["url"].endswith(f"seed={game['seed']}")
    again = client.post(
        "/api/games", json={"board": "beginner", "seed": game["seed"], "first_click": "none"}
    ).json()
    for x, y in [(0, 0), (8, 8), (4, 4)]:
        one = client.post(f"/api/games/{game['id']}/probe", json={"x": x, "y": y}).json()
        two = client.post(f"/api/games/{again['id']}/probe", json={"x": x, "y": y}).json()
        assert one["game"]["grid"] == two["game"]["grid"]


def test_bad_moves_are_400_and_unknown_games_404(client):
    game = client.post("/api/games", json={"board": "beginner"}).json()
    for body in ({"x": 9, "y": 0}, {"x": 0}, {"x": "1", "y": 1}, {"x": -1, "y": 2}):
        answer = client.post(f"/api/games/{game['id']}/probe", json=body)
        assert answer.status_code == 400 and "error" in answer.json()
    for path in ("/api/games/nope", "/api/games/nope/probe", "/api/games/nope/hint"):
        answer = client.get(path) if path.count("/") == 3 else client.post(path, json={})
        assert answer.status_code == 404 and "no game" in answer.json()["error"]


def test_the_store_drops_the_oldest_game_past_its_limit():
    store = GameStore(limit=3)
    games = [new_game({"board": "4x4x2", "seed": s}) for s in range(5)]
    for played in games:
        store.add(played)
    assert len(store) == 3
    with pytest.raises(ApiError) as error:
        store.get(games[0].id)
    assert error.value.status == 404
    assert store.get(games[4].id) is games[4]
