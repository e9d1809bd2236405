"""Human replays: real files of each format read, played again on our minefield, written as .evf."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from paths import TESTS

from minesweep_env import MapFormatError
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import GameState
from minesweep_env.formats import replay as replay_module
from minesweep_env.formats.evf_out import NOMINAL_TIMING, evf_bytes, layout_rows, write_evf
from minesweep_env.formats.replay import parse_replay, read_replay
from minesweep_env.formats.replay_actions import ReplayAction, actions_of_events
from minesweep_env.formats.replay_decode import NO_MS_TOOLLIB
from minesweep_env.formats.replay_walk import final_state, walk

ms_toollib = pytest.importorskip("ms_toollib")

REPLAYS = TESTS / "data" / "replays"

# file -> (width, height, mines, 3BV, program): the 3BV as the file names in ms-toollib say.
REAL_FILES = {
    "custom-8x11.avf": (8, 11, 7, 8, "Arbiter"),
    "beginner-chords.rmv": (8, 8, 10, 3, "Viennasweeper"),
    "beginner-preflags.rmv": (8, 8, 10, 16, "Viennasweeper"),
    "expert.mvf": (30, 16, 99, 122, "Minesweeper Clone"),
}

LOST_LAYOUT = MineLayout.from_rows(["xooo", "oooo", "ooox", "oooo"])
"""A small board to lose on: the first probe opens the zeros, the second hits (3, 2)."""


@pytest.mark.parametrize("name", sorted(REAL_FILES))
def test_real_replays_read_and_replay_to_their_outcome(name: str) -> None:
    width, height, mines, bbbv, program = REAL_FILES[name]
    replay = read_replay(REPLAYS / name)
    assert (replay.width, replay.height, replay.mines) == (width, height, mines)
    assert replay.bbbv == bbbv and replay.program == program
    assert replay.completed
    assert {a.kind for a in replay.actions} <= {"probe", "flag", "chord"}
    assert all(0 <= a.x < width and 0 <= a.y < height for a in replay.actions)
    times = [a.time for a in replay.actions]
    assert times == sorted(times)
    # Played again on our minefield, the actions win the game the file says was won.
    assert final_state(replay) is GameState.WON


def test_chords_and_preflags_become_actions() -> None:
    chords = read_replay(REPLAYS / "beginner-chords.rmv")
    assert [a.kind for a in chords.actions] == ["probe", "flag", "chord", "chord"]
    preflags = read_replay(REPLAYS / "beginner-preflags.rmv")
    assert [a.kind for a in preflags.actions[:10]] == ["flag"] * 9 + ["probe"]


def test_walk_hands_out_the_view_before_each_action() -> None:
    replay = read_replay(REPLAYS / "custom-8x11.avf")
    steps = list(walk(replay))
    assert [s.move for s in steps] == list(range(1, len(steps) + 1))
    assert (steps[0].view == -1).all()  # nothing open before the first probe
    first = steps[0].action
    assert steps[1].view[first.y, first.x] == replay.layout.numbers[first.y, first.x]
    assert steps[-1].state is GameState.WON


def test_the_losing_click_is_a_probe_on_a_covered_cell_and_a_chord_on_a_number() -> None:
    events = [[0.0, "lr", 40, 8, 4, 10], [1.0, "lr", 8, 24, 4, 2], [2.0, "mv", 8, 8, 0, 10]]
    actions = actions_of_events(events, 16, 4, 4)
    assert [(a.kind, a.x, a.y) for a in actions] == [("probe", 2, 0), ("chord", 0, 1)]
    assert actions_of_events([[0.0, "lr", 500, 8, 2, 10]], 16, 4, 4) == []  # off the board


def _lost_game() -> list[ReplayAction]:
    return [ReplayAction("probe", 0, 3, 0.0), ReplayAction("probe", 3, 2, 1.0)]


def test_evf_written_by_ms_toollib_reads_back_valid_and_complete(tmp_path: Path) -> None:
    source = read_replay(REPLAYS / "beginner-preflags.rmv")
    path = tmp_path / "game.evf"
    write_evf(path, source.layout, source.actions, "SemiAutoMines test", "SemiAutoMines")
    video = ms_toollib.EvfVideo(str(path))
    video.parse()
    video.analyse()
    assert video.is_completed and video.is_valid()
    assert video.board == layout_rows(source.layout)
    assert video.player_identifier == "SemiAutoMines test"
    assert NOMINAL_TIMING in video.software
    again = read_replay(path)
    assert again.program == "Metasweeper"
    assert np.array_equal(again.layout.mines, source.layout.mines)
    assert [(a.kind, a.x, a.y) for a in again.actions] == [
        (a.kind, a.x, a.y) for a in source.actions
    ]


def test_a_lost_game_reads_back_lost(tmp_path: Path) -> None:
    path = tmp_path / "lost.evf"
    path.write_bytes(evf_bytes(LOST_LAYOUT, _lost_game(), "SemiAutoMines test", "test"))
    replay = read_replay(path)
    assert not replay.completed
    assert [a.kind for a in replay.actions] == ["probe", "probe"]
    assert final_state(replay) is GameState.LOST


def _one_line_error(path: Path) -> str:
    with pytest.raises(MapFormatError) as caught:
        read_replay(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


@pytest.mark.parametrize("name", [*sorted(REAL_FILES), "made.evf"])
@pytest.mark.parametrize("damage", ["truncated", "header"])
def test_truncated_or_corrupted_replays_are_one_line_errors(
    name: str, damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if name == "made.evf":
        data = evf_bytes(LOST_LAYOUT, _lost_game(), "SemiAutoMines test", "test")
    else:
        data = (REPLAYS / name).read_bytes()
    data = data[: len(data) // 3] if damage == "truncated" else b"\xff" * 40 + data[40:60]
    bad = tmp_path / f"bad{Path(name).suffix}"
    bad.write_bytes(data)
    monkeypatch.chdir(tmp_path)
    assert "replay" in _one_line_error(bad)
    assert sorted(p.name for p in tmp_path.iterdir()) == [bad.name]  # no crash.log left


def test_limits_and_unsupported_formats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    msor = tmp_path / "game.msor"
    msor.write_text('{"header": {}, "replay": []}')
    assert "the width is None, not an integer" in _one_line_error(msor)
    assert "expected a name ending" in _one_line_error(tmp_path / "game.txt")
    assert "no such file" in _one_line_error(tmp_path / "missing.avf")
    empty = tmp_path / "empty.rmv"
    empty.write_bytes(b"")
    assert "empty" in _one_line_error(empty)
    big = tmp_path / "big.avf"
    big.write_bytes(b"\0" * 2048)
    monkeypatch.setattr(replay_module, "MAX_REPLAY_BYTES", 1024)
    assert "larger than 1,024 bytes" in _one_line_error(big)


def test_a_missing_ms_toollib_is_named_with_its_pip_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ms_toollib" else real(name)
    )
    message = _one_line_error(REPLAYS / "custom-8x11.avf")
    assert "pip install ms-toollib==1.5.20" in message


def test_the_decoding_child_says_when_it_cannot_import_ms_toollib(tmp_path: Path) -> None:
    blocker = tmp_path / "ms_toollib.py"
    blocker.write_text("raise ImportError('not here')\n")
    script = Path(replay_module.__file__).with_name("replay_decode.py")
    child = subprocess.run(
        [sys.executable, str(script), "avf"],
        input=(REPLAYS / "custom-8x11.avf").read_bytes(),
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        cwd=tmp_path,
        check=False,
    )
    assert child.returncode == NO_MS_TOOLLIB and child.stdout == b""


def test_a_replay_reads_from_its_bytes_as_an_upload_would() -> None:
    data = (REPLAYS / "beginner-chords.rmv").read_bytes()
    replay = parse_replay(data, "upload.rmv", "<upload>")
    assert replay.source == "<upload>" and replay.bbbv == 3
    assert replay.actions == read_replay(REPLAYS / "beginner-chords.rmv").actions
    with pytest.raises(MapFormatError, match=r"^<upload>: not a readable Viennasweeper"):
        parse_replay(data[:100], "upload.rmv", "<upload>")
    with pytest.raises(MapFormatError, match="expected a name ending"):
        parse_replay(data, "upload.bin", "<upload>")


def test_a_decoder_that_cannot_start_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    assert "cannot start the replay decoder" in _one_line_error(REPLAYS / "custom-8x11.avf")
