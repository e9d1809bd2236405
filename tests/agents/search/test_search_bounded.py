"""The agent's own moves stop counting a candidate once it cannot win: the same cell as
the advice that weighs every candidate whole, on real expert and intermediate games.
Also the greedy ranking on whole arrays against the plain tuple sort, and the count
remembered per position against a fresh one."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.greedy import neighbour_counts, zero_chance
from semiautomines_agents.search.candidates import rank
from semiautomines_agents.search.lookahead import assess, assess_above

BOARDS = {"expert": (30, 16, 99), "intermediate": (16, 16, 40)}


def _guesses(board_name: str, games: int) -> list[tuple[Board, np.ndarray]]:
    """The positions where ``search`` had to weigh candidates, over ``games`` games."""
    width, height, mines = BOARDS[board_name]
    env = gym.make("SemiAutoMines-v0", width=width, height=height, mines=mines)
    agent = SearchAgent()
    found = []
    for seed in range(games):
        _, info = env.reset(seed=seed)
        game = env.unwrapped.game
        for _ in range(width * height):
            mask = np.asarray(info["action_mask"], bool)
            board = game.minefield.board()
            advice = agent.advise(board, mask.reshape(-1), every=False)
            if advice.reason == "search":
                found.append((board, mask.reshape(-1)))
            _, _, terminated, truncated, info = env.step(advice.cell)
            if terminated or truncated:
                break
    env.close()
    return found


POSITIONS = _guesses("expert", 12) + _guesses("intermediate", 12)


def test_the_positions_are_many_and_some_candidates_are_cut():
    agent = SearchAgent()
    assert len(POSITIONS) >= 40
    cut = 0
    for board, valid in POSITIONS:
        full = agent.advise(board, valid)
        bounded = agent.advise(board, valid, every=False)
        cut += len(full.candidates) - len(bounded.candidates)
    assert cut > 0, "no candidate was ever cut: the bound is not being used"


@pytest.mark.parametrize("case", range(len(POSITIONS)))
def test_the_bounded_search_chooses_the_cell_of_the_full_one(case):
    board, valid = POSITIONS[case]
    agent = SearchAgent()
    full = agent.advise(board, valid)
    bounded = agent.advise(board, valid, every=False)
    assert bounded.cell == full.cell
    assert bounded.reason == full.reason == "search"
    # The candidates counted whole are the full search's own figures, to the bit.
    by_cell = {a.cell: a for a in full.candidates}
    for assessment in bounded.candidates:
        assert assessment == by_cell[assessment.cell]


@pytest.mark.parametrize("case", range(0, len(POSITIONS), 4))
def test_assess_above_is_assess_or_gives_up_only_below_the_cutoff(case):
    board, valid = POSITIONS[case]
    weights = count_position(board, any_count=True)
    cells = [c for c in np.flatnonzero(valid).tolist() if weights.mine_weight.get(c)][:6]
    for cell in cells:
        whole = assess(board, weights, cell, 2, secondary=True)
        for cutoff in (-1.0, whole.survival - 1e-6, whole.survival + 1e-6, 2.0):
            found = assess_above(board, weights, cell, cutoff)
            if found is None:
                assert whole.survival < cutoff
            else:
                assert found == whole
        assert assess_above(board, weights, cell, -1.0) == whole


def _reference_rank(view: np.ndarray, weights, cells: list[int]) -> list[int]:
    """The greedy order as a plain sort of tuples (exact weights, then rounded zero
    chance, fewest neighbours, lowest index)."""
    height, width = view.shape
    probabilities = np.full(width * height, np.nan)
    for index, weight in weights.mine_weight.items():
        if weight is not None:
            probabilities[index] = weight / weights.layouts
    zero = zero_chance(view, probabilities.reshape(height, width)).reshape(-1)
    neighbours = neighbour_counts(height, width).reshape(-1)

    def key(cell: int) -> tuple:
        weight = weights.mine_weight.get(cell)
        return (weight is None, weight or 0, -round(float(zero[cell]), 12), neighbours[cell], cell)

    return sorted(cells, key=key)


@pytest.mark.parametrize("case", range(0, len(POSITIONS), 3))
def test_rank_is_the_plain_sort_of_the_greedy_keys(case):
    board, _ = POSITIONS[case]
    weights = count_position(board, any_count=True)
    covered = np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()
    assert rank(board.grid, weights, covered) == _reference_rank(board.grid, weights, covered)
    # Cells with no weight (none known) rank last, in the same order as the sort.
    partial = type(weights)(
        weights.layouts,
        {c: w for c, w in weights.mine_weight.items() if c % 3},
        weights.component_sizes,
        weights.mines_left,
    )
    assert rank(board.grid, partial, covered) == _reference_rank(board.grid, partial, covered)


def test_a_remembered_count_is_a_fresh_one_and_cannot_be_changed():
    from semiautomines_agents.float_weights import _count_grid, exact_groups, exact_layouts

    board, _ = POSITIONS[0]
    _count_grid.cache_clear()
    first = exact_groups(board)
    assert first is not None
    again = exact_groups(board.copy())
    assert _count_grid.cache_info().hits >= 1
    assert again is not None and again.layouts == first.layouts
    assert again.values == first.values and np.array_equal(again.groups, first.groups)
    assert exact_layouts(board) == first.layouts == count_position(board).layouts
    with pytest.raises(ValueError):
        first.groups[0] = 0
    # A changed board is another position: it is counted, not read from memory.
    changed = board.copy()
    cell = int(np.flatnonzero(changed.grid.reshape(-1) == COVERED)[0])
    changed.grid.reshape(-1)[cell] = 0
    layouts = exact_layouts(changed)
    try:
        expected: int | None = count_position(changed).layouts
    except InconsistentBoardError:  # no layout fits: the compiled count says so too
        expected = None
    assert layouts == expected
