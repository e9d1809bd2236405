"""The search agent's exact endgame (with its cut-offs) against a plain game-tree
search written from the rules, on small random positions."""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import pytest
from positions import random_position

from minesweep_env import Board
from minesweep_env.core.cells import COVERED, neighbour_table
from minesweep_env.solver.probability import count_position
from semiautomines_agents.search.endgame import Endgame, Layouts


def _plain_win_probability(board: Board, layouts: Layouts) -> float:
    """The best win probability by the rules, every probe tried, no cut-off: the
    auto-solver opens every cell safe in all remaining layouts (its number splits
    them), otherwise the player probes a cell and survives where it is safe."""
    cells = layouts.cells
    table = neighbour_table(board.width, board.height)
    start = frozenset(
        frozenset(c for k, c in enumerate(cells) if m >> k & 1) for m in layouts.masks
    )

    def split(group, cell):
        parts = defaultdict(list)
        for layout in group:
            parts[sum(n in layout for n in table[cell])].append(layout)
        return [frozenset(p) for p in parts.values()]

    @cache
    def value(group: frozenset) -> float:
        if len(group) == 1:
            return 1.0
        union = frozenset().union(*group)
        safe = [c for c in cells if c not in union]
        parts = defaultdict(list)
        for layout in group:
            parts[tuple(sum(n in layout for n in table[c]) for c in safe)].append(layout)
        if len(parts) > 1:
            return sum(len(p) * value(frozenset(p)) for p in parts.values()) / len(group)
        best = 0.0
        for cell in sorted(union):
            alive = frozenset(layout for layout in group if cell not in layout)
            if alive:
                best = max(best, sum(len(p) * value(p) for p in split(alive, cell)) / len(group))
        return best

    return value(start)


def _small_endgames(count: int) -> list[Board]:
    found = []
    for seed in range(100 * count):
        board, _ = random_position(seed)
        if not (board.grid == COVERED).any():
            continue
        weights = count_position(board)
        if 3 <= weights.layouts <= 150 and all(w for w in weights.mine_weight.values()):
            found.append(board)  # no safe cell left: the player must guess
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} positions found")


@pytest.mark.parametrize("board", _small_endgames(40))
def test_the_endgame_with_its_cut_offs_finds_the_plain_searchs_win_probability(board):
    layouts = Layouts(board, limit=1000)
    endgame = Endgame(layouts)
    cell, value = endgame.best_probe()
    assert value == pytest.approx(_plain_win_probability(board, layouts), abs=1e-12)
    # The cell it names achieves that value, and no cell does better.
    bit = layouts.cells.index(cell)
    assert endgame.probe_value(layouts.masks, bit) == pytest.approx(value, abs=1e-12)
    for other in range(len(layouts.cells)):
        assert endgame.probe_value(layouts.masks, other) <= value + 1e-12
