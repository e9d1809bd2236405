"""The generator's fast solvability check gives ``is_solvable``'s verdict, layout by layout.

``minesweep_env.generation.generator_check.solvable`` is what the no-guess generator
accepts and rejects with, so any disagreement would change which maps a seed
makes. It is compared with the reference on random layouts of the generator's
own kind (mine-free start zone, the start in a corner or the centre), on layouts
with mines anywhere (start on a mine, start on a number), on every recorded
mine-solver reference map, and on small boards drawn by hypothesis.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import TESTS

from minesweep_env import MineLayout
from minesweep_env.core.cells import neighbour_table
from minesweep_env.generation import elimination, generator_check, is_solvable
from minesweep_env.generation.generator_check import hidden_swap, solvable
from minesweep_env.generation.no_guess import draw_outside_zone
from minesweep_env.solver.base import Proof
from minesweep_env.solver.rules.substitution import _eliminate

OTHER_RULE_SETS = ("endoh", "groups", "mysweeper")
REFERENCE = TESTS / "reference" / "mine_solver"


def _reference(mines: np.ndarray, start: tuple[int, int], rule_set: str) -> bool:
    return bool(is_solvable(MineLayout(mines), start, rule_set))


def _compare(layouts: list[tuple[np.ndarray, tuple[int, int]]], rule_set: str) -> list[bool]:
    """Both verdicts on every layout; returns the reference verdicts."""
    verdicts = []
    for mines, start in layouts:
        expected = _reference(mines, start, rule_set)
        assert solvable(mines, start, rule_set) == expected, (rule_set, start, mines.tolist())
        verdicts.append(expected)
    return verdicts


GENERATOR_CASES = [
    (rule_set, board, start)
    for rule_set in ("substitution", "complete")
    for board, start in [
        ((30, 16, 99), (0, 0)),
        ((30, 16, 99), (15, 8)),
        ((16, 16, 40), (0, 15)),
        ((9, 9, 10), (4, 4)),
    ]
]
# The other rule sets get the swap-pair rejection and then is_solvable itself: one board.
GENERATOR_CASES += [(rule_set, (30, 16, 99), (0, 0)) for rule_set in OTHER_RULE_SETS]


@pytest.mark.parametrize(("rule_set", "board", "start"), GENERATOR_CASES)
def test_same_verdict_on_generator_draws(
    rule_set: str, board: tuple[int, int, int], start: tuple[int, int]
) -> None:
    width, height, mines = board
    rng = np.random.default_rng([width, start[0], start[1]])
    count = 60 if width == 30 else 120
    layouts = [(draw_outside_zone(width, height, mines, start, rng), start) for _ in range(count)]
    verdicts = _compare(layouts, rule_set)
    # Both answers occur, so the comparison could have failed either way.
    assert any(verdicts) and not all(verdicts)


@pytest.mark.parametrize("rule_set", ("substitution", "complete"))
def test_same_verdict_with_mines_anywhere(rule_set: str) -> None:
    """Starts on a mine or on a number, and sparse to dense boards."""
    rng = np.random.default_rng(7)
    layouts = []
    for _ in range(300):
        width, height = int(rng.integers(3, 13)), int(rng.integers(3, 11))
        density = rng.uniform(0.05, 0.3)
        mines = rng.random((height, width)) < density
        layouts.append((mines, (int(rng.integers(width)), int(rng.integers(height)))))
    verdicts = _compare(layouts, rule_set)
    assert sum(verdicts) >= 30 and len(verdicts) - sum(verdicts) >= 30


def test_same_verdict_on_the_seed_004_reference_maps() -> None:
    for name in ("cases.jsonl", "cases_large.jsonl"):
        for line in (REFERENCE / name).read_text().splitlines():
            case = json.loads(line)
            mines = MineLayout.from_rows(case["rows"]).mines
            start = tuple(case["start"])
            assert solvable(mines, start, "substitution") == (case["verdict"] == "solvable")


@settings(max_examples=300, deadline=None)
@given(
    width=st.integers(2, 8),
    height=st.integers(2, 7),
    data=st.data(),
    rule_set=st.sampled_from(("substitution", "complete")),
)
def test_same_verdict_on_small_boards(
    width: int, height: int, data: st.DataObject, rule_set: str
) -> None:
    cells = width * height
    mine_cells = data.draw(st.sets(st.integers(0, cells - 1), max_size=cells // 3))
    mines = np.zeros(cells, dtype=bool)
    mines[list(mine_cells)] = True
    mines = mines.reshape(height, width)
    start = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    assert solvable(mines, start, rule_set) == _reference(mines, start, rule_set)


def _same_numbers_elsewhere(mines: np.ndarray, swap: tuple[list[int], list[int]]) -> bool:
    """Whether every safe cell but the traded ones keeps its number when they trade."""
    height, width = mines.shape
    flat = mines.reshape(-1)
    traded = flat.copy()
    traded[swap[0]] = False
    traded[swap[1]] = True
    table = neighbour_table(width, height)
    return all(
        flat[list(table[cell])].sum() == traded[list(table[cell])].sum()
        for cell in np.flatnonzero(~flat)
        if cell not in swap[1]
    )


def test_a_hidden_swap_trades_mines_and_safe_cells_no_number_tells_apart() -> None:
    rng = np.random.default_rng(3)
    sizes = []
    for _ in range(300):
        start = (0, 0)
        mines = draw_outside_zone(30, 16, 99, start, rng)
        swap = hidden_swap(mines, start)
        if swap is None:
            continue
        gone, come = swap
        sizes.append(len(gone))
        flat = mines.reshape(-1)
        assert len(gone) == len(come) and flat[gone].all() and not flat[come].any()
        assert 0 not in come  # never the start
        assert _same_numbers_elsewhere(mines, swap)
        # Not even exact inference with the mine count solves it.
        assert not is_solvable(MineLayout(mines), start, "complete")
    # Both kinds occur: a mine and a safe cell, and two of each.
    assert sizes.count(1) >= 40 and sizes.count(2) >= 10


def test_a_safe_cell_walled_in_by_mines_trades_with_the_mine_beside_it() -> None:
    rows = [
        "oooooo",
        "oooooo",
        "xxxooo",
        "xoxooo",
        "xxxooo",
    ]
    mines = MineLayout.from_rows(rows).mines
    assert hidden_swap(mines, (5, 0)) is not None
    assert not is_solvable(MineLayout(mines), (5, 0), "complete")
    # From the walled-in cell itself there is nothing hidden: the start is opened anyway.
    assert hidden_swap(mines, (1, 3)) is None


def test_a_lone_safe_cell_trades_with_a_lone_mine_far_away() -> None:
    # (3, 3) is safe with only mines around, (9, 3) a mine with only mines around,
    # and every other mine sees safe cells the others do not (two safe rows and
    # columns around each block: one would pair a mine with the cell beyond it).
    rows = [
        "ooooooooooooo",
        "ooooooooooooo",
        "ooxxxoooxxxoo",
        "ooxoxoooxxxoo",
        "ooxxxoooxxxoo",
        "ooooooooooooo",
        "ooooooooooooo",
    ]
    mines = MineLayout.from_rows(rows).mines
    assert hidden_swap(mines, (5, 6)) == ([3 * 13 + 9], [3 * 13 + 3])
    assert not is_solvable(MineLayout(mines), (5, 6), "complete")


def test_a_2x2_diagonal_walled_in_at_its_corners_is_a_hidden_swap() -> None:
    # Mines at (5, 3) and (6, 4), safe cells at (6, 3) and (5, 4); the block's
    # corners are the mine at (4, 2) and three off the board.
    rows = [
        "ooooooo",
        "ooooooo",
        "ooooxoo",
        "oooooxo",
        "oooooox",
    ]
    mines = MineLayout.from_rows(rows).mines
    swap = hidden_swap(mines, (0, 0))
    assert swap is not None and len(swap[0]) == 2
    assert _same_numbers_elsewhere(mines, swap)
    assert not is_solvable(MineLayout(mines), (0, 0), "complete")


def test_elimination_knowing_the_layout_equals_substitutions_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every group of numbers the fast check eliminates on, on random expert and
    intermediate draws, gets the same proof from the rule set's own step."""
    knowing = elimination.eliminate_knowing
    compared = productive = 0

    def both(group: list, mines_left: int, truth: list[bool]) -> Proof:
        nonlocal compared, productive
        proof = knowing(group, mines_left, truth)
        assert proof == _eliminate(group, mines_left, 30)
        compared += 1
        productive += bool(proof.safe or proof.mines)
        return proof

    monkeypatch.setattr(elimination, "eliminate_knowing", both)
    rng = np.random.default_rng(11)
    for board, start in (((30, 16, 99), (0, 0)), ((16, 16, 40), (8, 8))):
        for _ in range(150):
            mines = draw_outside_zone(*board, start, rng)
            generator_check.solvable(mines, start, "substitution")
    assert compared >= 150 and productive >= 20


@pytest.mark.parametrize("start", [(-1, 0), (0, -1), (9, 0), (0, 9)])
def test_a_start_off_the_board_is_refused_as_is_solvable_refuses_it(
    start: tuple[int, int],
) -> None:
    mines = np.zeros((9, 9), dtype=bool)
    with pytest.raises(ValueError, match="outside"):
        solvable(mines, start)
    with pytest.raises(ValueError, match="outside"):
        is_solvable(MineLayout(mines), start)
