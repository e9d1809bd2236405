"""One contradiction, one message: every rule set that checks numbers reports it alike.

The Endoh rule sets copy the IOCCC program, which never checks a position: on
a contradicted number they prove what their rule says, as the program would.
"""

from __future__ import annotations

import pytest

from minesweep_env import RULE_SETS, Board, get_rule_set, mine_probabilities
from minesweep_env.errors import InconsistentBoardError

UNCHECKED = {"endoh", "endoh-alt"}
"""Rule sets that, like the program they copy, never check a position."""

CONTRADICTED = [
    # A 1 with two flags around it.
    (["!1?", "!??"], "1 has 2 flags around it", (1, 0)),
    # A 3 with only two cells around it that can be mines.
    (["3?", "?1"], "3 has only 2 cells around it that can be mines", (0, 0)),
]


@pytest.mark.parametrize("rows, message, cell", CONTRADICTED)
@pytest.mark.parametrize("name", sorted(set(RULE_SETS) - UNCHECKED))
def test_every_rule_set_reports_one_message(name: str, rows, message: str, cell) -> None:
    with pytest.raises(InconsistentBoardError) as caught:
        get_rule_set(name).prove(Board.from_rows(rows))
    assert caught.value.cell == cell
    assert message in str(caught.value)


@pytest.mark.parametrize("rows, message, cell", CONTRADICTED)
def test_the_probability_engine_reports_it_alike(rows, message: str, cell) -> None:
    with pytest.raises(InconsistentBoardError, match=message):
        mine_probabilities(Board.from_rows(rows))


def test_the_unchecked_rule_sets_are_registered() -> None:
    assert set(RULE_SETS) >= UNCHECKED
