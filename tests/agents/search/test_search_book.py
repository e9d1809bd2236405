"""The book of first guesses: where it applies, what it plays, and its data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import count_position
from semiautomines_agents import make_agent
from semiautomines_agents.search.book import BOOK_FILE, book_cell, entries
from semiautomines_agents.search.explain import explain


def corner(shows: int, width: int = 30, height: int = 16, mines: int | None = 99) -> Board:
    grid = np.full((height, width), COVERED, dtype=np.int8)
    grid[0, 0] = shows
    return Board(grid, mines)


def test_the_book_holds_the_expert_corner_showing_one_and_nothing_else():
    assert book_cell(corner(1)) == 15 * 30 + 29
    assert book_cell(corner(2)) is None
    assert book_cell(corner(1, mines=98)) is None
    assert book_cell(corner(1, mines=None)) is None
    assert book_cell(corner(1, width=16, height=16, mines=40)) is None
    more = corner(1)
    more.grid[5, 5] = 2
    assert book_cell(more) is None


def test_search_plays_the_book_only_when_asked():
    board = corner(1)
    advice = make_agent("search:book=1").advise(board)
    weights = count_position(board)
    assert advice.reason == "book" and advice.cell == book_cell(board)
    assert advice.safety == pytest.approx(1 - weights.mine_weight[advice.cell] / weights.layouts)
    plain = make_agent("search").advise(board)
    assert plain.reason == "search" and plain.cell != advice.cell
    assert (
        make_agent("search:book=1").advise(corner(2)).cell
        == make_agent("search").advise(corner(2)).cell
    )


def test_a_cell_the_caller_forbids_is_not_played_from_the_book():
    board = corner(1)
    valid = board.grid.reshape(-1) == COVERED
    valid[book_cell(board)] = False
    advice = make_agent("search:book=1").advise(board, valid)
    assert advice.reason != "book" and valid[advice.cell]


def test_a_book_move_is_explained():
    board = corner(1)
    agent = make_agent("search:book=1")
    advice = agent.advise(board)
    said = explain(agent, board, count_position(board), advice)
    assert said.decided_by == "book of first guesses" and said.safest == advice.cell


def test_every_entry_is_a_covered_cell_of_its_board_with_its_measurement():
    data = json.loads(BOOK_FILE.read_text())
    assert len(entries()) == len(data["positions"]) >= 1
    for entry in data["positions"]:
        width, height, mines = entry["board"]
        assert 0 < mines < width * height
        assert 1 <= entry["shows"] <= 8
        for x, y in (entry["probe"], entry["cell"], entry["search_cell"]):
            assert 0 <= x < width and 0 <= y < height
        assert entry["cell"] != entry["probe"] and entry["cell"] != entry["search_cell"]
        assert "layouts" in entry["measured"]
