"""The compiled look-ahead (agents/search/lookahead_compiled.py) weighs a position's
two-move survival as the Python look-ahead does, and search at depth 3 decides alike
with it and without it (near ties settled on exact counts)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from positions import random_position

from minesweep_env import Board, compiled
from minesweep_env.core.cells import COVERED
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import Minefield
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search import agent as search_agent
from semiautomines_agents.search import lookahead
from semiautomines_agents.search.lookahead import Outcome, assess, best_survival
from semiautomines_agents.search.lookahead_compiled import best_survival_of


def _undecided(board: Board) -> list[tuple[int, int]]:
    """(mine weight, cell) of the covered cells neither safe nor a mine in every layout,
    safest first (the order the look-ahead ranks a position's next guesses in)."""
    weights = count_position(board)
    flat = board.grid.reshape(-1)
    return sorted(
        (w, c)
        for c, w in weights.mine_weight.items()
        if w is not None and flat[c] == COVERED and 0 < w < weights.layouts
    )


def _opened(seed: int, width: int, height: int, mines: int) -> Board:
    """A position of a random layout with a few random safe cells probed (floods
    included): several frontier pieces, as in the middle of a game."""
    rng = np.random.default_rng(seed)
    layout = MineLayout.random(width, height, mines, rng)
    field = Minefield(layout, first_click="none", rng=rng)
    safe = np.flatnonzero(~layout.mines.reshape(-1))
    for index in rng.permutation(safe)[: int(rng.integers(2, 9))]:
        field.probe(int(index) % width, int(index) // width)
    return Board(field.view.copy(), mines)


def _must_guess(board: Board) -> bool:
    weights = count_position(board)
    flat = board.grid.reshape(-1)
    covered = [c for c in range(flat.size) if flat[c] == COVERED]
    return bool(covered) and not any(weights.mine_weight.get(c) == 0 for c in covered) and any(
        weights.mine_weight.get(c) != weights.layouts for c in covered
    )


@cache
def _positions(count: int) -> tuple[Board, ...]:
    """Small random positions and intermediate-sized ones where the player must guess
    (no covered cell is safe in every layout: the positions the look-ahead weighs)."""
    found: list[Board] = []
    for seed in range(40 * count):
        if seed % 2:
            board, _ = random_position(seed, max_side=7, flag_share=0.3)
        else:
            board = _opened(seed, 16, 16, 40)
        if len(_undecided(board)) >= 2 and _must_guess(board):
            found.append(board)
        if len(found) == count:
            return tuple(found)
    raise AssertionError(f"only {len(found)} positions fit")


def _kernel(board: Board, ranked: list[tuple[int, int]], safeties: list[float]) -> float:
    assert compiled.ready()  # tests load the compiled path (conftest)
    cells = np.array([c for _, c in ranked], np.int64)
    grid = np.array(board.grid, np.int8, order="C")
    value = best_survival_of(grid, int(board.total_mines), cells, np.array(safeties))
    assert np.array_equal(grid, board.grid)  # put back as it was
    return float(value)


@pytest.mark.parametrize("board", _positions(30))
def test_each_cells_compiled_survival_is_the_python_look_aheads(board):
    weights = count_position(board)
    for weight, cell in _undecided(board)[:6]:
        python = assess(board, weights, cell, 2).survival
        compiled = _kernel(board, [(weight, cell)], [2.0])  # a safety no survival reaches
        assert compiled == pytest.approx(python, abs=1e-10)


@pytest.mark.parametrize("board", _positions(30))
def test_the_best_survival_skips_only_cells_that_cannot_beat_it(board):
    """Cells no safer than the best survival found are skipped: the best is the same."""
    weights = count_position(board)
    ranked = _undecided(board)
    outcome = Outcome(-1, board, weights)
    python = best_survival(outcome, 2, None, (len(ranked),))
    safeties = [1.0 - w / weights.layouts for w, _ in ranked]
    assert _kernel(board, ranked, safeties) == pytest.approx(python, abs=1e-10)
    fast = best_survival(outcome, 2, None, (len(ranked),), fast=True)
    assert fast == pytest.approx(python, abs=1e-10)


def test_the_kernel_is_not_asked_without_a_mine_total():
    board = Board.from_rows(["1??", "???", "???"])
    ranked = [(1, 1), (1, 3)]
    assert lookahead.compiled_survival(board, ranked, 3) is None


def test_depth_three_decides_alike_with_and_without_the_kernel(monkeypatch):
    """Plain depth 3 (``deep_secondary=0``): the same cell and reason on every position;
    some positions have candidates within the settling gap (near ties), so the exact settling is
    exercised too."""
    boards = _positions(60)
    settled = []
    settle = search_agent.SearchAgent._settle

    def counting(self, board, weights, assessed, best, score):
        close = [a for a in assessed if score(a) >= best - search_agent.SETTLE_GAP]
        settled.append(len(close) > 1)
        return settle(self, board, weights, assessed, best, score)

    monkeypatch.setattr(search_agent.SearchAgent, "_settle", counting)
    fast = [SearchAgent(depth=3, deep_secondary=0, endgame_layouts=0).advise(b) for b in boards]
    monkeypatch.setattr(lookahead, "compiled_survival", lambda *args: None)
    exact = [SearchAgent(depth=3, deep_secondary=0, endgame_layouts=0).advise(b) for b in boards]
    assert [(a.cell, a.reason) for a in fast] == [(a.cell, a.reason) for a in exact]
    assert sum(a.reason == "search" for a in fast) >= 20
    assert any(settled) and not all(settled)
