"""The search agent's first click: a measured cell per board and first-click policy.

Greedy's opening (:func:`semiautomines_agents.greedy.first_click_cell`: a corner
when only the first cell is safe, (3, 3) when its neighbours are safe too) is the
best known one on expert; on the small boards it was never measured here. The
first click decides how much of the board the first guess sees, and the first
guesses of a game carry half of beginner's losses and three fifths of
intermediate's (benchmarks/results/search_endgame_size_small_boards.md), so this table
holds the cell that ``search`` measured best on paired games
(``benchmarks/openings.py``, figures in
benchmarks/results/search_first_click_small_boards.md).
A board and policy not in the table fall back to greedy's cell. (The second click
after a first click that opened a lone number was measured the same way,
``benchmarks/second_clicks.py``: the look-ahead's own choice was best or level, so
there is no table for it.)
"""

from __future__ import annotations

from ..greedy import first_click_cell

OPENINGS: dict[tuple[int, int, int, str], tuple[int, int]] = {
    # Beginner, zero first click: (2, 2) beat (3, 3) by +0.29 points (+0.09 to +0.50)
    # on 20,000 paired games of seed 2, the best of the seed-1 screen's top three.
    (9, 9, 10, "zero"): (2, 2),
}
"""(width, height, mines, first-click policy) -> the first click (x, y), where a
paired measurement found a cell better than greedy's (on games of a seed of their
own, not seed 0's)."""


def opening_cell(width: int, height: int, mines: int, policy: str) -> tuple[int, int]:
    """The first click ``search`` makes on a ``width`` x ``height`` board of ``mines``
    mines under first-click ``policy``: the table's cell, else greedy's."""
    cell = OPENINGS.get((width, height, mines, policy))
    return cell if cell is not None else first_click_cell(width, height, policy)


def symmetric_cells(width: int, height: int) -> list[tuple[int, int]]:
    """One cell of each orbit of the board's symmetries (mirrors; and the diagonal
    on a square board), in row order: the first clicks worth measuring, since a
    mirrored first click plays the mirrored game."""
    cells = []
    for y in range((height + 1) // 2):
        for x in range((width + 1) // 2):
            if width == height and x > y:
                continue
            cells.append((x, y))
    return cells
