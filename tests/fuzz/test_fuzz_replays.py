"""Fuzz the replay reader: a damaged real replay is read or refused in one line, never a crash.

ms-toollib aborts the process on some damaged files; the reader decodes in a child
process, so whatever the bytes, :func:`read_replay` returns a replay whose actions
lie on its board or raises :class:`MapFormatError`, and leaves no file behind.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import TESTS

from minesweep_env import MapFormatError
from minesweep_env.formats.replay import read_replay

pytest.importorskip("ms_toollib")

REPLAYS = TESTS / "data" / "replays"
FILES = ["custom-8x11.avf", "beginner-chords.rmv", "beginner-preflags.rmv", "expert.mvf"]

# Each example starts a child process: a few dozen cover the damage kinds.
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, bytes]:
    """A real replay cut short, with bytes overwritten, or both."""
    name = draw(st.sampled_from(FILES))
    data = bytearray((REPLAYS / name).read_bytes())
    cut = draw(st.integers(1, len(data)))
    data = data[:cut]
    for _ in range(draw(st.integers(0, 8))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return name, bytes(data)


@FUZZ
@given(case=damaged())
def test_a_damaged_replay_reads_or_is_one_line(
    case: tuple[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tried: Counter[str]
) -> None:
    name, data = case
    tried["read_replay"] += 1
    folder = tmp_path / str(tried["read_replay"])
    folder.mkdir()
    monkeypatch.chdir(folder)
    path = folder / f"fuzz{Path(name).suffix}"
    path.write_bytes(data)
    try:
        replay = read_replay(path)
    except MapFormatError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error)
    else:
        assert replay.layout.mine_count == replay.mines
        assert all(0 <= a.x < replay.width and 0 <= a.y < replay.height for a in replay.actions)
    assert [p.name for p in folder.iterdir()] == [path.name]  # no crash.log, nothing else


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@st.composite
def msor_like(draw: st.DrawFn) -> object:
    """JSON shaped like an ``.msor`` file, with any value anywhere."""
    header = {"width": draw(st.integers(0, 6)), "height": draw(st.integers(0, 6))}
    header["mines"] = draw(st.integers(-1, 40))
    step = st.fixed_dictionaries(
        {"type": st.sampled_from([0, 1, 3, 2, "0"]), "x": st.integers(-1, 6)},
        optional={"y": st.integers(-1, 6), "time": JSON, "touchCells": st.lists(JSON)},
    )
    return {"header": draw(st.one_of(st.just(header), JSON)), "replay": draw(st.lists(step))}


@FUZZ
@given(data=msor_like())
def test_an_msor_of_any_content_reads_or_is_one_line(
    data: object, tmp_path: Path, tried: Counter[str]
) -> None:
    tried["read_replay msor"] += 1
    path = tmp_path / "fuzz.msor"
    path.write_text(json.dumps(data))
    try:
        replay = read_replay(path)
    except MapFormatError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error)
    else:
        assert replay.layout.mine_count == replay.mines
        assert all(0 <= a.x < replay.width and 0 <= a.y < replay.height for a in replay.actions)
