"""Watch on a map and people's replays in Replay: a watched map game is ``evaluate
--maps``'s game K of seed S, move for move, and a replay file steps through
``/api/replays`` from guess to guess with the review's figures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from web_client import sse_events, web_client

from minesweep_env.cli.errors import CliError
from semiautomines_agents.evaluation import Settings, evaluate, map_targets
from semiautomines_agents.web.maps import MapFiles
from semiautomines_agents.web.replays import ReplayFiles

ROOT = Path(__file__).resolve().parents[3]
REPLAYS = ROOT / "tests" / "data" / "replays"
SEED = 5
GAMES = 6


@pytest.fixture(scope="module")
def map_folder(tmp_path_factory) -> Path:
    """A suite of three expert maps (the agent's first click) and a beginner map with a
    fixed start."""
    folder = tmp_path_factory.mktemp("maps")
    (folder / "suite").mkdir()
    for number in range(3):
        name = f"expert-00{number}.txt"
        shutil.copy(ROOT / "maps" / "suites" / "expert" / name, folder / "suite" / name)
    for suffix in (".txt", ".start"):
        shutil.copy(
            ROOT / "maps" / "no-guess" / "beginner" / f"beginner-000{suffix}",
            folder / f"fixed{suffix}",
        )
    return folder


@pytest.fixture(scope="module")
def client(map_folder):
    maps = MapFiles.from_paths([map_folder / "suite", map_folder / "fixed.txt"])
    return web_client(maps=maps, replays=ReplayFiles.from_paths([REPLAYS]))


def _watch(client, query: str) -> list[tuple[str, dict]]:
    with client.stream("GET", f"/api/watch?{query}") as answer:
        assert answer.status_code == 200
        text = "".join(answer.iter_text())
    return [(name, json.loads(data)) for name, data in sse_events(text)]


def test_maps_are_listed_by_name(client):
    maps = client.get("/api/maps").json()["maps"]
    assert [(m["name"], m["width"], m["height"], m["fixed_start"]) for m in maps] == [
        ("suite/", 30, 16, False),
        ("fixed.txt", 9, 9, True),
    ]


@pytest.mark.parametrize("name", ["suite/", "fixed.txt"])
def test_a_watched_map_game_is_evaluates_game(client, map_folder, name):
    (target,) = map_targets([map_folder / name.rstrip("/")])
    settings = Settings(seed=SEED, save_games=True)
    run = evaluate(["greedy"], [target], settings, GAMES, workers=1, progress=False)
    records = run.records[("greedy", target.name)]
    assert len(records) == len(target.maps)
    for record in records:
        events = _watch(client, f"agent=greedy&map={name}&seed={SEED}&game={record.index}")
        (first, size), *moves, (last, end) = events
        assert first == "start" and (size["width"], size["height"]) == (target.width, target.height)
        assert last == "end" and all(kind == "move" for kind, _ in moves)
        cells = [m["y"] * target.width + m["x"] for _, m in moves]
        assert cells == list(record.saved.moves), (name, record.index)
        assert end["state"] == ("won" if record.won else "lost")
        assert end["guesses"] == record.guesses
        if target.starts[0] is not None:
            assert (moves[0][1]["x"], moves[0][1]["y"]) == target.starts[0]


def test_a_map_is_named_never_a_path(client):
    for name in ["nope.txt", "../fixed.txt", str(ROOT / "maps" / "ioccc")]:
        answer = client.get(f"/api/watch?agent=greedy&map={name}")
        assert answer.status_code == 400
        assert "no map" in answer.json()["error"] and "\n" not in answer.json()["error"]


def test_serve_maps_refuses_a_missing_path_in_a_line(tmp_path):
    with pytest.raises(CliError, match="--maps"):
        MapFiles.from_paths([tmp_path / "missing.txt"])
    with pytest.raises(CliError, match="--replays.*no replay files"):
        ReplayFiles.from_paths([tmp_path])
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(CliError, match="--replays.*not a replay file"):
        ReplayFiles.from_paths([tmp_path / "notes.txt"])


def test_replays_are_listed_by_name(client):
    names = [r["name"] for r in client.get("/api/replays").json()["replays"]]
    assert names == sorted(p.name for p in REPLAYS.iterdir() if p.suffix != ".md")


@pytest.mark.parametrize("name", ["beginner-chords.rmv", "custom-8x11.avf", "expert.mvf"])
def test_a_replay_steps_as_a_saved_game_does(client, name):
    from minesweep_env.formats.replay import read_replay
    from semiautomines_agents.coach import review_replay

    answer = client.get(f"/api/replays/{name}")
    assert answer.status_code == 200, answer.text
    game = answer.json()
    replay = read_replay(REPLAYS / name)
    assert (game["width"], game["height"], game["mines"]) == (
        replay.width,
        replay.height,
        replay.mines,
    )
    assert game["moves"] and game["moves"][-1]["state"] == game["state"]
    assert game["result"] in ("won", "lost", "unfinished")
    for move in game["moves"]:
        assert move["kind"] in ("guess", "auto") and move["reason"].startswith("move ")
    # Each guess the review judged carries its figures in the move's reason.
    review = review_replay(replay)
    assert game["summary"]["guesses"] == len(review.guesses)
    reasons = " | ".join(m["reason"] for m in game["moves"])
    for judged in review.guesses:
        if f"move {judged.move}:" in reasons:
            assert f"safest on the board {judged.safest * 100:.1f}%" in reasons
    assert client.get(f"/api/replays/{name}").json() == game  # kept, not recomputed


def test_a_broken_or_unknown_replay_is_a_one_line_error(tmp_path):
    broken = tmp_path / "broken.avf"
    broken.write_bytes((REPLAYS / "custom-8x11.avf").read_bytes()[:40])
    client = web_client(replays=ReplayFiles.from_paths([broken]))
    answer = client.get("/api/replays/broken.avf")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "broken.avf" in error and str(tmp_path) not in error and "\n" not in error
    assert client.get("/api/replays/other.avf").status_code == 404


def test_a_replay_that_opens_a_proven_mine_ends_lost_there(tmp_path):
    from minesweep_env.core.layout import MineLayout
    from minesweep_env.formats.evf_out import write_evf
    from minesweep_env.formats.replay import read_replay
    from minesweep_env.formats.replay_actions import ReplayAction

    # The auto-solver flags (3, 2) after the first probe; the player's wrong flag on
    # (3, 3) and chord on (2, 3) open it (as the terminal's stepping shows).
    path = tmp_path / "chord.evf"
    actions = [
        ReplayAction("probe", 0, 3, 0.0),
        ReplayAction("flag", 3, 3, 1.0),
        ReplayAction("chord", 2, 3, 2.0),
    ]
    layout = MineLayout.from_rows(["ooxox", "ooooo", "oooxx", "ooooo"])
    write_evf(path, layout, actions, "SemiAutoMines test", "test")
    client = web_client(replays=ReplayFiles.from_paths([path]))
    game = client.get("/api/replays/chord.evf").json()
    assert game["result"] == "lost" and game["summary"]["outcome"] == "lost"
    last = game["moves"][-1]
    assert (last["x"], last["y"], last["kind"], last["state"]) == (3, 2, "guess", "lost")
    assert last["reason"].startswith("move 3 (chord on 2, 3): (3, 2) a mine the auto-solver")
    assert "safest on the board" in last["reason"]  # the review's figures for the guess
    assert game["summary"]["chord_guesses"] == 1
    assert read_replay(path).completed is False
