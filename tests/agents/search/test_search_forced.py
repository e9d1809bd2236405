"""Forced guesses of the search agent (pairs, 2x2 boxes, pseudo 50/50s), checked
against brute-force enumeration of every layout of small positions."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import every_layout, shows

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import Minefield
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search.endgame import Endgame, Layouts
from semiautomines_agents.search.forced import forced_guess, forced_twin


def _position(seed: int, box: bool) -> Board:
    """A small position probed nearly to the end: every safe cell open except a few
    (with ``box``, a 2x2 square holding one diagonal of mines stays mostly covered),
    most mines flagged, so walls of mines around covered pairs and boxes are common."""
    rng = np.random.default_rng(seed)
    width, height = int(rng.integers(2, 6)), int(rng.integers(2, 5))
    mines = rng.random((height, width)) < 0.3
    kept: set[int] = set()
    if box:
        x, y = int(rng.integers(0, width - 1)), int(rng.integers(0, height - 1))
        diagonal = bool(rng.integers(2))
        mines[y : y + 2, x : x + 2] = [[diagonal, not diagonal], [not diagonal, diagonal]]
        kept = {(y + i) * width + x + j for i in (0, 1) for j in (0, 1)}
    safe = np.flatnonzero(~mines.reshape(-1))
    kept |= {int(c) for c in rng.permutation(safe)[: int(rng.integers(0, 3))]}
    field = Minefield(MineLayout(mines), first_click="none", rng=rng)
    for cell in safe.tolist():
        if cell not in kept or rng.random() < 0.1:
            field.probe(cell % width, cell // width)
    view = field.view.reshape(-1)
    for cell in np.flatnonzero(mines.reshape(-1)).tolist():
        if cell not in kept and rng.random() < 0.7:
            view[cell] = FLAGGED
    return Board(field.view.copy(), int(mines.sum()))


def _forced_cases(count: int, box: bool) -> list[tuple[Board, int]]:
    """The first ``count`` positions (of the kind above) with a forced guess."""
    found = []
    for seed in range(40 * count):
        board = _position(seed, box)
        if not (board.grid == COVERED).any():
            continue
        cell = forced_guess(board, count_position(board))
        if cell is not None:
            found.append((board, cell))
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} forced positions found")


CASES = _forced_cases(40, box=False) + _forced_cases(40, box=True)


@pytest.mark.parametrize(("board", "cell"), CASES)
def test_a_forced_guess_is_a_coin_flip_no_number_can_ever_settle(board, cell):
    weights = count_position(board)
    found, (p, q) = forced_twin(board, weights)
    assert found == cell and cell in p
    layouts = every_layout(board)
    assert len(layouts) == weights.layouts
    fits = set(layouts)
    with_mine = [layout for layout in layouts if cell in layout]
    assert with_mine, "a forced guess is not a known safe cell"
    for layout in with_mine:
        # A mine on the cell means its half full and the other half empty ...
        assert set(p) <= layout and not set(q) & layout
        # ... and the same layout with the halves swapped fits just as well ...
        twin = (layout - set(p)) | set(q)
        assert twin in fits and cell not in twin
        # ... and no cell outside the pair or box, probed now or later, tells them apart.
        flat = board.grid.reshape(-1)
        for other in range(flat.size):
            if other not in p + q and other not in layout and flat[other] != FLAGGED:
                assert shows(board, layout, other) == shows(board, twin, other)


@pytest.mark.parametrize(("board", "cell"), CASES)
def test_taking_a_forced_guess_first_loses_no_win_probability(board, cell):
    layouts = Layouts(board, limit=100_000)
    endgame = Endgame(layouts)
    _, best = endgame.best_probe()
    taken = endgame.probe_value(layouts.masks, layouts.cells.index(cell))
    assert taken == pytest.approx(best, abs=1e-12)


def test_the_cases_cover_pairs_boxes_and_pseudo_fifty_fifties():
    kinds = set()
    for board, cell in CASES:
        weights = count_position(board)
        _, (p, _) = forced_twin(board, weights)
        exact = 2 * weights.mine_weight[cell] == weights.layouts
        kinds.add(("box" if len(p) == 2 else "pair", exact))
    # A box is taken only as an exact 50/50 (a pseudo box can cost win probability).
    assert kinds == {("pair", True), ("pair", False), ("box", True)}


def test_a_box_with_its_diagonal_corners_flagged_is_forced():
    # One diagonal of the 2x2 box at (1, 1)-(2, 2) holds its two mines; the
    # numbers beside its sides see one of each diagonal, the corners are flags.
    rows = ["!22!", "2??2", "2??2", "!22!"]
    board = Board.from_rows(rows, total_mines=6)
    weights = count_position(board)
    assert weights.layouts == 2
    assert forced_guess(board, weights) == 5
    advice = SearchAgent(endgame_layouts=0).advise(board)
    assert (advice.cell, advice.reason, advice.safety) == (5, "forced", 0.5)


def test_a_box_with_a_corner_that_shows_a_number_is_not_forced():
    # The bottom-right corner is covered but safe: its number sees (2, 2) only,
    # so it tells the two diagonals apart.
    rows = ["!22!", "2??2", "2??1", "!21?"]
    board = Board.from_rows(rows, total_mines=5)
    weights = count_position(board)
    assert weights.layouts == 2 and weights.mine_weight[15] == 0
    assert forced_guess(board, weights) is None


def test_a_pair_beside_a_known_but_unflagged_mine_is_forced():
    # (0, 2) is a mine in every layout (the 3 needs it), though not flagged.
    board = Board.from_rows(["?10", "?31", "?!1"], total_mines=3)
    weights = count_position(board)
    assert weights.mine_weight[6] == weights.layouts
    assert forced_guess(board, weights) == 0


def test_a_pseudo_fifty_fifty_is_taken_though_the_pair_may_be_empty():
    # (0, 0) and (1, 0) in the corner; the numbers below see both, the cells
    # beside them are flags. The 1 and the 3 need one mine among the pair,
    # (0, 2) and (1, 2): the pair holds one mine or none, and nothing outside
    # it can ever tell which of the two cells it would be.
    board = Board.from_rows(["??!", "13!", "???"], total_mines=3)
    weights = count_position(board)
    assert (weights.layouts, weights.mine_weight[0], weights.mine_weight[1]) == (4, 1, 1)
    assert forced_guess(board, weights) == 0


def test_a_pseudo_box_is_not_taken_where_the_exact_endgame_would_lose_by_it():
    # The box (0, 1)-(1, 2) may hold either diagonal or (1, 2) alone (with (0, 0)):
    # probing (0, 1), safe unless the first diagonal, shows the same number in the
    # two other layouts and leaves a 50/50; probing (0, 2) tells all three apart.
    board = Board.from_rows(["?3!31", "??!4!", "??3?2"], total_mines=6)
    weights = count_position(board)
    assert weights.layouts == 3 and forced_guess(board, weights) is None
    layouts = Layouts(board, limit=10)
    endgame = Endgame(layouts)
    assert endgame.best_probe()[1] == pytest.approx(2 / 3)
    assert endgame.probe_value(layouts.masks, layouts.cells.index(5)) == pytest.approx(1 / 3)


def test_a_pair_whose_wall_is_mined_only_with_it_is_not_taken_the_endgame_loses_by_it():
    # The pair (1, 1)-(1, 2): wherever (1, 1) holds a mine, (1, 2) is safe and the
    # undecided (0, 0) and (1, 0), the only cells that touch (1, 1) and not (1, 2)
    # besides the flag, are mines too: JSMinesweeper takes that as a pseudo 50/50.
    # Its wall is not known, though, and other layouts leave it open: probing
    # (1, 1) keeps a quarter of the layouts, (1, 2) at the same risk keeps half.
    board = Board.from_rows(["??!", "???", "1?1"], total_mines=4)
    weights = count_position(board)
    assert weights.layouts == 4 and forced_guess(board, weights) is None
    trial = board.copy()
    trial.grid[1, 1] = FLAGGED
    with_mine = count_position(trial)
    assert with_mine.layouts == weights.mine_weight[4] == 1
    assert with_mine.mine_weight[0] == with_mine.mine_weight[1] == 1
    assert with_mine.mine_weight[7] == 0
    layouts = Layouts(board, limit=10)
    endgame = Endgame(layouts)
    assert endgame.best_probe() == (7, pytest.approx(1 / 2))
    assert endgame.probe_value(layouts.masks, layouts.cells.index(4)) == pytest.approx(1 / 4)
