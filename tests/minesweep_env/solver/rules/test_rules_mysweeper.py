"""The MySweeper 1.08 rules, each on a position that shows it.

MySweeper's pictures did not survive in its description, so each position is rebuilt
from the rule's prose; every one is checked to be a real position (some layout
fits it) before the rule set is asked about it.
"""

from __future__ import annotations

from brute_force import exact_probabilities

from minesweep_env import Board, deduce, get_rule_set


def proven(rows: list[str], rule_set: str = "mysweeper", total: int | None = None):
    """(safe, mines) as sets of (x, y) from one ``prove`` call on a checked position."""
    board = Board.from_rows(rows, total)
    layouts, _ = exact_probabilities(board, total)
    assert layouts > 0, f"not a real position: {rows}"
    proof = get_rule_set(rule_set).prove(board)
    width = board.width
    return (
        {(i % width, i // width) for i in proof.safe},
        {(i % width, i // width) for i in proof.mines},
    )


def test_rule_1_a_number_with_all_its_mines_flagged_clears_the_rest() -> None:
    safe, mines = proven(["!1?", "???"])
    assert safe == {(2, 0), (0, 1), (1, 1), (2, 1)}
    assert mines == set()


def test_rule_1_needs_the_flag() -> None:
    assert proven(["?1?", "???"]) == (set(), set())


def test_rule_2_a_number_with_as_many_unexposed_cells_as_mines_left_flags_them() -> None:
    safe, mines = proven(["111", "1?1", "111"])
    assert (safe, mines) == (set(), {(1, 1)})


def test_rule_2_counts_flags_as_found_mines() -> None:
    safe, mines = proven(["?5?", "!!!"])
    assert (safe, mines) == (set(), {(0, 0), (2, 0)})


def test_rule_3_same_mines_left_on_a_subset_clears_the_difference() -> None:
    # (0, 1) needs 1 mine in {(0,0), (1,0)}; (1, 1) needs 1 in a superset of it.
    safe, mines = proven(["????", "11??"])
    assert (safe, mines) == ({(2, 0), (2, 1)}, set())


def test_rule_4_the_difference_of_mines_left_fills_the_difference_of_cells() -> None:
    # #1 = (1, 1): 1 mine left in {(0,0), (1,0), (2,0)}; #2 = (2, 1): 2 in {(1,0), (2,0), (3,0)}.
    safe, mines = proven(["????", "!23!"])
    assert (safe, mines) == ({(0, 0)}, {(3, 0)})


def test_rule_4_needs_fewer_mines_left_than_common_cells() -> None:
    # #1 = (1, 1) has 2 mines left and shares exactly 2 cells with #2 = (3, 1):
    # REST1 == #(R1 & R2), so rule 4 stays silent in this pass; rule 2 on #2
    # flags its three cells, and the next pass (rule 1 on #1) clears the rest.
    rows = ["????", "?2?3"]
    assert proven(rows) == (set(), {(2, 0), (3, 0), (2, 1)})
    safe, mines = deduce(Board.from_rows(rows), "mysweeper")
    assert (safe, mines) == ({(0, 0), (1, 0), (0, 1)}, {(2, 0), (3, 0), (2, 1)})


def test_one_level_per_pass_and_deduce_chains_the_passes() -> None:
    # (0,0) flags (1,0); with (1,0) as R1, (2,0) clears (3,0) in the same pass
    # (rule 3), but (4,0) can only place its mine once (3,0) is known safe.
    rows = ["1?1?1??"]
    assert proven(rows) == ({(3, 0)}, {(1, 0)})
    assert deduce(Board.from_rows(rows), "mysweeper") == ({(3, 0)}, {(1, 0), (5, 0)})


def test_no_global_mine_count() -> None:
    # One mine in all: it is next to the 1, so (3, 0) is safe, but only by the count.
    assert proven(["?1??"], total=1) == (set(), set())
    assert proven(["?1??"], rule_set="complete", total=1) == ({(3, 0)}, set())
