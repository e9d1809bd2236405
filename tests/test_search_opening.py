"""The search agent's first click: the measured opening table and its fallback."""

from __future__ import annotations

import numpy as np
import pytest
from harness_probes import harness_probes

from minesweep_env import STANDARD_BOARDS
from minesweep_env.core.cells import COVERED
from semiautomines_agents import SearchAgent
from semiautomines_agents.evaluation.play import Settings, game_seed, make_env
from semiautomines_agents.evaluation.targets import board_target
from semiautomines_agents.greedy import first_click_cell
from semiautomines_agents.search.opening import (
    OPENINGS,
    SECOND_CLICKS,
    opening_cell,
    second_cell,
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


def _lone_corner_view(number: int) -> np.ndarray:
    view = np.full((9, 9), COVERED, dtype=np.int8)
    view[0, 0] = number
    return view


def test_the_second_click_table_answers_only_after_a_lone_number(monkeypatch):
    monkeypatch.setitem(SECOND_CLICKS, (9, 9, 10, "safe", 1), (2, 2))
    assert second_cell(_lone_corner_view(1), 10, "safe") == (2, 2)
    assert second_cell(_lone_corner_view(2), 10, "safe") is None  # no entry
    assert second_cell(_lone_corner_view(1), 11, "safe") is None  # another board
    opened = _lone_corner_view(1)
    opened[0, 1] = 2
    assert second_cell(opened, 10, "safe") is None  # more than the first click opened
    assert second_cell(np.full((9, 9), COVERED, dtype=np.int8), 10, "safe") is None


def test_search_plays_the_table_s_second_click(monkeypatch):
    settings = Settings(first_click="safe")
    target = board_target("beginner")
    env = make_env(target, settings, SearchAgent.obs_mode)
    for index in range(100):  # a game whose corner shows a lone 1
        env.reset(seed=game_seed(settings.seed, target.name, index))
        env.step(0)
        view = env.unwrapped.game.minefield.view
        if view[0, 0] == 1 and np.count_nonzero(view >= 0) == 1:
            break
    else:
        pytest.fail("no lone 1 in the corner in 100 games")
    own = _probes("search", "beginner", "safe", index)[1]
    cell = (4, 6) if own != 6 * 9 + 4 else (5, 6)
    monkeypatch.setitem(SECOND_CLICKS, (9, 9, 10, "safe", 1), cell)
    assert _probes("search", "beginner", "safe", index)[1] == cell[1] * 9 + cell[0]
    # An agent told where to open does not use the table (it assumes the table's opening).
    assert _probes("search:first_x=0:first_y=0", "beginner", "safe", index)[1] == own
