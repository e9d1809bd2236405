"""Forced guesses: cells whose risk no future information can lower, taken first.

A *twin* is a set of covered cells split into two halves ``P`` and ``Q`` of
equal size that every cell outside it that could ever show a number sees
alike: for every covered or probed cell ``o`` outside ``P | Q`` that is not a
known mine, ``o`` touches as many cells of ``P`` as of ``Q``. Two shapes are
looked for:

- a *pair*: two touching cells ``a``, ``b`` (``P = {a}``, ``Q = {b}``); the
  cells touching one of them but not the other must all be known mines (or
  off the board);
- a *box*: a 2x2 square whose diagonals are the halves (``P`` = top-left and
  bottom-right); the four cells touching one corner of the box diagonally
  must be known mines (or off the board).

Swapping the mines of ``P`` onto ``Q`` then keeps every number and the mine
total, so each layout with ``P`` full and ``Q`` empty has an equally likely
twin with the two swapped, and no number outside the twin, now or later, can
tell them apart: only a probe inside it can, at a risk of 1/2. A cell ``t``
of ``P`` is a *forced guess* when every layout that has ``t`` a mine has all
of ``P`` mines and all of ``Q`` safe, and, for a box, every layout fills one
half of it (the box is an exact 50/50). Then the risk of ``t`` is that coin
flip, which the player must toss sooner or later to win; probing ``t`` now
costs nothing a later probe would have saved, and a safe ``t`` shows a number
that may inform the rest. For a pair this covers the dead 50/50 (one mine in
the pair in every layout) and the *pseudo* 50/50 (the pair may also be
empty: whatever is seen later can only say "empty", which probing ``t``
survives anyway). A pseudo box is not taken: its other mine patterns may
need probes of their own inside the box, and ``t``'s number need not tell
them apart (the exact endgame loses by it on small positions; the tests
check every forced guess against that endgame).

The wall (the cells outside that see the halves differently) must be known
mines. JSMinesweeper also takes a pair whose wall cells are still undecided
but mines in every layout that has ``t`` a mine. That is no coin flip taken
early: in the layouts where ``t`` is safe the wall may be open, and the other
cell of the pair, at the same risk, may show the more telling number (the
tests hold a position where probing ``t`` halves the win probability).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import chain

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import Weights, count_position

Twin = tuple[tuple[int, ...], tuple[int, ...]]
"""The two halves ``P`` and ``Q`` of a twin (flat indices)."""


def pairs(width: int, height: int) -> Iterator[Twin]:
    """Every two touching cells, as halves of one cell, in flat order."""
    table = neighbour_table(width, height)
    for a in range(width * height):
        for b in table[a]:
            if b > a:
                yield (a,), (b,)


def boxes(width: int, height: int) -> Iterator[Twin]:
    """Every 2x2 square, as its two diagonals, in flat order of the top-left cell."""
    for y in range(height - 1):
        for x in range(width - 1):
            top, bottom = y * width + x, (y + 1) * width + x
            yield (top, bottom + 1), (top + 1, bottom)


Shape = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A twin's halves ``P`` and ``Q`` and the cells outside it that see them differently."""


@lru_cache(maxsize=8)
def shapes(width: int, height: int) -> tuple[Shape, ...]:
    """Every pair, then every box, of a board size, with the cells outside that
    touch more of one half than of the other (for a pair: the cells touching
    one cell only; for a box: its four diagonal corners)."""
    table = neighbour_table(width, height)
    found = []
    for p, q in chain(pairs(width, height), boxes(width, height)):
        inside = set(p + q)
        around = sorted({o for c in inside for o in table[c]} - inside)
        differ = tuple(
            o for o in around if len(set(table[o]) & set(p)) != len(set(table[o]) & set(q))
        )
        found.append((p, q, differ))
    return tuple(found)


