"""Depth 3 with the depth-2 default's valuation (agents/search/lookahead.py's
``deep_secondary``): the compiled middle level
(``lookahead_compiled.secondary_survival_of``) against the Python look-ahead, its parts
(the secondary safety, the 50/50 potential) against the Python ones, the Python middle
level against a direct computation from the position's outcomes, and the agent's
choice alike with and without the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from test_search_lookahead_kernel import _positions, _undecided

from minesweep_env import Board, compiled
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search import lookahead
from semiautomines_agents.search.lookahead import (
    Outcome,
    assess,
    next_guess_value,
    outcomes,
)
from semiautomines_agents.search.lookahead_compiled import secondary_survival_of
from semiautomines_agents.search.potential import potential


def _kernel(board: Board, ranked: list[tuple[int, int]], layouts: int, fifty: float) -> float:
    """The kernel's best over ``ranked`` (one cell: its value, never skipped)."""
    assert compiled.ready()
    cells = np.array([c for _, c in ranked], np.int64)
    safeties = np.array([1.0 - w / layouts for w, _ in ranked])
    grid = np.array(board.grid, np.int8, order="C")
    value = secondary_survival_of(grid, int(board.total_mines), cells, safeties, fifty)
    assert np.array_equal(grid, board.grid)  # put back as it was
    return float(value)


def _direct(board: Board, cell: int, fifty: float) -> float:
    """One cell's middle-level value computed from its outcomes directly: the sum of
    (layouts showing each number / the position's layouts) x that position's secondary
    safety, times ``1 + fifty * potential / safe layouts``; -1 for a dead cell."""
    weights = count_position(board)
    found = outcomes(board, cell)
    mine = weights.mine_weight[cell] or 0
    if len(found) == 1 and mine:
        return -1.0
    value = sum(o.weights.layouts * o.secondary_safety() for o in found) / weights.layouts
    safe = weights.layouts - mine
    return value * (1.0 + fifty * potential(board, weights, cell) / safe)


@pytest.mark.parametrize("fifty", [0.0, 0.9])
@pytest.mark.parametrize("board", _positions(30))
def test_each_cells_compiled_value_is_the_direct_one(board, fifty):
    weights = count_position(board)
    for weight, cell in _undecided(board)[:6]:
        compiled = _kernel(board, [(weight, cell)], weights.layouts, fifty)
        assert compiled == pytest.approx(_direct(board, cell, fifty), abs=1e-10)


@pytest.mark.parametrize("board", _positions(30))
def test_the_kernels_potential_counts_shapes(board):
    """With a large weight the factor dominates: the compiled values match the direct
    ones only if every shape's tally is the Python one (a wrong tally shows ~fifty x)."""
    weights = count_position(board)
    for weight, cell in _undecided(board)[:8]:
        compiled = _kernel(board, [(weight, cell)], weights.layouts, 50.0)
        assert compiled == pytest.approx(_direct(board, cell, 50.0), rel=1e-9)


def test_some_positions_have_potential():
    """The factor is exercised: some of the test positions' cells have a 50/50 potential."""
    found = 0
    for board in _positions(30):
        weights = count_position(board)
        found += sum(potential(board, weights, c) > 0 for _, c in _undecided(board)[:8])
    assert found >= 5


@pytest.mark.parametrize("board", _positions(30))
def test_the_best_value_skips_only_cells_that_cannot_beat_it(board):
    weights = count_position(board)
    ranked = _undecided(board)
    direct = [v for _, c in ranked if (v := _direct(board, c, 0.9)) >= 0]
    expected = max(direct) if direct else -1.0
    assert _kernel(board, ranked, weights.layouts, 0.9) == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("board", _positions(30))
def test_the_python_middle_level_is_the_direct_one(board):
    """``next_guess_value`` (exact counts) is the best direct value of the living
    cells it weighs, or the secondary safety when all are dead."""
    weights = count_position(board)
    outcome = Outcome(-1, board, weights)
    chosen = outcome.next_guesses(4)
    exact = next_guess_value(outcome, 2, None, (4,), fast=False, fifty=0.9)
    direct = [v for _, c in chosen if (v := _direct(board, c, 0.9)) >= 0]
    expected = max(direct) if direct else outcome.secondary_safety()
    assert exact == pytest.approx(expected, abs=1e-12)
    fast = next_guess_value(outcome, 2, None, (4,), fast=True, fifty=0.9)
    assert fast == pytest.approx(exact, abs=1e-10)


