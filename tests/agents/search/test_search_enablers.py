"""The search agent's enabler and tie-order settings: the whole-board scan of would-be twins and
their enablers (``enablers``, ``influenced``, :func:`semiautomines_agents.search.potential.scan`)
checked against every layout of small positions, and the tie-break by expected living
clears (``tie_clears``)."""

from __future__ import annotations

import pytest
from positions import random_position, undecided_positions

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, neighbour_table
from minesweep_env.solver.probability import count_position
from semiautomines_agents import make_agent
from semiautomines_agents.search.endgame import Layouts
from semiautomines_agents.search.lookahead import assess, outcomes
from semiautomines_agents.search.potential import (
    SCAN_ENABLERS,
    SCAN_SHARE,
    potential,
    scan,
    shapes_holding,
)


def _positions(count: int, need_scan: bool = False) -> list[Board]:
    """Random positions with the total known, something undecided, few layouts (and, with
    ``need_scan``, an enabler outside some would-be twin)."""
    accept = (lambda board, weights: bool(scan(board, weights).enablers)) if need_scan else None
    return undecided_positions(count, tries_per_position=400, flag_share=0.3, accept=accept)


POSITIONS = _positions(20)
WITH_ENABLERS = _positions(10, need_scan=True)


@pytest.mark.parametrize("board", POSITIONS + WITH_ENABLERS)
def test_the_scan_counts_every_would_be_twin_exactly(board):
    weights = count_position(board)
    layouts = Layouts(board, limit=100_000)
    assert len(layouts) == weights.layouts
    bits = {cell: bit for bit, cell in enumerate(layouts.cells)}
    flat = board.grid.reshape(-1)

    def hidden(c: int) -> bool:
        return flat[c] == COVERED and weights.mine_weight.get(c) != weights.layouts

    def tally(mines: list[int], safe: tuple[int, ...]) -> int:
        return sum(
            all(m >> bits[c] & 1 for c in mines) and not any(m >> bits[c] & 1 for c in safe)
            for m in layouts.masks
        )

    enablers: dict[int, int] = {}
    inside: dict[int, int] = {}
    shapes = {
        (kind, shape)
        for cell in range(flat.size)
        for kind, shape in shapes_holding(board.width, board.height, cell)
    }
    for kind, (mines, safe, outside) in shapes:
        if not all(hidden(c) for c in mines + safe) or any(flat[c] >= 0 for c in outside):
            continue
        needed = [c for c in outside if hidden(c)]
        if len(needed) > SCAN_ENABLERS[kind] or len(needed) + len(mines) > weights.mines_left:
            continue
        count = tally(needed + list(mines), safe)
        horizontal = kind == "pair" and safe[0] == mines[0] + 1
        if count * (2 if horizontal else 1) <= SCAN_SHARE * weights.layouts:
            continue
        for c in needed:
            enablers[c] = enablers.get(c, 0) + count
        for c in mines + safe:
            inside[c] = inside.get(c, 0) + count
    found = scan(board, weights)
    assert found.enablers == enablers
    assert found.inside == inside


def test_some_positions_have_enablers_outside_their_twins():
    for board in WITH_ENABLERS:
        found = scan(board, count_position(board))
        assert found.enablers and found.inside
        # An enabler is never part of the twin it enables: it is one of its outside cells.
        table = neighbour_table(board.width, board.height)
        assert all(any(n in found.inside for n in table[c]) for c in found.enablers)


@pytest.mark.parametrize("board", WITH_ENABLERS)
def test_an_enablers_risk_raises_its_potential_up_to_the_cap(board):
    weights = count_position(board)
    found = scan(board, weights)
    for cell, extra in found.enablers.items():
        own = weights.mine_weight[cell] or 0
        plain = potential(board, weights, cell)
        with_extra = potential(board, weights, cell, extra=extra)
        assert with_extra == min(plain + extra, own, weights.layouts - own) >= plain


@pytest.mark.parametrize("board", POSITIONS[:10])
def test_the_expected_clears_are_the_living_safe_cells_each_number_leaves(board):
    weights = count_position(board)
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    for cell in [c for c, w in weights.mine_weight.items() if flat[c] == COVERED and w]:
        expected = 0.0
        for outcome in outcomes(board, cell):
            mine, layouts = outcome.weights.mine_weight, outcome.weights.layouts
            grid = outcome.board.grid.reshape(-1)
            covered = [c for c in mine if grid[c] == COVERED]
            undecided = {c for c in covered if 0 < (mine[c] or 0) < layouts}
            living_safe = [
                c for c in covered if mine[c] == 0 and any(n in undecided for n in table[c])
            ]
            expected += layouts / weights.layouts * (len(living_safe) if undecided else 0)
        assessed = assess(board, weights, cell, 2, secondary=True)
        assert assessed.expected_clears == pytest.approx(expected, abs=1e-12)


def test_the_tie_break_by_clears_only_chooses_among_equal_scores():
    base = "search:enablers=0:influenced=0"  # the tie-break alone
    plain, ties = make_agent(f"{base}:tie_clears=0"), make_agent(f"{base}:tie_clears=1")
    changed = 0
    for seed in [*range(40), 498]:  # position 498 has a tie the clears break otherwise
        board, _ = random_position(seed, max_side=8, flag_share=0.1)
        try:
            advice = plain.advise(board)
        except ValueError:
            continue
        if advice.reason != "search" or not advice.candidates:
            continue
        chosen = ties.advise(board).cell
        scores = {a.cell: plain.score(a) for a in advice.candidates}
        assert scores[chosen] == max(scores.values())
        if chosen != advice.cell:
            changed += 1
            clears = {a.cell: a.expected_clears for a in advice.candidates}
            assert clears[chosen] > clears[advice.cell]
    assert changed >= 1


def test_influenced_cells_join_the_candidates():
    agent = make_agent("search:width=1:offset=0:enablers=1:influenced=0.5")
    narrow = make_agent("search:width=1:offset=0")
    joined = 0
    for board in WITH_ENABLERS:
        weights = count_position(board)
        found = scan(board, weights)
        listed = {a.cell for a in agent.weigh(board, weights, scanned=found)}
        base = {a.cell for a in narrow.weigh(board, weights)}
        assert base <= listed
        assert listed - base <= set(found.enablers) | set(found.inside)
        joined += len(listed - base)
    assert joined > 0


def test_the_settings_reach_the_agent_and_its_description():
    agent = make_agent("search")  # on by default
    assert agent.enablers and agent.influenced == 0.9 and agent.tie_clears
    text = agent.describe()
    assert "enablers" in text and "influenced cells over 0.9" in text and "clears" in text
    old = make_agent("search:enablers=0:influenced=0:tie_clears=0")  # candidate scoring alone
    assert not old.enablers and not old.influenced and not old.tie_clears
    assert "enablers" not in old.describe() and "clears" not in old.describe()
