"""The exact endgame against the game tree searched plainly.

:class:`Endgame` keeps sets of layouts as bits of one int, prunes with bounds and
skips the cells it has already split on. The reference here does none of that:
lists of layout masks, every undecided cell tried, every number split, memoised
only on the set. Both must give the same win probabilities.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import pytest
from positions import undecided_positions

from semiautomines_agents.search.endgame import Endgame, Layouts

POSITIONS = undecided_positions(30, tries_per_position=40, flag_share=0.2, limit=80)


def _reference(layouts: Layouts):
    """(value of a set of layouts, value of probing a bit in it), searched plainly."""
    cells = layouts.cells
    around = [layouts.around[cell] for cell in cells]

    def split(masks: frozenset[int], bits: list[int]) -> list[frozenset[int]]:
        classes: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for m in masks:
            classes[tuple((m & around[k]).bit_count() for k in bits)].append(m)
        return [frozenset(c) for c in classes.values()]

    @cache
    def value(masks: frozenset[int]) -> float:
        if len(masks) == 1:
            return 1.0
        union = 0
        for m in masks:
            union |= m
        safe = [k for k in range(len(cells)) if not union >> k & 1]
        classes = split(masks, safe)
        if len(classes) > 1:  # the auto-solver's numbers tell some layouts apart
            return sum(len(c) * value(c) for c in classes) / len(masks)
        mines = [sum(m >> k & 1 for m in masks) for k in range(len(cells))]
        return max(probe(masks, k) for k, n in enumerate(mines) if 0 < n < len(masks))

    def probe(masks: frozenset[int], bit: int) -> float:
        survived = frozenset(m for m in masks if not m >> bit & 1)
        return sum(len(g) * value(g) for g in split(survived, [bit])) / len(masks)

    return value, probe


def test_the_positions_are_endgames_with_a_choice():
    sizes = [len(Layouts(board, 1000)) for board in POSITIONS]
    assert len(POSITIONS) == 30 and max(sizes) > 10 and min(sizes) >= 2


@pytest.mark.parametrize("case", range(len(POSITIONS)))
def test_the_endgame_values_are_the_plain_game_trees(case):
    layouts = Layouts(POSITIONS[case], 1000)
    value, probe = _reference(layouts)
    every = frozenset(layouts.masks)
    undecided = [
        bit
        for bit in range(len(layouts.cells))
        if 0 < sum(m >> bit & 1 for m in layouts.masks) < len(layouts.masks)
    ]
    # The best probe is taken in the position as it stands (a game's position has had
    # its safe cells opened already); the win probability opens them first.
    cell, best = Endgame(layouts).best_probe()
    assert best == pytest.approx(max(probe(every, bit) for bit in undecided), abs=1e-12)
    assert probe(every, layouts.cells.index(cell)) == pytest.approx(best, abs=1e-12)
    fresh = Endgame(layouts)
    assert fresh.win_probability(layouts.masks) == pytest.approx(value(every), abs=1e-12)
    for bit in undecided:
        assert fresh.probe_value(layouts.masks, bit) == pytest.approx(probe(every, bit), abs=1e-12)
