"""minesweeper.online ``.msor`` replays: the layout rebuilt from the cells shown, or refused.

No ``.msor`` file from minesweeper.online was at hand, so the files here are written
as JSMinesweeper's replay loader reads them (``loadReplayData`` and
``replayForward`` in DavidNHill/JSMinesweeper's ``client/main.js``): a real game of
another format, its clicks and the cells each one showed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from paths import TESTS

from minesweep_env import MapFormatError
from minesweep_env.core.cells import FLAGGED
from minesweep_env.core.difficulty import measure
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import GameState
from minesweep_env.formats.replay import HumanReplay, read_replay
from minesweep_env.formats.replay_actions import ReplayAction
from minesweep_env.formats.replay_walk import chord, final_state, new_minefield

ms_toollib = pytest.importorskip("ms_toollib")

REPLAYS = TESTS / "data" / "replays"
CODES = {"probe": 0, "flag": 1, "chord": 3}


def msor_of(replay: HumanReplay) -> dict:
    """The ``.msor`` JSON of a game: each click with the cells it showed."""
    field = new_minefield(replay)
    steps = []
    for action in replay.actions:
        if field.state is not GameState.PLAYING:
            break
        before = field.view.copy()
        if action.kind == "probe":
            field.probe(action.x, action.y)
        elif action.kind == "flag":
            field.set_flag(action.x, action.y, field.view[action.y, action.x] != FLAGGED)
        else:
            chord(field, action.x, action.y)
        touched: list[int] = []
        for y, x in zip(*np.nonzero((field.view != before) & (field.view >= 0)), strict=True):
            touched += [int(x), int(y), int(field.view[y, x]), 0, 0]
        if field.state is GameState.LOST:
            ex, ey = field.exploded  # type: ignore[misc]
            touched += [ex, ey, 11, 0, 0]
            mines = replay.layout.mines
            for y, x in zip(*np.nonzero(mines & (field.view != FLAGGED)), strict=True):
                if (x, y) != (ex, ey):
                    touched += [int(x), int(y), 10, 0, 0]
            for y, x in zip(*np.nonzero(~mines & (field.view == FLAGGED)), strict=True):
                touched += [int(x), int(y), 12, 0, 0]
        steps.append(
            {
                "type": CODES[action.kind],
                "x": action.x,
                "y": action.y,
                "time": int(action.time * 1000),
                "touchCells": touched,
            }
        )
    header = {"width": replay.width, "height": replay.height, "mines": replay.mines}
    return {"header": header, "replay": steps}


def write(tmp_path: Path, data: object, name: str = "game.msor") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("name", ["beginner-preflags.rmv", "expert.mvf", "beginner-chords.rmv"])
def test_a_won_game_rebuilds_its_layout_and_actions(name: str, tmp_path: Path) -> None:
    source = read_replay(REPLAYS / name)
    replay = read_replay(write(tmp_path, msor_of(source)))
    assert replay.program == "minesweeper.online" and replay.completed
    assert np.array_equal(replay.layout.mines, source.layout.mines)
    assert [(a.kind, a.x, a.y) for a in replay.actions] == [
        (a.kind, a.x, a.y) for a in source.actions
    ]
    assert (replay.bbbv, replay.zini, replay.openings, replay.islands) == (
        source.bbbv,
        source.zini,
        source.openings,
        source.islands,
    )
    assert final_state(replay) is GameState.WON


def test_a_lost_game_rebuilds_its_layout_from_the_mines_shown(tmp_path: Path) -> None:
    layout = MineLayout.from_rows(["oox", "ooo", "xoo"])
    actions = (ReplayAction("probe", 0, 0, 0.0), ReplayAction("flag", 1, 2, 0.5))
    actions += (ReplayAction("probe", 2, 0, 1.0),)
    source = HumanReplay("lost", "test", layout, actions, completed=False)
    replay = read_replay(write(tmp_path, msor_of(source)))
    assert not replay.completed
    assert np.array_equal(replay.layout.mines, layout.mines)
    assert final_state(replay) is GameState.LOST


def test_islands_are_numbered_groups_no_zero_touches() -> None:
    for name in ("custom-8x11.avf", "beginner-preflags.rmv", "expert.mvf"):
        replay = read_replay(REPLAYS / name)
        assert measure(replay.layout.mines).islands == replay.islands  # ms-toollib's own figure


def one_line(path: Path) -> str:
    with pytest.raises(MapFormatError) as caught:
        read_replay(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not a readable minesweeper.online replay")
    assert "\n" not in message
    return message


def test_broken_msor_files_are_one_line(tmp_path: Path) -> None:
    good = msor_of(read_replay(REPLAYS / "beginner-preflags.rmv"))
    text = json.dumps(good)
    truncated = tmp_path / "truncated.msor"
    truncated.write_text(text[: len(text) // 2])
    assert "not JSON" in one_line(truncated)
    unfinished = dict(good, replay=good["replay"][:12])
    assert "unfinished" in one_line(write(tmp_path, unfinished))
    wrong = json.loads(text)
    wrong["replay"][9]["touchCells"][2] = 7  # a number no layout gives there
    assert "no rebuilt layout explains" in one_line(write(tmp_path, wrong))
    off = json.loads(text)
    off["replay"][9]["x"] = 99
    assert "off the 8x8 board" in one_line(write(tmp_path, off))
    for bad in ([], {"header": {"width": True, "height": 8, "mines": 10}, "replay": []}):
        one_line(write(tmp_path, bad))
    big = {"header": {"width": 5000, "height": 5000, "mines": 1}, "replay": []}
    assert "too large" in one_line(write(tmp_path, big))
    binary = tmp_path / "binary.msor"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8" in one_line(binary)


def test_a_click_on_an_open_cell_is_kept_and_changes_nothing(tmp_path: Path) -> None:
    data = msor_of(read_replay(REPLAYS / "beginner-preflags.rmv"))
    first = data["replay"][9]  # the first probe, which opened cells
    data["replay"].insert(10, {"type": 0, "x": first["x"], "y": first["y"], "time": 0})
    replay = read_replay(write(tmp_path, data))
    assert replay.actions[10] == ReplayAction("probe", first["x"], first["y"], 0.0)
    assert final_state(replay) is GameState.WON