@lru_cache(maxsize=8)
def _shape_cells(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`shapes` as two index arrays, one row per shape: its inside cells and its
    outside cells that see the halves differently, padded with the board's size (a
    slot that passes both tests)."""
    found = shapes(width, height)
    size = width * height
    inside = np.full((len(found), 4), size, np.int64)
    differ = np.full((len(found), max((len(d) for *_, d in found), default=0)), size, np.int64)
    for row, (p, q, outside) in enumerate(found):
        inside[row, : len(p + q)] = p + q
        differ[row, : len(outside)] = outside
    return inside, differ


def twins(board: Board, weights: Weights) -> Iterator[Twin]:
    """The pairs, then the boxes, of undecided cells that no cell outside can tell
    apart (the cheap test, before any count), tested on whole arrays at once."""
    grid = board.grid.reshape(-1)
    layouts = weights.layouts
    mine = weights.mine_weight
    cells = np.fromiter(mine, np.int64, len(mine))
    values = list(mine.values())
    # One extra slot, the padding of _shape_cells, is both undecided and a known mine.
    undecided = np.ones(grid.size + 1, bool)
    known_mine = np.ones(grid.size + 1, bool)
    undecided[: grid.size] = False
    undecided[cells[[w is not None and 0 < w < layouts for w in values]]] = True
    undecided[: grid.size] &= grid == COVERED
    known_mine[: grid.size] = False
    known_mine[cells[[w == layouts for w in values]]] = True
    known_mine[: grid.size] &= grid == COVERED
    known_mine[: grid.size] |= grid == FLAGGED
    inside, differ = _shape_cells(board.width, board.height)
    fits = known_mine[differ].all(axis=1) & undecided[inside].all(axis=1)
    found = shapes(board.width, board.height)
    for row in np.flatnonzero(fits).tolist():
        p, q, _ = found[row]
        yield p, q


def _only_with(board: Board, cell: int, p: tuple[int, ...], q: tuple[int, ...], cache) -> bool:
    """Whether every layout with a mine on ``cell`` has all of ``p`` mines and all
    of ``q`` safe (at least one such layout existing)."""
    trial = board.copy()
    trial.grid.reshape(-1)[cell] = FLAGGED
    try:
        weights = count_position(trial, cache=cache, any_count=True)
    except InconsistentBoardError:
        return False
    mine = weights.mine_weight
    return all(mine.get(c) == weights.layouts for c in p if c != cell) and all(
        mine.get(c) == 0 for c in q
    )


def forced_twin(
    board: Board, weights: Weights, cache: dict | None = None
) -> tuple[int, Twin] | None:
    """A forced guess of ``board`` and the twin it belongs to (its own half first),
    the first found: pairs before boxes, each in flat order, the lower cell first.

    :param weights: the engine's weights of ``board``.
    :param cache: the engine's component cache.
    """
    if weights.mines_left is None:
        return None  # without the total, the halves' mine counts are not tied
    for p, q in twins(board, weights):
        if len(p) > 1 and 2 * weights.mine_weight[p[0]] != weights.layouts:  # type: ignore[operator]
            continue  # a box must be an exact 50/50 (module docstring)
        for half, other in sorted(((p, q), (q, p)), key=lambda h: min(h[0])):
            for cell in sorted(half):
                if _only_with(board, cell, half, other, cache):
                    return cell, (half, other)
    return None


def forced_guess(board: Board, weights: Weights, cache: dict | None = None) -> int | None:
    """The cell of :func:`forced_twin`, or ``None``."""
    found = forced_twin(board, weights, cache)
    return None if found is None else found[0]


def is_forced_guess(board: Board, weights: Weights, cell: int, cache: dict | None = None) -> bool:
    """Whether probing ``cell`` is a forced guess (the test of :func:`forced_twin`, asked
    of one cell): a coin flip in a twin that no future number can settle.

    :param weights: the engine's weights of ``board`` (with its mine total).
    """
    if weights.mines_left is None:
        return False
    for p, q in twins(board, weights):
        if cell not in p and cell not in q:
            continue
        if len(p) > 1 and 2 * weights.mine_weight[p[0]] != weights.layouts:  # type: ignore[operator]
            continue
        half, other = (p, q) if cell in p else (q, p)
        if _only_with(board, cell, half, other, cache):
            return True
    return False
