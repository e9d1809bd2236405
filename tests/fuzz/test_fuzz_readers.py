"""Fuzz every reader: only :class:`MapFormatError` may come out of a bad file or string.

Readers: the position (``parse_board``/``load_board``), both layout
formats (``parse_layout``/``load_layout``, ``parse_ioccc``,
``parse_layout_grid``) and the ``NAME.start`` sidecar (``load_start``). Each
is fed text and bytes that look almost like its format (headers with absurd,
negative or non-ASCII numbers, CRLF, tabs, form feeds, a BOM, UTF-16, Latin-1)
and random bytes, plus the file-system cases: a missing file, a directory, an
unreadable file. Every error must name the source and a real line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import FILE_BYTES, GRID_TEXT, IOCCC_TEXT, MAP_TEXT, POSITION_TEXT

from minesweep_env import MapFormatError, load_board, load_layout, parse_board, parse_layout
from minesweep_env.core.board_spec import MAX_CELLS, MAX_SIDE
from minesweep_env.formats import load_start, parse_ioccc, parse_layout_grid

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

PARSERS: dict[str, Callable[..., Any]] = {
    "parse_board": parse_board,
    "parse_layout": parse_layout,
    "parse_ioccc": parse_ioccc,
    "parse_layout_grid": parse_layout_grid,
}
LOADERS: dict[str, Callable[[Path], Any]] = {
    "load_board": load_board,
    "load_layout": load_layout,
    "load_start": lambda path: load_start(path.with_suffix(".txt")),
}


def check_error(error: MapFormatError, source: str, text: str | None) -> None:
    """The documented form: ``source:line: problem``, the line one the file has, one line."""
    assert error.source == source
    assert str(error).startswith(f"{source}:")
    assert "\n" not in str(error) and len(str(error)) < 300
    if error.line is not None and text is not None:
        assert 1 <= error.line <= text.count("\n") + 1


def parse_or_error(parser: Callable[..., Any], text: str, source: str = "<fuzz>") -> Any:
    try:
        result = parser(text, source)
    except MapFormatError as error:
        check_error(error, source, text)
        return None
    width, height = result.width, result.height
    assert 1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE and width * height <= MAX_CELLS
    return result


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(text=MAP_TEXT)
def test_parsers_raise_only_map_format_errors(name, text, tried):
    tried[name] += 1
    parse_or_error(PARSERS[name], text)


@FUZZ
@given(text=POSITION_TEXT)
def test_positions_near_the_format(text, tried):
    tried["parse_board"] += 1
    parse_or_error(parse_board, text)


@FUZZ
@given(text=IOCCC_TEXT)
def test_ioccc_maps_near_the_format(text, tried):
    tried["parse_layout"] += 1
    parse_or_error(parse_layout, text)


@FUZZ
@given(text=GRID_TEXT)
def test_grids_near_the_format(text, tried):
    tried["parse_layout"] += 1
    parse_or_error(parse_layout, text)


@pytest.mark.parametrize("name", sorted(LOADERS))
@FUZZ
@given(data=FILE_BYTES)
def test_loaders_raise_only_map_format_errors(name, data, tmp_path, tried):
    tried[name] += 1
    path = tmp_path / "map.start" if name == "load_start" else tmp_path / "map.txt"
    path.write_bytes(data)
    try:
        LOADERS[name](path)
    except MapFormatError as error:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = None
        check_error(error, str(path), text)


ABSURD_HEADERS = [
    ("parse_board", "5 999999999999\n?????\n"),
    ("parse_board", "999999999999 5\n" + "?\n" * 5),  # rows that match: a MemoryError once
    ("parse_board", "4097 1\n" + "?" * 4097 + "\n"),
    ("parse_board", "1025 1024\n"),
    ("parse_board", "100000 100000 5\n"),
    ("parse_layout", "100000 100000 5\n0 1 2\n"),
    ("parse_layout", "-3 4 1\n"),
    ("parse_layout", "o" * (MAX_SIDE + 1) + "\n"),
    ("parse_layout", "o\n" * (MAX_SIDE + 1)),
]


@pytest.mark.parametrize(("name", "text"), ABSURD_HEADERS)
def test_absurd_sizes_are_map_format_errors_before_any_allocation(name, text, tried):
    tried[name] += 1
    with pytest.raises(MapFormatError, match=r"^<fuzz>:\d+: board .*(too large|at least 1x1)"):
        PARSERS[name](text, "<fuzz>")


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_paths_that_are_no_file(name, tmp_path, tried):
    missing, folder = tmp_path / "missing.txt", tmp_path / "folder.txt"
    folder.mkdir()
    if name == "load_start":
        folder.with_suffix(".start").mkdir()
    cases = {missing: "no such file", folder: "is a directory"}
    if name == "load_start":
        cases = {folder: "is a directory"}  # a missing sidecar is no sidecar: None
        assert load_start(missing) is None
    for path, problem in cases.items():
        tried[name] += 1
        with pytest.raises(MapFormatError, match=problem):
            LOADERS[name](path.with_suffix(".start") if name == "load_start" else path)


@pytest.mark.parametrize("name", ["load_board", "load_layout"])
def test_odd_paths(name, tmp_path, tried):
    for path in ("", "with\x00nul", str(tmp_path / ("long" * 100)), "/dev/null"):
        tried[name] += 1
        with pytest.raises(MapFormatError):
            LOADERS[name](Path(path) if path != "with\x00nul" else path)


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="root reads a chmod 000 file anyway; the directory and missing cases still run",
)
@pytest.mark.parametrize("name", ["load_board", "load_layout"])
def test_unreadable_file(name, tmp_path, tried):
    tried[name] += 1
    path = tmp_path / "locked.txt"
    path.write_text("3 3\n???\n???\n???\n")
    path.chmod(0)
    with pytest.raises(MapFormatError, match="permission denied"):
        LOADERS[name](path)


def test_a_file_too_large_to_be_a_map(tmp_path, tried, monkeypatch):
    from minesweep_env.formats import source

    tried["load_layout"] += 1
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 100)
    path = tmp_path / "big.txt"
    path.write_text("o" * 101)
    with pytest.raises(MapFormatError, match="larger than 100 bytes"):
        load_layout(path)
