"""From a position to the counting problem: numbers, groups of cells and components.

Every probed number says how many mines its covered neighbours hold once its
flags are subtracted: a *constraint*. Covered cells that touch exactly the same
constraints are interchangeable, so they are merged into one *group*; only the
number of mines in a group matters, and a group of s cells holding m mines
stands for C(s, m) layouts. Constraints that share no cell, directly or through
a chain, are independent: each *component* is counted on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED, FLAGGED, neighbour_table
from ...errors import InconsistentBoardError
from ..numbers import read_numbers


class Group(NamedTuple):
    """Covered cells (flat indices) that touch exactly the same constraints."""

    cells: tuple[int, ...]
    constraints: tuple[int, ...]
    """Indices into the component's constraint list."""


class Component(NamedTuple):
    """Constraints that share cells, and the groups of cells they cover.

    A named tuple (not a dataclass): positions are read thousands of times per
    second by the auto-solver, and tuples are the cheapest records to build.
    """

    numbers: tuple[int, ...]
    """Flat index of the number cell behind each constraint."""
    needs: tuple[int, ...]
    """Mines each constraint still needs among its covered neighbours."""
    groups: tuple[Group, ...]
    constraint_cells: tuple[tuple[int, ...], ...]
    """The covered cells each constraint sees."""
    board_width: int = 0
    """Width of the board, to read cells as (x, y) when ordering the count (0: unknown)."""

    @property
    def cell_count(self) -> int:
        return sum(len(group.cells) for group in self.groups)

    def key(self) -> tuple:
        """A hashable description of the counting problem, for caching results."""
        return (self.needs, self.groups)


@dataclass(frozen=True)
class Frontier:
    """A position read as a counting problem."""

    components: tuple[Component, ...]
    off_frontier: tuple[int, ...]
    """Covered cells that touch no number: only the mine total constrains them."""
    mines_left: int | None
    """Total mines minus flags, or ``None`` when the total is unknown."""


class Constraints(NamedTuple):
    """Every number that still touches a covered cell, as a constraint on those cells."""

    numbers: list[int]
    """Flat index of each constraint's number."""
    needs: list[int]
    """Mines each still needs: its number minus the flags around it."""
    cells: list[list[int]]
    """The covered cells each sees."""
    touching: dict[int, list[int]]
    """For every frontier cell, the constraints (indices) it touches, in order."""
    off_frontier: tuple[int, ...]
    """Covered cells that touch no number: only the mine total constrains them."""
    mines_left: int | None
    """Total mines minus flags, or ``None`` when the total is unknown."""
    board_width: int = 0
    """Width of the board the cells are on."""


def read_frontier(board: Board, total_mines: int | None = None) -> Frontier:
    """Split ``board`` into independent components; check what can be checked cheaply.

    :param total_mines: overrides ``board.total_mines`` when given.
    :raises InconsistentBoardError: see :func:`read_constraints`.
    """
    return split_components(read_constraints(board, total_mines))


def read_constraints(board: Board, total_mines: int | None = None) -> Constraints:
    """The constraints of ``board``'s numbers; check what can be checked cheaply.

    :param total_mines: overrides ``board.total_mines`` when given.
    :raises InconsistentBoardError: a number that cannot hold (see
        :func:`~minesweep_env.solver.numbers.read_numbers`), or more flags than
        mines on the board.
    """
    width = board.width
    total = board.total_mines if total_mines is None else total_mines
    flat, need, room, near_number = read_numbers(board)
    numbers = flat >= 0
    mines_left = None
    if total is not None:
        flags = int(np.count_nonzero(flat == FLAGGED))
        mines_left = int(total) - flags
        if mines_left < 0:
            raise InconsistentBoardError(f"{flags} flags but only {total} mines on the board")
    active_mask = numbers & (room > 0)
    active = np.flatnonzero(active_mask).tolist()
    needs = need[active_mask].tolist()
    covered = flat == COVERED
    off = np.flatnonzero(covered & ~near_number).tolist()
    is_covered = covered.tolist()
    table = neighbour_table(width, board.height)
    cells_of: list[list[int]] = []
    # Constraint c: the number at active[c]; which constraints each cell touches.
    touching: dict[int, list[int]] = {}
    for c, index in enumerate(active):
        cells = [cell for cell in table[index] if is_covered[cell]]
        cells_of.append(cells)
        for cell in cells:
            if cell in touching:
                touching[cell].append(c)
            else:
                touching[cell] = [c]
    return Constraints(active, needs, cells_of, touching, tuple(off), mines_left, width)


def split_components(constraints: Constraints) -> Frontier:
    """Group cells that touch the same constraints; split constraints sharing no cell."""
    active, needs, cells_of, touching = constraints[:4]
    parent = list(range(len(active)))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    by_signature: dict[tuple[int, ...], list[int]] = {}
    for cell, cs in touching.items():
        signature = tuple(cs)
        if signature in by_signature:
            by_signature[signature].append(cell)
            continue
        by_signature[signature] = [cell]
        first = root(cs[0])
        for c in cs[1:]:
            other = root(c)
            if other != first:
                parent[other] = first
    members: dict[int, list[int]] = {}
    for c in range(len(active)):
        members.setdefault(root(c), []).append(c)
    groups_of: dict[int, list[tuple[tuple[int, ...], list[int]]]] = {}
    for signature, cells in by_signature.items():
        groups_of.setdefault(root(signature[0]), []).append((signature, cells))
    components = []
    for r, cs in members.items():
        local = {c: i for i, c in enumerate(cs)}
        groups = tuple(
            Group(tuple(cells), tuple(local[c] for c in signature))
            for signature, cells in groups_of[r]
        )
        components.append(
            Component(
                numbers=tuple(active[c] for c in cs),
                needs=tuple(needs[c] for c in cs),
                groups=groups,
                constraint_cells=tuple(tuple(cells_of[c]) for c in cs),
                board_width=constraints.board_width,
            )
        )
    return Frontier(tuple(components), constraints.off_frontier, constraints.mines_left)
