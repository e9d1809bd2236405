"""Every registered rule set against brute-force enumeration.

A rule set is sound when it never proves safe a cell that is a mine in some
layout consistent with the position, nor a mine a cell that is safe in some.
"Consistent" is decided by ``tests/brute_force.py``, a plain enumerator kept
apart from the solver code. ``complete`` must moreover prove exactly the cells
brute force proves. Each check runs with the mine total and without it, on one
``prove`` call and on the :func:`minesweep_env.deduce` fixed point, over
10,000 seeded random positions (made by playing random layouts up to 6x6) and a
hypothesis search that shrinks any counter-example to a small position.
(``complete`` is held to exactness on the fixed point: one ``prove`` call may
return only what its cheap rules find, since the auto-solver calls it again.)
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from brute_force import exact_probabilities
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_position

from minesweep_env import RULE_SETS, Board, Minefield, MineLayout, deduce, get_rule_set
from minesweep_env.core.cells import COVERED, FLAGGED

POSITIONS = 10_000
"""Seeded positions every rule set is checked on (with and without the total)."""

RULE_SET_NAMES = sorted(RULE_SETS)
EXACT = "complete"
"""The rule set that must prove exactly what brute force proves."""

Truth = tuple[frozenset[int], frozenset[int]]


def brute_force_proven(board: Board, total: int | None) -> Truth:
    """Flat indices of covered cells safe in every consistent layout, and mines in every one."""
    count, probabilities = exact_probabilities(board, total)
    assert count > 0, "test positions are consistent by construction"
    flat = board.grid.reshape(-1)
    safe = frozenset(i for i, p in probabilities.items() if p == 0 and flat[i] == COVERED)
    mines = frozenset(i for i, p in probabilities.items() if p == 1)
    return safe, mines


@cache
def seeded_case(seed: int) -> tuple[Board, dict[int | None, Truth]]:
    """Position ``seed`` and its brute-force answer with the total (its key) and without (None)."""
    board, _ = random_position(seed)
    total = board.total_mines
    truth = {key: brute_force_proven(board, key) for key in (None, total)}
    return board, truth


def flat_cells(cells: frozenset[tuple[int, int]], width: int) -> frozenset[int]:
    return frozenset(y * width + x for x, y in cells)


def check(name: str, board: Board, total: int | None, truth: Truth) -> int:
    """Assert soundness (and exactness for ``complete``) of one rule set on one position.

    Returns the cells the :func:`deduce` fixed point proved.
    """
    rule_set = get_rule_set(name)
    position = Board(board.grid.copy(), total)
    flat = board.grid.reshape(-1)
    safe_truth, mine_truth = truth
    where = f"{name} with total={total} on\n" + "\n".join(board.rows())

    proof = rule_set.prove(position.copy())
    assert all(flat[i] == COVERED for i in proof.safe | proof.mines), where
    assert proof.safe <= safe_truth, f"{where}\nproved a mine safe: {proof.safe - safe_truth}"
    assert proof.mines <= mine_truth, (
        f"{where}\nproved a safe cell a mine: {proof.mines - mine_truth}"
    )

    safe_xy, mines_xy = deduce(position, rule_set)
    safe, mines = flat_cells(safe_xy, board.width), flat_cells(mines_xy, board.width)
    assert safe <= safe_truth, f"{where}\ndeduce proved a mine safe: {safe - safe_truth}"
    assert mines <= mine_truth, f"{where}\ndeduce proved a safe cell a mine: {mines - mine_truth}"
    if name == EXACT:
        # One call may stop at what cheap rules find (the auto-solver calls again);
        # the fixed point must be everything brute force proves.
        assert (safe, mines) == (safe_truth, mine_truth), f"{where}\ndeduce is not exact"
    return len(safe) + len(mines)


@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_rule_set_is_sound_on_seeded_positions(name: str) -> None:
    proved = 0
    for seed in range(POSITIONS):
        board, truth = seeded_case(seed)
        for total, answer in truth.items():
            proved += check(name, board, total, answer)
    # A rule set that proves nothing is trivially sound: make sure this one was tested.
    assert proved >= POSITIONS, f"{name} proved only {proved} cells on {POSITIONS} positions"


@st.composite
def played_positions(draw: st.DrawFn) -> tuple[Board, MineLayout]:
    """A random layout up to 6x6, some of its safe cells probed, some mines flagged."""
    width = draw(st.integers(1, 6))
    height = draw(st.integers(1, 6))
    cells = width * height
    mine_cells = draw(st.sets(st.integers(0, cells - 1), max_size=cells - 1))
    mines = np.zeros(cells, dtype=bool)
    mines[list(mine_cells)] = True
    layout = MineLayout(mines.reshape(height, width))
    field = Minefield(layout, first_click="none")
    safe_cells = [i for i in range(cells) if not mines[i]]
    for index in draw(st.lists(st.sampled_from(safe_cells), min_size=1, max_size=len(safe_cells))):
        field.probe(index % width, index // width)
    view = field.view.copy().reshape(-1)
    if mine_cells:
        for index in draw(st.sets(st.sampled_from(sorted(mine_cells)))):
            view[index] = FLAGGED
    return Board(view.reshape(height, width), len(mine_cells)), layout


@pytest.mark.parametrize("name", RULE_SET_NAMES)
@settings(max_examples=150, deadline=None, derandomize=True)
@given(case=played_positions())
def test_rule_set_is_sound_on_shrinkable_positions(
    name: str, case: tuple[Board, MineLayout]
) -> None:
    board, layout = case
    for total in (None, board.total_mines):
        check(name, board, total, brute_force_proven(board, total))


@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_proofs_agree_with_the_layout_in_play(name: str) -> None:
    """Auto-solving real games never opens a mine and every flag it places is on a mine.

    Only safe cells are probed by hand, so a lost game is the solver's doing
    (``Minefield.open_safe`` loses the game on a mine it is told is safe).
    """
    from minesweep_env.core.minefield import GameState, WinRule
    from minesweep_env.solver.autosolve import autosolve

    rule_set = get_rule_set(name)
    rng = np.random.default_rng(5)
    for _ in range(30):
        layout = MineLayout.random(9, 9, 10, rng)
        field = Minefield(layout, first_click="safe", rng=rng, win_rule=WinRule.SAFE_CELLS_OPENED)
        field.probe(4, 4)
        while field.state is GameState.PLAYING:
            autosolve(field, rule_set)
            assert field.state is not GameState.LOST, f"{name} proved a mine safe"
            flagged = field.view == FLAGGED
            assert np.all(field.layout.mines[flagged]), name
            if field.state is not GameState.PLAYING:
                break
            covered = np.flatnonzero(
                (field.view.reshape(-1) == COVERED) & ~field.layout.mines.reshape(-1)
            )
            if covered.size == 0:
                break
            pick = int(rng.choice(covered))
            field.probe(pick % 9, pick // 9)
        assert field.state is GameState.WON, name
