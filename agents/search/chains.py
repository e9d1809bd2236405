"""Extended 50/50s: chains of one-mine links that no number can ever settle.

A *link* is two undecided cells that hold exactly one mine in every layout:
a shown number that still needs one mine among exactly two undecided cells
ties them (its other neighbours are open or known mines). A *chain* is a path
``t1 - t2 - ... - tn`` of links with an even number of cells. Along a chain
the mines alternate, so every layout fills exactly one of its halves ``P``
(``t1, t3, ...``) and ``Q`` (``t2, t4, ...``), which are of equal size.

A chain is *closed* when every cell outside it that is not a known mine (a
shown number, or a covered cell that could show one later) touches as many
cells of ``P`` as of ``Q``. Then swapping ``P`` and ``Q`` keeps every number,
now and later, and the mine total: each layout has an equally likely twin
with the halves swapped, and only a probe inside the chain can tell the two
apart, at a risk of exactly 1/2. That is the twin of :mod:`.forced`, with
halves of any size along a path instead of one cell or one diagonal of a box;
where the pair in a chain's middle is not a twin on its own (a number beside
it sees one cell only), the chain around it can still be.

The player must toss that coin sooner or later to win, so the agent tosses it
first: a safe cell shows a number that may help the rest of the board. The
cell tossed is the chain's best in the greedy order (likeliest to show a zero,
then fewest neighbours). Taking it first is not proven optimal in general
(after the toss the two halves show different numbers); the tests check it
against the exact endgame on small positions.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.solver.probability import Weights

from .candidates import rank

MAX_CELLS = 12
"""Longest chain looked for (cells): longer ones are rare and each costs a check."""
MAX_PATHS = 20_000
"""Paths tried per position at most, bounding the search on a tangle of links."""

Chain = tuple[tuple[int, ...], tuple[int, ...]]
"""A chain's two halves ``P`` (``t1, t3, ...``) and ``Q`` (``t2, t4, ...``), flat indices."""


def cell_states(board: Board, weights: Weights) -> tuple[np.ndarray, np.ndarray]:
    """Per flat cell: undecided (covered, mine in some layouts but not all), and
    known mine (flagged, or covered and a mine in every layout)."""
    flat = board.grid.reshape(-1)
    undecided = np.zeros(flat.size, bool)
    known_mine = flat == FLAGGED
    for cell, weight in weights.mine_weight.items():
        if flat[cell] != COVERED or weight is None:
            continue
        if weight == weights.layouts:
            known_mine[cell] = True
        elif weight > 0:
            undecided[cell] = True
    return undecided, known_mine


def links(board: Board, weights: Weights) -> dict[int, set[int]]:
    """Per undecided cell, the cells it is linked to: those that, with it, are the
    only two undecided neighbours of a shown number still needing one mine."""
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    undecided, known_mine = cell_states(board, weights)
    linked: dict[int, set[int]] = {}
    for cell in np.flatnonzero(flat >= 0).tolist():
        around = table[cell]
        open_ = [n for n in around if undecided[n]]
        if len(open_) != 2 or int(flat[cell]) - sum(bool(known_mine[n]) for n in around) != 1:
            continue
        a, b = open_
        linked.setdefault(a, set()).add(b)
        linked.setdefault(b, set()).add(a)
    return linked


def _closed(path: list[int], table, known_mine: np.ndarray) -> bool:
    """Whether every cell outside ``path`` that is not a known mine touches as many
    cells of its odd places as of its even places."""
    inside = set(path)
    balance: dict[int, int] = {}
    for place, cell in enumerate(path):
        step = 1 if place % 2 == 0 else -1
        for other in table[cell]:
            if other not in inside and not known_mine[other]:
                balance[other] = balance.get(other, 0) + step
    return not any(balance.values())


def _paths(linked: dict[int, set[int]]) -> Iterator[list[int]]:
    """Simple paths along links with an even number of cells, four to
    :data:`MAX_CELLS`, each once (its first cell below its last), at most
    :data:`MAX_PATHS` of them tried, in a deterministic order."""
    tried = 0
    for start in sorted(linked):
        stack = [[start]]
        while stack:
            path = stack.pop()
            if len(path) >= 4 and len(path) % 2 == 0 and path[0] < path[-1]:
                yield path
            tried += 1
            if tried >= MAX_PATHS:
                return
            if len(path) < MAX_CELLS:
                stack.extend(
                    path + [n] for n in sorted(linked[path[-1]], reverse=True) if n not in path
                )


def closed_chain(board: Board, weights: Weights) -> Chain | None:
    """The first closed chain of four cells or more of ``board``, or ``None``.

    :param weights: the engine's weights of ``board`` (with its mine total: without
        it the halves' mine counts are not tied and nothing is a chain).
    """
    if weights.mines_left is None:
        return None
    linked = links(board, weights)
    if len(linked) < 4:
        return None
    table = neighbour_table(board.width, board.height)
    _, known_mine = cell_states(board, weights)
    for path in _paths(linked):
        if _closed(path, table, known_mine):
            return tuple(path[0::2]), tuple(path[1::2])
    return None


def chain_guess(board: Board, weights: Weights) -> int | None:
    """The cell to toss in :func:`closed_chain`'s chain (the greedy order's first
    of its cells), or ``None`` when there is no closed chain."""
    found = closed_chain(board, weights)
    if found is None:
        return None
    p, q = found
    return rank(board.grid, weights, sorted(p + q))[0]
