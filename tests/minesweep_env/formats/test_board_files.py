"""The community's board formats: MinesweeperX .mbf, Arbiter .abf, JSMinesweeper's
position text. Files are built byte by byte from the public format description,
read through the single entry points (load_layout, load_board), told apart by
content, and every broken one is one MapFormatError placed by byte or line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep_env import MapFormatError, MineLayout, load_board, load_layout
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.envs.maps import load_maps
from minesweep_env.formats import (
    FileKind,
    detect,
    format_ioccc,
    format_jsm_position,
    format_mbf,
    parse_board,
    parse_layout,
    parse_mbf,
)
from minesweep_env.formats.mbf import mbf_shaped


def board_file(width: int, height: int, mines: list[tuple[int, int]]) -> bytes:
    """An .mbf/.abf file from the public description, field by field."""
    data = bytearray()
    data.append(width)  # byte 0: width, one unsigned byte
    data.append(height)  # byte 1: height, one unsigned byte
    data += len(mines).to_bytes(2, "big")  # bytes 2-3: mine count, high byte first
    for x, y in mines:  # then two bytes per mine: column x, row y, 0-based
        data.append(x)
        data.append(y)
    return bytes(data)


# A 4x3 board, mines at (0, 0), (3, 0) and (1, 2):
#   x . . x
#   . . . .
#   . x . .
FOUR_BY_THREE = bytes([4, 3, 0, 3, 0, 0, 3, 0, 1, 2])
EXPECTED = np.array(
    [[True, False, False, True], [False, False, False, False], [False, True, False, False]]
)

# JSMinesweeper's "Download position" text of an 8x8 board with 10 mines, after one
# opening and the flags logic proves ('H' covered); and a 4x3 board after a lost game,
# every mine shown ('F' flagged, '?' not): then it carries the whole layout.
JSM_POSITION = """8x8x10
HH100000
HH223210
H12FFF31
HHHHHFHH
HHHHHHHH
HHHHHHHH
HHHHHHHH
HHHHHHHH
"""
JSM_LAYOUT = """4x3x3
F11?
2221
1?10
"""


def test_the_byte_by_byte_file_reads_as_the_layout_it_describes(tmp_path):
    assert board_file(4, 3, [(0, 0), (3, 0), (1, 2)]) == FOUR_BY_THREE
    for name in ("board.mbf", "board.abf"):
        path = tmp_path / name
        path.write_bytes(FOUR_BY_THREE)
        layout = load_layout(path)
        assert np.array_equal(layout.mines, EXPECTED)
        assert layout.mine_count == 3


def test_an_expert_file_with_256_or_more_mines_uses_both_count_bytes(tmp_path):
    mines = [(x, y) for y in range(16) for x in range(30)][::-1][:300]
    path = tmp_path / "dense.mbf"
    path.write_bytes(board_file(30, 16, mines))
    assert path.read_bytes()[2:4] == bytes([1, 44])  # 300 = 1 * 256 + 44
    layout = load_layout(path)
    assert layout.mine_count == 300
    assert all(layout.mines[y, x] for x, y in mines)


@settings(max_examples=200, deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 40),
    density=st.floats(0, 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_writing_then_reading_gives_the_layout_back(width, height, density, seed):
    mines = int(density * width * height)
    layout = MineLayout.random(width, height, mines, np.random.default_rng(seed))
    data = format_mbf(layout)
    assert len(data) == 4 + 2 * mines
    assert mbf_shaped(data)
    assert np.array_equal(parse_mbf(data).mines, layout.mines)


def test_the_writer_lays_out_the_bytes_of_the_description():
    layout = MineLayout(mines=EXPECTED)
    assert format_mbf(layout) == FOUR_BY_THREE  # mines in row order, x before y


def test_a_board_too_large_for_the_format_is_refused_by_the_writer():
    with pytest.raises(ValueError, match="255x255"):
        format_mbf(MineLayout(mines=np.zeros((1, 256), dtype=bool)))


@pytest.mark.parametrize(
    ("data", "byte", "fragment"),
    [
        (b"", 0, "truncated header"),
        (bytes([4, 3, 0]), 3, "truncated header"),
        (bytes([0, 3, 0, 0]), 0, "width is 0"),
        (bytes([4, 0, 0, 0]), 1, "height is 0"),
        (bytes([2, 2, 0, 5]), 2, "out of range"),
        (FOUR_BY_THREE[:-1], 9, "truncated: 3 mines need 10 bytes"),
        (FOUR_BY_THREE + b"\x00", 10, "extra bytes"),
        (bytes([4, 3, 0, 1, 4, 0]), 4, "off the 4-wide board"),
        (bytes([4, 3, 0, 1, 0, 3]), 5, "off the 3-high board"),
        (bytes([4, 3, 0, 2, 1, 1, 1, 1]), 6, "listed twice"),
    ],
)
@pytest.mark.parametrize("suffix", [".mbf", ".abf"])
def test_a_broken_board_file_is_one_error_at_its_byte(tmp_path, data, byte, fragment, suffix):
    path = tmp_path / f"broken{suffix}"
    path.write_bytes(data)
    with pytest.raises(MapFormatError) as caught:
        load_layout(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: byte {byte}: "), message
    assert fragment in message
    assert "\n" not in message


def test_jsm_position_text_reads_as_a_position(tmp_path):
    path = tmp_path / "JSM_Seed_1.mine"
    path.write_text(JSM_POSITION)
    board = load_board(path)
    assert (board.width, board.height, board.total_mines) == (8, 8, 10)
    assert board.grid[2, 3] == FLAGGED and board.grid[3, 5] == FLAGGED
    assert board.grid[1, 2] == 2 and board.grid[0, 3] == 0
    assert board.grid[0, 0] == COVERED and board.flag_count == 4
    assert parse_board(format_jsm_position(board)).grid.tolist() == board.grid.tolist()


def test_jsm_text_that_marks_every_mine_is_also_a_map(tmp_path):
    path = tmp_path / "lost.mine"
    path.write_text(JSM_LAYOUT)
    layout = load_layout(path)
    assert np.array_equal(layout.mines, EXPECTED)
    board = load_board(path)  # and a position: the '?' mines are covered cells
    assert board.grid[0, 0] == FLAGGED and board.grid[0, 3] == COVERED


def test_jsm_text_with_mines_missing_is_a_position_not_a_map(tmp_path):
    path = tmp_path / "partial.mine"
    path.write_text(JSM_POSITION)
    with pytest.raises(MapFormatError, match=r"partial.mine:1: marks 4 of the header's 10"):
        load_layout(path)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("", 1, "empty file"),
        ("4x3x3\nF11?\n2221\n", 3, "expected 3 rows, found 2"),
        ("4x3x3\nF11?\n222\n1?10\n", 3, "row has 3 cells, expected 4"),
        ("4x3x3\nF11?\n22Z1\n1?10\n", 3, "unexpected character 'Z' in column 3"),
        ("4x3x3\nF11?\n2221\n1?10\nHHHH\n", 5, "extra line"),
        ("4x3x13\nF11?\n2221\n1?10\n", 1, "mine count 13 out of range"),
        ("4x3x3\nF11?\n2321\n1?10\n", 3, "cell (1, 1) shows 3 but the marked mines"),
        ("0x3x0\n", 1, "at least 1x1"),
    ],
)
def test_broken_jsm_text_is_one_error_at_its_line(tmp_path, text, line, fragment):
    path = tmp_path / "broken.mine"
    path.write_text(text)
    with pytest.raises(MapFormatError) as caught:
        load_layout(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert fragment in message


def test_too_many_flags_for_the_header_is_refused_as_a_position():
    with pytest.raises(MapFormatError, match="<string>:1: 2 flags but the header says 1"):
        parse_board("2x1x1\nFF\n")


# ------------------------------------------------------------------ detection


def _every_format() -> dict[str, bytes]:
    layout = MineLayout(mines=EXPECTED)
    return {
        "mbf": FOUR_BY_THREE,
        "ioccc": format_ioccc(layout).encode(),
        "grid": b"xoox\noooo\noxoo\n",
        "jsm": JSM_LAYOUT.encode(),
    }


@pytest.mark.parametrize("kind", ["mbf", "ioccc", "grid", "jsm"])
@pytest.mark.parametrize("suffix", [".mbf", ".abf", ".txt", ".mine", ".dat", ""])
def test_content_decides_the_format_whatever_the_extension(tmp_path, kind, suffix):
    data = _every_format()[kind]
    path = tmp_path / f"board{suffix}"
    path.write_bytes(data)
    expected = FileKind.BOARD_FILE if kind == "mbf" else FileKind.TEXT
    assert detect(data, path) is expected
    assert np.array_equal(load_layout(path).mines, EXPECTED)


def test_the_extension_decides_only_what_content_cannot(tmp_path):
    broken = FOUR_BY_THREE[:-1]  # no longer the shape of a board file
    as_board = tmp_path / "cut.mbf"
    as_board.write_bytes(broken)
    assert detect(broken, as_board) is FileKind.BOARD_FILE
    with pytest.raises(MapFormatError, match="byte 9: truncated"):
        load_layout(as_board)
    as_text = tmp_path / "cut.txt"
    as_text.write_bytes(broken)
    assert detect(broken, as_text) is FileKind.TEXT
    with pytest.raises(MapFormatError, match="binary data, not a text map"):
        load_layout(as_text)


def test_a_board_file_is_not_a_position(tmp_path):
    path = tmp_path / "board.mbf"
    path.write_bytes(FOUR_BY_THREE)
    with pytest.raises(MapFormatError, match="holds a mine layout \\(a map\\), not a position"):
        load_board(path)


def test_a_folder_of_maps_reads_board_files_and_jsm_text_beside_txt(tmp_path):
    (tmp_path / "a.mbf").write_bytes(FOUR_BY_THREE)
    (tmp_path / "b.abf").write_bytes(FOUR_BY_THREE)
    (tmp_path / "c.mine").write_text(JSM_LAYOUT)
    (tmp_path / "d.txt").write_text("xoox\noooo\noxoo\n")
    (tmp_path / "notes.md").write_text("not a map")
    maps = load_maps(tmp_path)
    assert [m.path.rsplit("/", 1)[1] for m in maps] == ["a.mbf", "b.abf", "c.mine", "d.txt"]
    assert all(np.array_equal(m.layout.mines, EXPECTED) for m in maps)


def test_the_env_plays_a_board_file_as_its_map(tmp_path):
    import gymnasium

    import minesweep_env  # noqa: F401  (registers the env)

    path = tmp_path / "board.mbf"
    path.write_bytes(FOUR_BY_THREE)
    env = gymnasium.make("SemiAutoMines-v0", maps=str(path), first_click="none")
    env.reset(seed=0)
    assert np.array_equal(env.unwrapped.game.layout.mines, EXPECTED)
    env.close()


def test_text_parsers_still_tell_their_formats_apart():
    assert np.array_equal(parse_layout(JSM_LAYOUT).mines, EXPECTED)
    assert parse_board("2 1 1\n1?\n").grid.tolist() == [[1, COVERED]]
