"""Risk a cell shares with a 50/50 that may be forced anyway.

A cell's mine probability counts every layout in which it is a mine, but in
some of them the loss is not the probe's fault: when a pair or 2x2 box of
:mod:`.forced` would be a twin that nothing outside can tell apart once a few
covered cells beside it (its *enablers*, at most one here) are mines, then in
the layouts where those enablers are mines the twin costs every player a coin
flip, whatever they probe first. Probing a cell of the twin (or an enabler)
loses in such layouts no more often than any other play does there (each
twin layout with the cell a mine has a partner that every play loses instead).
The *influence* of a cell is the number of layouts in which its loss is of
that kind: those with the enablers mines and the twin's half holding the cell
full (the partner layouts are the same number). A cell's mine weight less its
influence is the risk that is really its own. This is the idea of
JSMinesweeper's long-term risk (its pairs with at most one enabler and boxes
with none), counted with our engine; where it adds up a cell's pairs, we
take the largest, since two twins may share layouts (the tests check the
count never exceeds the layouts with a coin flip, by enumeration).
"""

from __future__ import annotations

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import Weights, count_position

from .forced import shapes

ENABLERS = (1, 0)
"""Most enablers looked at for a pair, for a box (by half size; more would rarely be
worth a count)."""


def _enablers(board: Board, weights: Weights, differ: tuple[int, ...]) -> list[int] | None:
    """The cells of ``differ`` (outside a twin, seeing its halves differently) that
    are not known mines, or ``None`` when one is probed (the twin can never form)."""
    flat = board.grid.reshape(-1)
    found = []
    for o in differ:
        if flat[o] >= 0 or flat[o] == KNOWN_SAFE:
            return None
        if flat[o] == FLAGGED or weights.mine_weight.get(o) == weights.layouts:
            continue
        found.append(o)
    return found


def tally_layouts(board: Board, mines: list[int], safe: tuple[int, ...], cache: dict | None) -> int:
    """Layouts with ``mines`` all mines and ``safe`` all safe (0 if none): the count both
    50/50 measures (this module's and :mod:`.potential`'s) weigh a shape by."""
    trial = board.copy()
    flat = trial.grid.reshape(-1)
    flat[mines] = FLAGGED
    flat[list(safe)] = KNOWN_SAFE
    try:
        return count_position(trial, cache=cache, any_count=True).layouts
    except InconsistentBoardError:
        return 0


def influence(board: Board, weights: Weights, cache: dict | None = None) -> dict[int, int]:
    """Per cell, the layouts in which it is a mine of a twin that every play pays
    for (the largest count over the pairs and boxes it is part of); cells
    without any are left out.

    :param weights: the engine's weights of ``board`` (with the total known).
    """
    if weights.mines_left is None:
        return {}
    flat = board.grid.reshape(-1)
    mine = weights.mine_weight
    layouts = weights.layouts

    def open_cell(cell: int) -> bool:
        weight = mine.get(cell)
        return flat[cell] == COVERED and weight is not None and 0 < weight < layouts

    found: dict[int, int] = {}
    for p, q, differ in shapes(board.width, board.height):
        if not all(open_cell(c) for c in p + q):
            continue
        enablers = _enablers(board, weights, differ)
        if enablers is None or len(enablers) > ENABLERS[len(p) - 1]:
            continue
        tally = tally_layouts(board, enablers + list(p), q, cache)
        for cell in p + q + tuple(enablers):
            # The largest, not the sum: two twins may share layouts.
            found[cell] = max(found.get(cell, 0), tally)
    # The shared part is at most the cell's risk, and (half of a coin flip's
    # layouts) at most its safety.
    capped = {c: min(t, mine[c] or 0, layouts - (mine[c] or 0)) for c, t in found.items()}
    return {c: t for c, t in capped.items() if t > 0}