def test_secondary_safety_of_a_hand_position():
    """A 3x3 corner with two mines: every cell's compiled value is the direct one."""
    board = Board.from_rows(["1??", "???", "???"], 2)
    weights = count_position(board)
    for weight, cell in _undecided(board):
        compiled = _kernel(board, [(weight, cell)], weights.layouts, 0.0)
        assert compiled == pytest.approx(_direct(board, cell, 0.0), abs=1e-12)


@pytest.mark.parametrize("board", _positions(20))
def test_depth_three_keeps_the_depth_two_value_where_no_guess_follows(board):
    """An outcome with a living safe cell is valued as at depth 2; only outcomes where
    the player must guess are valued lower (one more guess to survive)."""
    weights = count_position(board)
    for _, cell in _undecided(board)[:4]:
        two = assess(board, weights, cell, 2, secondary=True)
        three = assess(board, weights, cell, 3, secondary=True, deep_secondary=True)
        assert three.survival <= two.survival + 1e-12
        assert three.expected_clears == pytest.approx(two.expected_clears)
        if not any(o.must_guess for o in outcomes(board, cell)):
            assert three.survival == pytest.approx(two.survival, abs=1e-12)


def test_next_guesses_are_living_and_at_most_one_off_the_frontier():
    board = Board.from_rows(["1?????", "??????", "??????", "??????"], 5)
    outcome = Outcome(-1, board, count_position(board))
    chosen = outcome.next_guesses(4)
    assert len(chosen) == 4
    far = {c for _, c in chosen if c not in (1, 6, 7)}  # the frontier of the "1"
    assert len(far) <= 1


def test_depth_three_decides_alike_with_and_without_the_kernel(monkeypatch):
    """Settled (near ties weighed on exact counts), the same cell on every position;
    unsettled, the compiled values decide and may differ only on near ties."""
    boards = _positions(40)
    settled = [SearchAgent(depth=3, settle=1, endgame_layouts=0).advise(b) for b in boards]
    unsettled = [SearchAgent(depth=3, settle=0, endgame_layouts=0).advise(b) for b in boards]
    monkeypatch.setattr(lookahead, "compiled_secondary", lambda *args: None)
    exact = [SearchAgent(depth=3, settle=1, endgame_layouts=0).advise(b) for b in boards]
    assert [(a.cell, a.reason) for a in settled] == [(a.cell, a.reason) for a in exact]
    assert sum(a.reason == "search" for a in settled) >= 15
    same = sum(a.cell == b.cell for a, b in zip(unsettled, exact, strict=True))
    assert same >= len(boards) - 2


def test_depth_three_is_deterministic_and_differs_from_plain_depth_three():
    boards = _positions(40)
    first = [SearchAgent(depth=3, endgame_layouts=0).advise(b).cell for b in boards]
    again = [SearchAgent(depth=3, endgame_layouts=0).advise(b).cell for b in boards]
    plain = [
        SearchAgent(depth=3, deep_secondary=0, endgame_layouts=0).advise(b).cell for b in boards
    ]
    assert first == again
    assert first != plain


def test_a_wide_deep_gap_is_depth_three_and_a_narrow_one_keeps_depth_twos_best():
    """``deep_gap``: with every candidate close, depth 3 chooses as it does alone; with
    a gap, the choice is among the depth-2 candidates within it of the best."""
    boards = _positions(30)
    three = [SearchAgent(depth=3, endgame_layouts=0).advise(b).cell for b in boards]
    wide = [SearchAgent(depth=3, deep_gap=1e9, endgame_layouts=0).advise(b).cell for b in boards]
    assert wide == three
    two = SearchAgent(depth=2, endgame_layouts=0)
    narrow = SearchAgent(depth=3, deep_gap=0.01, endgame_layouts=0)
    changed = 0
    for board in boards:
        advice = narrow.advise(board)
        if advice.reason != "search":
            continue
        scores = {a.cell: two.score(a) for a in advice.candidates}  # depth-2 assessments
        best = max(scores.values())
        assert scores[advice.cell] >= best - 0.01 * abs(best) - 1e-12
        changed += advice.cell != two.advise(board).cell
    assert changed < len(boards)
