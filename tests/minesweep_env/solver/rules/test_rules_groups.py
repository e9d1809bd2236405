"""The "Mines" tool's group algorithm: its worked examples, then board positions.

The tool writes groups as (cells, mines) with cells numbered 1..8; the
examples below use those numbers as cell labels. Its figures 1 and 2 did not
survive in the text; the positions for them are rebuilt from their captions.
"""

from __future__ import annotations

import pytest
from brute_force import exact_probabilities

from minesweep_env import Board, InconsistentBoardError, deduce, get_rule_set
from minesweep_env.solver.rules.groups import simplify_groups


def groups(*pairs: tuple[str, int]) -> set[tuple[frozenset[int], int]]:
    """Groups written as in the tool: ("5678", 2) is cells 5, 6, 7, 8 with 2 mines."""
    return {(frozenset(int(c) for c in cells), mines) for cells, mines in pairs}


def simplified(*pairs: tuple[str, int]) -> set[tuple[frozenset[int], int]]:
    return set(simplify_groups(groups(*pairs)))


def test_equal_groups_keep_one() -> None:
    assert simplify_groups([({1, 2}, 1), ({2, 1}, 1)]) == [(frozenset({1, 2}), 1)]


def test_subset_subtraction_5678_2_and_5_1() -> None:
    assert simplified(("5678", 2), ("5", 1)) == groups(("678", 1), ("5", 1))


def test_subset_subtraction_2345_3_and_5_1() -> None:
    assert simplified(("2345", 3), ("5", 1)) == groups(("234", 2), ("5", 1))


def test_intersection_234_2_and_123_1() -> None:
    assert simplified(("234", 2), ("123", 1)) == groups(("1", 0), ("23", 1), ("4", 1))


def test_intersection_left_alone_when_the_bounds_differ() -> None:
    # The overlap 23 holds at least 2 - #(45) = 0 mines and at most 1: not pinned.
    assert simplified(("2345", 2), ("123", 1)) == groups(("2345", 2), ("123", 1))


def test_repeated_until_nothing_changes() -> None:
    # (678, 1) from the first step, minus (67, 1): cell 8 is safe.
    assert simplified(("5678", 2), ("5", 1), ("67", 1)) == groups(("5", 1), ("67", 1), ("8", 0))


def test_contradicting_groups_are_reported() -> None:
    with pytest.raises(InconsistentBoardError):
        simplify_groups([({1, 2}, 1), ({1, 2}, 2)])


def proven(rows: list[str]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    board = Board.from_rows(rows)
    assert exact_probabilities(board, None)[0] > 0, f"not a real position: {rows}"
    proof = get_rule_set("groups").prove(board)
    w = board.width
    return {(i % w, i // w) for i in proof.safe}, {(i % w, i // w) for i in proof.mines}


def test_figure_1_one_mine_located() -> None:
    # The 1 in the corner has one covered neighbour: it is the mine.
    assert proven(["1?", "11"]) == (set(), {(1, 0)})


def test_figure_2_with_that_mine_known_the_bottom_cells_are_safe() -> None:
    # The groups of (0,1) and (1,1) are {(1,0)} + the bottom row with 1 mine;
    # subtracting the corner's group {(1,0)}: 1 leaves the bottom row with none.
    assert proven(["1?", "11", "??"]) == ({(0, 2), (1, 2)}, {(1, 0)})


def test_intersection_on_a_board() -> None:
    # (1,1) needs 1 in cells x=0..2 of the top row, (2,1) needs 2 in x=1..3:
    # the tool's (123, 1) and (234, 2).
    assert proven(["????", "!23!"]) == ({(0, 0)}, {(3, 0)})


def test_subset_chain_on_a_board() -> None:
    # Column 0 beside 1, 1, 1: {a, b} and {b, c} inside {a, b, c}, all with 1 mine.
    assert proven(["?1", "?1", "?1"]) == ({(0, 0), (0, 2)}, {(0, 1)})


def test_no_global_mine_count() -> None:
    board = Board.from_rows(["?1??"], total_mines=1)
    assert deduce(board, "groups") == (frozenset(), frozenset())
