"""The search agent's JSMinesweeper-style settings: the potential 50/50 risk of a cell
(``fifty``, :mod:`semiautomines_agents.search.potential`) checked against every layout
of small positions, and the secondary safety of the next guess (``secondary``)."""

from __future__ import annotations

import numpy as np
import pytest
from positions import undecided_positions

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, neighbour_table
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent, make_agent
from semiautomines_agents.search.endgame import Layouts
from semiautomines_agents.search.lookahead import Assessment, assess, outcomes
from semiautomines_agents.search.potential import MAX_ENABLERS, potential, shapes_holding


def _positions(count: int, limit: int = 2000) -> list[Board]:
    """Random positions with the total known, something undecided, few layouts."""
    return undecided_positions(count, tries_per_position=200, flag_share=0.2, limit=limit)


POSITIONS = _positions(30)


def test_shapes_holding_lists_the_pairs_and_boxes_around_a_cell():
    width, height = 5, 4
    interior = 1 * width + 2
    kinds = [kind for kind, _ in shapes_holding(width, height, interior)]
    assert kinds.count("pair") == 4 and kinds.count("box") == 4
    corner = [kind for kind, _ in shapes_holding(width, height, 0)]
    assert corner.count("pair") == 2 and corner.count("box") == 1
    for cell in range(width * height):
        for kind, (mines, safe, outside) in shapes_holding(width, height, cell):
            inside = set(mines) | set(safe)
            assert cell in inside and len(inside) == (2 if kind == "pair" else 4)
            assert not inside & set(outside)
            assert all(0 <= c < width * height for c in outside)
            # The outside cells are exactly those that touch one half and not the other.
            table = neighbour_table(width, height)
            halves = (set(mines), set(safe)) if kind == "pair" else None
            if halves:
                seen = {
                    c
                    for c in range(width * height)
                    if c not in inside
                    and bool(set(table[c]) & halves[0]) != bool(set(table[c]) & halves[1])
                }
                assert seen == set(outside)


@pytest.mark.parametrize("board", POSITIONS)
def test_potential_counts_the_layouts_of_the_would_be_twins_exactly(board):
    weights = count_position(board)
    layouts = Layouts(board, limit=100_000)
    assert len(layouts) == weights.layouts
    bits = {cell: bit for bit, cell in enumerate(layouts.cells)}
    flat = board.grid.reshape(-1)
    mine = weights.mine_weight

    def hidden(c: int) -> bool:
        return flat[c] == COVERED and mine.get(c) != weights.layouts

    def tally(cells_mines: list[int], cells_safe: tuple[int, ...]) -> int:
        return sum(
            all(m >> bits[c] & 1 for c in cells_mines)
            and not any(m >> bits[c] & 1 for c in cells_safe)
            for m in layouts.masks
        )

    for cell in [c for c in mine if hidden(c) and 0 < (mine[c] or 0) < weights.layouts]:
        pairs, box = 0, 0
        for kind, (mines, safe, outside) in shapes_holding(board.width, board.height, cell):
            if not all(hidden(c) for c in mines + safe) or any(flat[c] >= 0 for c in outside):
                continue
            enablers = [c for c in outside if hidden(c)]
            if len(enablers) > MAX_ENABLERS or len(enablers) + len(mines) > weights.mines_left:
                continue
            count = tally(enablers + list(mines), safe)
            pairs, box = (pairs + count, box) if kind == "pair" else (pairs, max(box, count))
        own = mine[cell] or 0
        expected = min(pairs + box, own, weights.layouts - own)
        assert potential(board, weights, cell) == expected


def test_a_number_beside_a_pair_leaves_it_no_potential():
    # A 1x2 strip: the pair's outside is off the board, so it is a twin already;
    # in a 1x3 strip with a number at one end, the number tells the halves apart.
    strip = Board(np.array([[COVERED, COVERED]], np.int8), 1)
    weights = count_position(strip)
    assert potential(strip, weights, 0) == 1  # one layout of two has cell 0 a mine
    probed = Board(np.array([[1, COVERED, COVERED]], np.int8), 1)
    assert potential(probed, count_position(probed), 1) == 0


