"""petersohn/mine-solver's steps, on its own examples and on positions made for them."""

from __future__ import annotations

from brute_force import exact_probabilities

from minesweep_env import Board, deduce, get_rule_set
from minesweep_env.solver.rules.number_constraints import number_constraints
from minesweep_env.solver.rules.substitution import consistent_substitutions

SEED_COLUMN = ["01?", "02?", "02?", "01?"]
"""The tool's eliminate example: column 1 is problematic, column 2 covered."""


def real(rows: list[str], total: int | None = None) -> Board:
    board = Board.from_rows(rows, total)
    assert exact_probabilities(board, total)[0] > 0, f"not a real position: {rows}"
    return board


def proven(rows: list[str], total: int | None = None, rule_set: str = "substitution"):
    board = real(rows, total)
    proof = get_rule_set(rule_set).prove(board)
    w = board.width
    return {(i % w, i // w) for i in proof.safe}, {(i % w, i // w) for i in proof.mines}


def test_neighbours_example() -> None:
    # The seed: neighbors({1, 0}) returns (2, [{2, 0}, {1, 1}, {2, 1}]).
    board = real(["!3?", "2??", "1??"])
    by_cell = {c.cell: c for c in number_constraints(board)}
    three = by_cell[1]
    assert three.need == 2
    assert three.unknown == (2, 4, 5)  # (2, 0), (1, 1), (2, 1)


def test_seed_column_substitutions_of_cell_1_1() -> None:
    board = real(SEED_COLUMN)
    found = consistent_substitutions(board, (1, 1))
    # [{2,0}, {2,1}] gives cell {1,0} two mines for its 1: inconsistent.
    assert frozenset({(2, 0), (2, 1)}) not in found
    assert found, "the true layout's substitution must pass"
    assert all((2, 2) in substitution for substitution in found)


def test_seed_column_cell_2_2_is_a_mine_and_deduce_solves_the_column() -> None:
    board = real(SEED_COLUMN)
    safe, mines = proven(SEED_COLUMN)
    assert (2, 2) in mines
    assert deduce(board, "substitution") == ({(2, 0), (2, 3)}, {(2, 1), (2, 2)})


def test_grind_comes_first() -> None:
    # A 1 with one covered neighbour: grind flags it, eliminate is not needed.
    assert proven(["1?", "11"]) == (set(), {(1, 0)})


def test_total_mines_upper_bound_in_the_consistency_check() -> None:
    # With one mine in all, (0,0) as the 1's mine forces another at (4,0): too many.
    rows = ["?1?1?"]
    assert proven(rows, total=1) == ({(0, 0), (4, 0)}, {(2, 0)})
    assert proven(rows) == (set(), set())


def test_no_lower_bound_check_as_in_the_tool() -> None:
    # Three mines in all: (0,0) or (2,0) holds one, so (3,0) and (4,0) must hold
    # two. Only a too-few-mines check finds that; the tool has none, and
    # the frontier is not empty, so its end game does not run either.
    assert proven(["?1???"], total=3) == (set(), set())
    assert proven(["?1???"], total=3, rule_set="complete") == (set(), {(3, 0), (4, 0)})


def test_end_game_all_mines_when_covered_cells_equal_mines_left() -> None:
    # (0,0) touches no number; the frontier is settled.
    rows = ["?!2", "!!2"]
    assert proven(rows, total=4) == (set(), {(0, 0)})


def test_end_game_all_safe_when_no_mines_are_left() -> None:
    assert proven(["?!2", "!!2"], total=3) == ({(0, 0)}, set())


def test_end_game_needs_the_total() -> None:
    assert proven(["?!2", "!!2"]) == (set(), set())


def test_unreachable_part_stays_covered() -> None:
    # Two cells no number touches, one mine left for them: the tool gives up.
    board = real(["??!2", "!!!2"], total=5)
    assert deduce(board, "substitution") == (frozenset(), frozenset())
