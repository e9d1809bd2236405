"""Readers and writers round-trip; every bad input is one MapFormatError naming file and line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import REPO

from minesweep_env import (
    Board,
    MapFormatError,
    MineLayout,
    format_board,
    format_ioccc,
    format_layout_grid,
    load_board,
    load_layout,
    parse_board,
    parse_layout,
)
from minesweep_env.core.cells import adjacent_mine_counts
from minesweep_env.formats import parse_ioccc, parse_layout_grid

MAPS = REPO / "maps"


@st.composite
def layouts(draw, with_priorities: bool = True) -> MineLayout:
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    mines = draw(st.integers(0, width * height))
    seed = draw(st.integers(0, 2**32 - 1))
    layout = MineLayout.random(width, height, mines, np.random.default_rng(seed))
    return layout if with_priorities else MineLayout(layout.mines)


@st.composite
def boards(draw) -> Board:
    width = draw(st.integers(1, 10))
    height = draw(st.integers(1, 10))
    codes = st.sampled_from([-2, -1, 0, 1, 2, 3])
    grid = np.array(
        draw(st.lists(codes, min_size=width * height, max_size=width * height)), dtype=np.int8
    ).reshape(height, width)
    neighbour_counts = adjacent_mine_counts(np.ones((height, width), dtype=bool))
    grid = np.minimum(grid, neighbour_counts)
    total = draw(st.one_of(st.none(), st.integers(0, width * height)))
    return Board(grid, total)


@settings(max_examples=200, deadline=None)
@given(layouts())
def test_ioccc_round_trip_keeps_mines_and_priorities(layout):
    again = parse_ioccc(format_ioccc(layout))
    assert again == layout


@settings(max_examples=200, deadline=None)
@given(layouts(with_priorities=False))
def test_ioccc_writer_invents_priorities_that_describe_the_mines(layout):
    again = parse_layout(format_ioccc(layout))
    assert np.array_equal(again.mines, layout.mines)
    assert sorted(again.priorities.reshape(-1)) == list(range(layout.width * layout.height))


@settings(max_examples=200, deadline=None)
@given(layouts(with_priorities=False))
def test_layout_grid_round_trip(layout):
    again = parse_layout(format_layout_grid(layout))
    assert again == layout


@settings(max_examples=200, deadline=None)
@given(boards())
def test_board_round_trip(board):
    again = parse_board(format_board(board))
    assert np.array_equal(again.grid, board.grid)
    assert again.total_mines == board.total_mines


def test_format_is_detected_from_content():
    ioccc = parse_layout("2 1 1\n1 0\n")
    grid = parse_layout("ox\n")
    assert ioccc.mines.tolist() == grid.mines.tolist() == [[False, True]]
    assert ioccc.priorities is not None and grid.priorities is None


def test_layout_grid_ignores_other_characters():
    layout = parse_layout_grid("# a map\n x o o \n\n o,x,o\n")
    assert layout.rows() == ["xoo", "oxo"]


def test_board_reads_the_seed_002_example_and_an_optional_total():
    board = parse_board("3 3\n???\n?2!\n???\n")
    assert board.rows() == ["???", "?2!", "???"] and board.total_mines is None
    assert parse_board("3 3 4\n???\n?2!\n???\n").total_mines == 4
    assert parse_board("3 3 4\n???\n?2!\n???\n", total_mines=2).total_mines == 2


def test_every_shipped_map_reads():
    files = sorted(MAPS.glob("**/*.txt"))
    assert len(files) >= 300 + 7
    for path in files:
        layout = load_layout(path)
        assert layout.mines.any()


BAD_LAYOUTS = {
    "missing numbers": ("2 2 1\n0 1 2\n", 2, "missing priorities"),
    "extra numbers": ("2 1 1\n0 1\n5\n", 3, "extra numbers"),
    "repeated priority": ("2 2 1\n0 1\n1 3\n", 3, "appears twice"),
    "out-of-range priority": ("2 2 1\n0 1\n2 4\n", 3, "out of range"),
    "negative priority": ("2 2 1\n0 -1\n2 3\n", 2, "out of range"),
    "mines > cells": ("2 2 5\n0 1 2 3\n", 1, "mine count 5 out of range"),
    "non-integer": ("2 2 1\n0 1\n2 x3\n", 3, "must be an integer"),
    "short header": ("2 2\n", 1, "header needs three numbers"),
    "zero size": ("0 2 0\n", 1, "at least 1x1"),
    "ragged rows": ("xoo\nxo\n", 2, "ragged rows"),
    "empty": ("", 1, "empty file"),
    "whitespace only": ("  \n\n", 1, "empty file"),
    "no rows": ("# a map, empty\n", 1, "no rows"),
}


@pytest.mark.parametrize("case", sorted(BAD_LAYOUTS))
def test_bad_layout_files_name_file_line_and_problem(tmp_path, case):
    text, line, problem = BAD_LAYOUTS[case]
    path = tmp_path / "map.txt"
    path.write_text(text)
    with pytest.raises(MapFormatError) as caught:
        load_layout(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert problem in message
    assert "\n" not in message


BAD_BOARDS = {
    "ragged rows": ("3 2\n???\n??\n", 3, "row has 2 cells"),
    "too few rows": ("3 3\n???\n???\n", 3, "expected 3 rows"),
    "too many rows": ("2 1\n??\n??\n", 3, "expected 1 rows"),
    "digit too big for its neighbourhood": ("2 2\n4?\n??\n", 2, "only 3 neighbours"),
    "nine": ("3 3\n???\n?9?\n???\n", 3, "only 8 neighbours"),
    "character outside the format": ("2 2\n?x\n??\n", 2, "unexpected character 'x'"),
    "bad header": ("3\n???\n", 1, "header must be"),
    "non-integer header": ("3 a\n???\n", 1, "must be integers"),
    "total > cells": ("2 1 3\n??\n", 1, "out of range"),
    "empty": ("", 1, "empty file"),
}


@pytest.mark.parametrize("case", sorted(BAD_BOARDS))
def test_bad_board_files_name_file_line_and_problem(tmp_path, case):
    text, line, problem = BAD_BOARDS[case]
    path = tmp_path / "board.txt"
    path.write_text(text)
    with pytest.raises(MapFormatError) as caught:
        load_board(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert problem in message


@pytest.mark.parametrize("loader", [load_layout, load_board])
def test_binary_garbage_is_rejected(tmp_path, loader):
    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(MapFormatError, match="binary data"):
        loader(path)


@pytest.mark.parametrize("loader", [load_layout, load_board])
def test_invalid_utf8_names_its_line(tmp_path, loader):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"2 1 1\n0 \xff1\n")
    with pytest.raises(MapFormatError, match=r":2: not valid UTF-8"):
        loader(path)


@pytest.mark.parametrize("loader", [load_layout, load_board])
def test_missing_file_and_directory(tmp_path, loader):
    with pytest.raises(MapFormatError, match="no such file"):
        loader(tmp_path / "absent.txt")
    with pytest.raises(MapFormatError, match="is a directory"):
        loader(tmp_path)


def test_readers_never_modify_their_input(tmp_path):
    path = tmp_path / "map.txt"
    path.write_text("2 1 1\n1 0\n")
    before = path.read_bytes()
    load_layout(path)
    assert path.read_bytes() == before


def test_the_start_file_is_a_format_still_reached_through_generation():
    """The ``NAME.start`` sidecar moved to formats; the old import names still work."""
    import minesweep_env.formats as formats
    import minesweep_env.generation as generation

    for name in ("load_start", "start_path", "write_start"):
        assert getattr(generation, name) is getattr(formats, name)
    assert formats.load_start.__module__ == "minesweep_env.formats.start_file"
