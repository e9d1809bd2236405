"""How much of a cell's risk lies in 50/50s that may yet form around it.

As JSMinesweeper's 50/50 influence does, this module looks at twins still to
come: a covered pair (or 2x2 box) whose outside cells are all still
covered becomes a twin that no number can settle once those outside cells
(its *enablers*, a few at most) turn out to be mines. Dying on such a cell now
costs less than it seems, since in those layouts a coin flip would have come
anyway; the agent's ``fifty`` setting multiplies a candidate's score by
``1 + fifty * potential / safe layouts``, where ``potential`` counts those
layouts for the cell (:func:`potential`).

Per cell: the layouts with the enablers and one half of a would-be twin mines
and the other half safe (the first cell of a pair, the main diagonal of a box
the mines), summed over the (at most four) pairs that hold the cell, plus the
largest such count over the (at most four) boxes that hold it, capped by the
cell's own mine layouts and safe layouts. Shapes with a probed outside cell can
never become a twin and count nothing; shapes needing more than
:data:`MAX_ENABLERS` enablers (or more mines than are left) are too unlikely to
be worth a count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE
from minesweep_env.solver.probability import Weights

from ..big_counts import times
from ..progress import exact_trial_layouts
from .candidates import off_frontier

MAX_ENABLERS = 3
"""Most enablers a would-be twin may need to be counted (JSMinesweeper's figure)."""
SCAN_ENABLERS = {"pair": 1, "box": 2}
"""Most enablers of a would-be twin in the whole-board :func:`scan`, by shape."""
SCAN_SHARE = 0.025
"""Share of the layouts above which :func:`scan` counts a would-be twin (a horizontal
pair's share is taken twice, as JSMinesweeper does)."""

Shape = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(mines, safe, outside): the cells taken as mines and as safe, and the cells
outside the shape that would tell its halves apart."""


def tally_layouts(board: Board, mines: list[int], safe: tuple[int, ...], cache: dict | None) -> int:
    """Layouts with ``mines`` all mines and ``safe`` all safe (0 if none): the count the
    50/50 measure weighs a shape by."""
    trial = board.copy()
    flat = trial.grid.reshape(-1)
    flat[mines] = FLAGGED
    flat[list(safe)] = KNOWN_SAFE
    return exact_trial_layouts(trial, cache)


@lru_cache(maxsize=1 << 16)
def shapes_holding(width: int, height: int, cell: int) -> tuple[tuple[str, Shape], ...]:
    """The pairs and 2x2 boxes on a ``width`` x ``height`` board that hold ``cell``,
    each as (``"pair"`` or ``"box"``, its :data:`Shape`); outside cells beyond the
    board's edge are left out (nothing there can tell the halves apart). Kept per
    board size and cell: the scans ask for the same shapes move after move."""
    return tuple(_shapes_holding(width, height, cell))


@lru_cache(maxsize=1 << 16)
def shapes_from(width: int, height: int, cell: int) -> tuple[tuple[str, Shape], ...]:
    """:func:`shapes_holding` whose first mine is ``cell``: each shape once over the
    board, from its first mine (what :func:`scan` walks)."""
    return tuple(
        (kind, shape) for kind, shape in shapes_holding(width, height, cell) if shape[0][0] == cell
    )


def _shapes_holding(width: int, height: int, cell: int) -> Iterator[tuple[str, Shape]]:
    """:func:`shapes_holding`, one shape at a time."""
    y, x = divmod(cell, width)

    def inside(cx: int, cy: int) -> bool:
        return 0 <= cx < width and 0 <= cy < height

    def flat(points: list[tuple[int, int]]) -> tuple[int, ...]:
        return tuple(cy * width + cx for cx, cy in points if inside(cx, cy))

    for left in (x - 1, x):  # horizontal pairs: (left, y) mine, (left + 1, y) safe
        if inside(left, y) and inside(left + 1, y):
            outside = [(cx, y + dy) for cx in (left - 1, left + 2) for dy in (-1, 0, 1)]
            yield "pair", ((y * width + left,), (y * width + left + 1,), flat(outside))
    for top in (y - 1, y):  # vertical pairs: (x, top) mine, (x, top + 1) safe
        if inside(x, top) and inside(x, top + 1):
            outside = [(x + dx, cy) for cy in (top - 1, top + 2) for dx in (-1, 0, 1)]
            yield "pair", ((top * width + x,), ((top + 1) * width + x,), flat(outside))
    for left in (x - 1, x):
        for top in (y - 1, y):
            if inside(left, top) and inside(left + 1, top + 1):
                mines = flat([(left, top), (left + 1, top + 1)])
                safe = flat([(left + 1, top), (left, top + 1)])
                corners = [(cx, cy) for cx in (left - 1, left + 2) for cy in (top - 1, top + 2)]
                yield "box", (mines, safe, flat(corners))


def potential(
    board: Board, weights: Weights, cell: int, cache: dict | None = None, extra: int = 0
) -> int:
    """The layouts in which ``cell`` is a mine of a 50/50 that may still form around
    it (see the module's docstring); 0 without a known mine total.

    :param weights: the engine's weights of ``board``.
    :param extra: layouts added before the cap (the cell's :attr:`Scan.enablers` count).
    """
    mine = weights.mine_weight.get(cell)
    if weights.mines_left is None or mine is None:
        return 0
    flat = board.grid.reshape(-1).tolist()  # a list: far quicker to index one by one
    layouts = weights.layouts

    def hidden(c: int) -> bool:
        return flat[c] == COVERED and weights.mine_weight.get(c) != layouts

    pairs, box = 0, 0
    for kind, (mines, safe, outside) in shapes_holding(board.width, board.height, cell):
        if not all(hidden(c) for c in mines + safe):
            continue
        if any(flat[c] >= 0 or flat[c] == KNOWN_SAFE for c in outside):
            continue  # a number beside it will always tell the halves apart
        enablers = [c for c in outside if hidden(c)]
        if len(enablers) > MAX_ENABLERS or len(enablers) + len(mines) > weights.mines_left:
            continue
        tally = tally_layouts(board, enablers + list(mines), safe, cache)
        if kind == "pair":
            pairs += tally
        else:
            box = max(box, tally)
    return min(pairs + box + extra, mine, layouts - mine)


def _anchors(
    board: Board, weights: Weights
) -> tuple[list[int], list[bool], list[bool], list[bool]]:
    """Flat cells that are the first mine of a shape :func:`scan` may count: all its
    cells hidden, no probed cell outside it and few hidden ones (the scan's tests, on
    whole arrays), so its loop looks only at these; and, per flat cell, whether the
    horizontal pair, the vertical pair and the 2x2 box it is the first mine of pass."""
    height, width = board.grid.shape
    layouts = weights.layouts
    hidden = board.grid == COVERED
    for cell, weight in weights.mine_weight.items():
        if weight == layouts:
            hidden.reshape(-1)[cell] = False
    probed = (board.grid >= 0) | (board.grid == KNOWN_SAFE)
    # Padded by two on every side (off the board: neither hidden nor probed), so a
    # shape's cell (x + dx, y + dy) of the anchor (x, y) is the slice at (2 + dy, 2 + dx).
    pad_h = np.pad(hidden, 2).astype(np.int8)
    pad_p = np.pad(probed, 2).astype(np.int8)

    def at(grid: np.ndarray, dx: int, dy: int) -> np.ndarray:
        return grid[2 + dy : 2 + dy + height, 2 + dx : 2 + dx + width]

    def fits(inside: list, outside: list, limit: int) -> np.ndarray:
        ok = np.ones((height, width), bool)
        for dx, dy in inside:
            ok &= at(pad_h, dx, dy).astype(bool)
        ok &= sum(at(pad_p, dx, dy) for dx, dy in outside) == 0
        return ok & (sum(at(pad_h, dx, dy) for dx, dy in outside) <= limit)

    sides = (-1, 0, 1)
    pair, box = SCAN_ENABLERS["pair"], SCAN_ENABLERS["box"]
    across = fits([(0, 0), (1, 0)], [(dx, dy) for dx in (-1, 2) for dy in sides], pair)
    down = fits([(0, 0), (0, 1)], [(dx, dy) for dy in (-1, 2) for dx in sides], pair)
    square = fits(
        [(0, 0), (1, 0), (0, 1), (1, 1)], [(dx, dy) for dx in (-1, 2) for dy in (-1, 2)], box
    )
    anchors = np.flatnonzero(across | down | square).tolist()
    return (
        anchors,
        across.reshape(-1).tolist(),
        down.reshape(-1).tolist(),
        square.reshape(-1).tolist(),
    )


@dataclass(frozen=True)
class Scan:
    """The would-be twins of a whole position that need few enablers (:func:`scan`)."""

    enablers: dict[int, int] = field(default_factory=dict)
    """Per cell, the layouts of the would-be twins it is an enabler of: were it a mine,
    one of those could form, so it shares their risk though it lies outside them."""
    inside: dict[int, int] = field(default_factory=dict)
    """Per cell, the layouts of the would-be twins it is part of."""


def scan(board: Board, weights: Weights, cache: dict | None = None) -> Scan:
    """Every pair needing at most one enabler and every 2x2 box needing at most two,
    over the whole board (JSMinesweeper's long-term risk scan), whose layouts (counted
    as in :func:`potential`) are over :data:`SCAN_SHARE` of the position's.

    Its enablers count toward their own 50/50 factor (:func:`potential`'s ``extra``),
    and the agent may look at the cells of either kind as candidates.
    """
    found = Scan()
    if weights.mines_left is None:
        return found
    flat = board.grid.reshape(-1)
    layouts = weights.layouts
    mine = weights.mine_weight
    far = off_frontier(board.grid).reshape(-1).tolist()
    share = times(SCAN_SHARE, layouts)
    # Cells off the frontier are alike to the engine: a shape all of whose cells and
    # enablers lie there has a count that depends only on how many are mines and safe.
    alike: dict[tuple[int, int], int] = {}

    # Per flat cell as plain lists (the loop below reads single cells, many times).
    covered = (flat == COVERED).tolist()
    hidden = [covered[c] and mine.get(c) != layouts for c in range(flat.size)]

    anchors, across, down, square = _anchors(board, weights)
    wide = board.width > 1
    for cell in anchors:
        for kind, (mines, safe, outside) in shapes_from(board.width, board.height, cell):
            # Its cells all hidden, none outside probed, few enablers: tested in _anchors.
            if kind == "box":
                passes = square[cell]
            else:
                passes = across[cell] if wide and safe[0] == cell + 1 else down[cell]
            if not passes:
                continue
            enablers = [c for c in outside if hidden[c]]
            if len(enablers) + len(mines) > weights.mines_left:
                continue
            fixed = enablers + list(mines)
            if all(far[c] for c in fixed + list(safe)):
                key = (len(fixed), len(safe))
                if key not in alike:
                    alike[key] = tally_layouts(board, fixed, safe, cache)
                tally = alike[key]
            else:
                tally = tally_layouts(board, fixed, safe, cache)
            horizontal = kind == "pair" and safe[0] == cell + 1
            if tally * (2 if horizontal else 1) <= share:
                continue
            for c in enablers:
                found.enablers[c] = found.enablers.get(c, 0) + tally
            for c in mines + safe:
                found.inside[c] = found.inside.get(c, 0) + tally
    return found
