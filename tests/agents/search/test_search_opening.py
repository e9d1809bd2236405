"""The search agent's first click: the measured opening table and its fallback."""

from __future__ import annotations

import pytest
from harness_probes import harness_probes

from minesweep_env import STANDARD_BOARDS
from semiautomines_agents import SearchAgent
from semiautomines_agents.greedy import first_click_cell
from semiautomines_agents.search.opening import (
    OPENINGS,
    opening_cell,
    symmetric_cells,
)


def _probes(agent_name: str, board: str, first_click: str, index: int = 0) -> list[int]:
    """The cells an agent probes in game ``index`` of the harness."""
    return harness_probes(agent_name, board, index, first_click)


def _first_probe(agent_name: str, board: str, first_click: str, index: int = 0) -> int:
    return _probes(agent_name, board, first_click, index)[0]


@pytest.mark.parametrize(
    ("width", "height", "count"), [(9, 9, 15), (16, 16, 36), (30, 16, 120), (5, 4, 6)]
)
def test_symmetric_cells_hold_one_cell_of_each_orbit(width, height, count):
    cells = symmetric_cells(width, height)
    assert len(cells) == count
    orbits = set()
    for x, y in cells:
        images = {(x, y), (width - 1 - x, y), (x, height - 1 - y), (width - 1 - x, height - 1 - y)}
        if width == height:
            images |= {(b, a) for a, b in images}
        assert not images & orbits  # no two cells of one orbit
        orbits |= images
    assert len(orbits) == width * height  # every cell is in some listed cell's orbit


def test_every_table_opening_lies_on_its_board():
    for (width, height, mines, policy), (x, y) in OPENINGS.items():
        assert 0 <= x < width and 0 <= y < height
        assert policy in ("safe", "zero")
        assert 0 < mines < width * height


def test_a_board_not_in_the_table_falls_back_to_greedy_s_opening():
    for policy in ("safe", "zero"):
        assert (12, 7, 20, policy) not in OPENINGS
        assert opening_cell(12, 7, 20, policy) == first_click_cell(12, 7, policy)


@pytest.mark.parametrize("board", ["beginner", "intermediate", "expert"])
@pytest.mark.parametrize("first_click", ["safe", "zero"])
def test_search_opens_at_the_table_s_cell(board, first_click):
    width, height, mines = STANDARD_BOARDS[board]
    x, y = opening_cell(width, height, mines, first_click)
    assert _first_probe("search", board, first_click) == y * width + x


def test_first_x_and_first_y_choose_the_first_click():
    assert _first_probe("search:first_x=4:first_y=2", "beginner", "zero") == 2 * 9 + 4
    assert _first_probe("search:first_x=0:first_y=1", "intermediate", "safe") == 16


def test_first_x_needs_first_y():
    with pytest.raises(ValueError, match="both first_x and first_y"):
        SearchAgent(first_x=2)