@pytest.mark.parametrize("board", POSITIONS[:15])
def test_the_secondary_safety_lies_between_four_fifths_of_the_best_living_cell_and_it(board):
    weights = count_position(board)
    flat = board.grid.reshape(-1)
    for cell in [c for c, w in weights.mine_weight.items() if flat[c] == COVERED and w]:
        for outcome in outcomes(board, cell):
            secondary, living = outcome.secondary_safety(), outcome.living_safety()
            assert 0.8 * living - 1e-12 <= secondary <= living + 1e-12
            if living == 1.0 and secondary < 1.0:
                # Progress, but through a single living safe cell: the second counts a fifth.
                assert secondary >= 0.8 - 1e-12


@pytest.mark.parametrize("board", POSITIONS[:15])
def test_the_secondary_survival_is_the_outcomes_secondary_safety_weighted(board):
    weights = count_position(board)
    flat = board.grid.reshape(-1)
    for cell in [c for c, w in weights.mine_weight.items() if flat[c] == COVERED and w]:
        found = outcomes(board, cell)
        assessed = assess(board, weights, cell, 2, secondary=True)
        expected = sum(o.weights.layouts * o.secondary_safety() for o in found) / weights.layouts
        assert assessed.survival == pytest.approx(expected, abs=1e-12)
        assert assessed.numbers == len(found)


def test_secondary_ranks_a_dead_candidate_last():
    agent = SearchAgent(secondary=1)
    dead = Assessment(0, 0.9, 0.0, 0.9, numbers=1)
    living = Assessment(1, 0.5, 0.0, 0.1, numbers=2)
    assert agent.score(dead) < agent.score(living)
    assert SearchAgent(secondary=0).score(dead) > SearchAgent(secondary=0).score(living)


def test_the_agents_score_of_its_candidates_holds_the_fifty_factor():
    # Callers outside the agent (the imitation teacher) rank by `score` alone.
    board = _corner_or_two_steps()
    agent = make_agent("search")
    advice = agent.advise(board)
    chosen = next(a for a in advice.candidates if a.cell == advice.cell)
    assert chosen.factor > 1.0
    assert agent.score(chosen) == max(agent.score(a) for a in advice.candidates)
    assert agent.score(chosen) == pytest.approx(
        chosen.survival * chosen.factor + agent.progress_weight * chosen.safety * chosen.progress
    )


def _corner_or_two_steps() -> Board:
    """Expert, a 2 in the top left corner and a 1 in the top right one: the other two
    corners and cells two steps from the numbers are equally safe."""
    grid = np.full((16, 30), COVERED, np.int8)
    grid[0, 0], grid[0, 29] = 2, 1
    return Board(grid, 99)


def test_the_fifty_factor_favours_a_corner_where_a_50_50_may_form():
    board = _corner_or_two_steps()
    weights = count_position(board)
    corner, beside = 15 * 30, 27  # (0, 15) and (27, 0)
    assert potential(board, weights, corner) > potential(board, weights, beside) > 0
    plain = make_agent("search:offset=16:secondary=1:progress_weight=0.001:fifty=0")
    fifty = make_agent("search:offset=16:secondary=1:progress_weight=0.001:fifty=0.9")
    assert make_agent("search").advise(board).cell == fifty.advise(board).cell  # the default
    assert plain.advise(board).cell == beside  # the better secondary safety
    assert fifty.advise(board).cell in (corner, 15 * 30 + 29)  # a bottom corner


def test_the_settings_reach_the_agent_and_its_description():
    agent = make_agent("search:secondary=1:fifty=0.9")
    assert agent.secondary and agent.fifty == 0.9
    assert "secondary safety" in agent.describe() and "50/50 weight 0.9" in agent.describe()
    old = make_agent("search:secondary=0:fifty=0")
    assert not old.secondary and old.fifty == 0.0
    assert "secondary" not in old.describe() and "50/50" not in old.describe()
