"""Closed chains of 50/50 links (extended 50/50s), checked against brute-force
enumeration of every layout and against the exact endgame on small positions."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import every_layout, shows
from positions import dense_position

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search.chains import chain_guess, closed_chain, links
from semiautomines_agents.search.endgame import Endgame, Layouts
from semiautomines_agents.search.forced import forced_guess


def _position(seed: int) -> Board:
    """A small, dense position, about half its mines flagged: links are common."""
    return dense_position(seed, (4, 8), (2, 5), density=0.4, flags=0.5)


def _chain_cases(count: int) -> list[Board]:
    """The first ``count`` positions (of the kind above) with no safe cell and no
    forced pair or box, but a closed chain."""
    found = []
    for seed in range(2000 * count):
        board = _position(seed)
        flat = board.grid.reshape(-1)
        if not (flat == COVERED).any():
            continue
        weights = count_position(board)
        if any(weights.mine_weight.get(c) == 0 for c in np.flatnonzero(flat == COVERED)):
            continue
        if forced_guess(board, weights) is None and closed_chain(board, weights) is not None:
            found.append(board)
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} chain positions found")


CASES = _chain_cases(30)


@pytest.mark.parametrize("board", CASES)
def test_a_closed_chain_is_a_coin_flip_no_number_can_ever_settle(board):
    weights = count_position(board)
    p, q = closed_chain(board, weights)
    assert len(p) == len(q) >= 2
    layouts = every_layout(board)
    assert len(layouts) == weights.layouts
    fits = set(layouts)
    flat = board.grid.reshape(-1)
    for layout in layouts:
        # Every layout fills exactly one half ...
        assert (set(p) <= layout and not set(q) & layout) or (
            set(q) <= layout and not set(p) & layout
        )
        # ... its twin with the halves swapped fits as well ...
        twin = layout ^ set(p) ^ set(q)
        assert twin in fits
        # ... and no cell outside the chain, probed now or later, tells them apart.
        for other in range(flat.size):
            inside = other in p + q or other in layout or flat[other] == FLAGGED
            if not inside:
                assert shows(board, layout, other) == shows(board, twin, other)


@pytest.mark.parametrize("board", CASES)
def test_tossing_any_cell_of_a_closed_chain_first_loses_no_win_probability(board):
    weights = count_position(board)
    p, q = closed_chain(board, weights)
    layouts = Layouts(board, limit=100_000)
    endgame = Endgame(layouts)
    _, best = endgame.best_probe()
    for cell in p + q:
        taken = endgame.probe_value(layouts.masks, layouts.cells.index(cell))
        assert taken == pytest.approx(best, abs=1e-12)


# Four covered cells along the top: the 1, the 2 below and the 2 and the 3 beside
# them each need one mine among two of them, so (0,0)-(1,0)-(3,0)-(4,0) is a chain.
# The 2 at (2,0) sees (1,0) and not (0,0), so no pair in it is a twin on its own.
CHAIN_ROWS = ["??2??", "12!3!"]


def test_a_chain_whose_pairs_are_not_twins_is_found_and_tossed():
    board = Board.from_rows(CHAIN_ROWS, total_mines=4)
    weights = count_position(board)
    assert weights.layouts == 2 and forced_guess(board, weights) is None
    assert links(board, weights) == {0: {1}, 1: {0, 3}, 3: {1, 4}, 4: {3}}
    assert closed_chain(board, weights) == ((0, 3), (1, 4))
    assert chain_guess(board, weights) in (0, 1, 3, 4)
    for mode in (1, 2):  # the greedy order's cell, or the look-ahead's
        advice = SearchAgent(endgame_layouts=0, chains=mode).advise(board)
        assert (advice.reason, advice.safety) == ("forced", 0.5) and advice.cell in (0, 1, 3, 4)
    assert SearchAgent(endgame_layouts=0).advise(board).reason != "forced"


def test_a_chain_with_a_covered_cell_seeing_its_halves_unequally_is_not_closed():
    # Links (0,1)-(1,0)-(2,1)-(2,2) make a path of four cells, P = (0,1), (2,1) and
    # Q = (1,0), (2,2); but the covered (1,2) touches both cells of P and one of Q,
    # so the number it may show later tells the halves apart.
    board = Board.from_rows(["1?3?", "?3??", "???2"], total_mines=5)
    weights = count_position(board)
    assert links(board, weights) == {1: {4, 6}, 4: {1}, 6: {1, 10}, 10: {6}}
    assert closed_chain(board, weights) is None


def test_without_a_mine_total_nothing_is_a_chain():
    board = Board.from_rows(CHAIN_ROWS)
    weights = count_position(board, any_count=True)
    assert closed_chain(board, weights) is None
