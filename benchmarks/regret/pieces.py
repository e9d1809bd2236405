"""JSMinesweeper's pieces that ``search`` lacks, looked for at ``search``'s own decisions.

Before a piece is built (or kept), it should apply often enough, and where it
applies ``search`` should be choosing differently from it, for it to be worth
anything. Three pieces:

- a *closed chain* of 50/50 links (an extended 50/50; :mod:`semiautomines_agents.search.chains`)
  that the forced pairs and boxes miss: JSMinesweeper tosses it first;
- an *isolated edge*: a frontier component that no covered cell outside it
  touches (every covered neighbour of its cells is in it or a known mine), so
  nothing played elsewhere tells anything about it, nor it about the rest but
  through the mine count. JSMinesweeper solves one exactly at any global
  layout count. With the component's mine count fixed (the same in every
  layout) it is a game of its own: its exact best probe (the exact endgame on
  it alone) is the best probe there, whenever the player probes it;
- the exact endgame *past its work budget*: a position within its layout limit
  that the look-ahead decided because the endgame ran out of work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.solver.probability import Weights
from semiautomines_agents.search.chains import cell_states, closed_chain
from semiautomines_agents.search.endgame import Endgame, Layouts, TooManyLayouts, TooMuchWork
from semiautomines_agents.search.forced import forced_guess

EDGE_LAYOUTS = 5000
"""Isolated edges with more layouts than this are counted but not solved."""
EDGE_BUDGET = 20_000_000
"""Work the exact endgame may spend on one isolated edge."""


def _undecided_and_known(board: Board, weights: Weights) -> tuple[set[int], set[int]]:
    """:func:`.chains.cell_states` as sets of flat cells."""
    undecided, known = cell_states(board, weights)
    return set(np.flatnonzero(undecided).tolist()), set(np.flatnonzero(known).tolist())


def isolated_edges(board: Board, weights: Weights) -> list[tuple[int, ...]]:
    """The isolated edges of ``board``: frontier components (undecided cells joined by
    the numbers they share) whose every covered neighbour is in it or a known mine."""
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    undecided, known = _undecided_and_known(board, weights)
    parent = {cell: cell for cell in undecided}

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for number in np.flatnonzero(flat >= 0).tolist():
        seen = [c for c in table[number] if c in undecided]
        for cell in seen[1:]:
            parent[root(cell)] = root(seen[0])
    components: dict[int, list[int]] = {}
    for cell in sorted(undecided):
        if any(flat[n] >= 0 for n in table[cell]):
            components.setdefault(root(cell), []).append(cell)
    found = []
    for cells in components.values():
        inside = set(cells)
        touching = {n for c in cells for n in table[c] if flat[n] == COVERED}
        if touching <= inside | known:
            found.append(tuple(cells))
    return found


def edge_alone(board: Board, weights: Weights, edge: tuple[int, ...]) -> Layouts | None:
    """The layouts of ``edge`` played alone (every other covered cell opened as a zero,
    or flagged when a known mine), when its mine count is the same in all of them and
    they are at most :data:`EDGE_LAYOUTS`; ``None`` otherwise."""
    _, known = _undecided_and_known(board, weights)
    inside = set(edge)
    flat = board.grid.reshape(-1).copy()
    for cell in np.flatnonzero(flat == COVERED).tolist():
        if cell not in inside:
            flat[cell] = FLAGGED if cell in known else 0
    flags = int((flat == FLAGGED).sum())
    grid = flat.reshape(board.grid.shape)
    found = None
    for mines in range(len(edge) + 1):
        try:
            layouts = Layouts(Board(grid.copy(), flags + mines), EDGE_LAYOUTS)
        except TooManyLayouts:
            return None
        if len(layouts):
            if found is not None:
                return None  # the mine count varies: tied to the rest by the total
            found = layouts
    return found


@dataclass(frozen=True)
class Pieces:
    """What applies at one decision."""

    chain: bool
    """A closed chain that no forced pair or box covers."""
    edges: int
    """Isolated edges."""
    solved_edges: int
    """Of those, with a fixed mine count and few enough layouts to solve alone."""
    in_edge: bool
    """Search's cell lies in a solved isolated edge."""
    edge_gain: float
    """The edge's exact best probe's win probability minus search's cell's, there
    (0 elsewhere): at most what the game's win probability gains."""
    past_budget: bool
    """Within the endgame's layout limit but decided by the look-ahead."""


def pieces(board: Board, weights: Weights, cell: int, reason: str, endgame_layouts: int) -> Pieces:
    """Which pieces apply at a decision of ``search`` (its ``cell`` and ``reason``)."""
    chain = forced_guess(board, weights) is None and closed_chain(board, weights) is not None
    edges = isolated_edges(board, weights)
    solved, in_edge, gain = 0, False, 0.0
    for edge in edges:
        layouts = edge_alone(board, weights, edge)
        if layouts is None:
            continue
        try:
            endgame = Endgame(layouts, EDGE_BUDGET)
            _, best = endgame.best_probe()
            solved += 1
            if cell in edge:
                in_edge = True
                gain = best - endgame.probe_value(layouts.masks, layouts.cells.index(cell))
        except TooMuchWork:
            continue
    past = reason == "search" and weights.layouts <= endgame_layouts
    return Pieces(chain, len(edges), solved, in_edge, gain, past)
