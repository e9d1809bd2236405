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

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED, FLAGGED, neighbour_table
from ...errors import InconsistentBoardError


@dataclass(frozen=True)
class Group:
    """Covered cells (flat indices) that touch exactly the same constraints."""

    cells: tuple[int, ...]
    constraints: tuple[int, ...]
    """Indices into the component's constraint list."""


@dataclass(frozen=True)
class Component:
    """Constraints that share cells, and the groups of cells they cover."""

    numbers: tuple[int, ...]
    """Flat index of the number cell behind each constraint."""
    needs: tuple[int, ...]
    """Mines each constraint still needs among its covered neighbours."""
    groups: tuple[Group, ...]

    @property
    def cell_count(self) -> int:
        return sum(len(group.cells) for group in self.groups)

    def key(self) -> tuple:
        """A hashable description of the counting problem, for caching results."""
        return (self.needs, tuple((g.cells, g.constraints) for g in self.groups))


@dataclass(frozen=True)
class Frontier:
    """A position read as a counting problem."""

    components: tuple[Component, ...]
    off_frontier: tuple[int, ...]
    """Covered cells that touch no number: only the mine total constrains them."""
    mines_left: int | None
    """Total mines minus flags, or ``None`` when the total is unknown."""


def _neighbour_counts(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its neighbours are set in ``mask`` (bool (H, W))."""
    padded = np.pad(mask.astype(np.int16), 1)
    h, w = mask.shape
    total = np.zeros((h, w), dtype=np.int16)
    for dy in range(3):
        for dx in range(3):
            if dx != 1 or dy != 1:
                total += padded[dy : dy + h, dx : dx + w]
    return total


def read_frontier(board: Board, total_mines: int | None = None) -> Frontier:
    """Split ``board`` into independent components; check what can be checked cheaply.

    :param total_mines: overrides ``board.total_mines`` when given.
    :raises InconsistentBoardError: a number with more flags around it than it
        shows, or fewer covered neighbours than mines it still needs, or more
        flags than mines on the board.
    """
    grid = board.grid
    width = board.width
    total = board.total_mines if total_mines is None else total_mines
    covered = grid == COVERED
    numbers = grid >= 0
    need = np.where(numbers, grid.astype(np.int16) - _neighbour_counts(grid == FLAGGED), 0)
    room = _neighbour_counts(covered)
    bad = numbers & ((need < 0) | (need > room))
    if bad.any():
        y, x = (int(v) for v in np.argwhere(bad)[0])
        shown, flags = int(grid[y, x]), int(grid[y, x] - need[y, x])
        raise InconsistentBoardError(
            f"shows {shown} with {flags} flag(s) and {int(room[y, x])} covered neighbour(s)",
            (x, y),
        )
    mines_left = None
    if total is not None:
        mines_left = int(total) - int(np.count_nonzero(grid == FLAGGED))
        if mines_left < 0:
            raise InconsistentBoardError(
                f"{mines_left + int(total)} flags but only {total} mines on the board"
            )
    table = neighbour_table(width, board.height)
    flat = grid.reshape(-1)
    active = np.flatnonzero((numbers & (room > 0)).reshape(-1))
    flat_need = need.reshape(-1)
    # Constraint c: number cell active[c]; cells touching constraints, grouped.
    touching: dict[int, list[int]] = {}
    for c, number in enumerate(active.tolist()):
        for cell in table[number]:
            if flat[cell] == COVERED:
                touching.setdefault(cell, []).append(c)
    parent = list(range(len(active)))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    by_signature: dict[tuple[int, ...], list[int]] = {}
    for cell, cs in touching.items():
        signature = tuple(cs)
        by_signature.setdefault(signature, []).append(cell)
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
            Group(tuple(sorted(cells)), tuple(local[c] for c in signature))
            for signature, cells in sorted(groups_of[r], key=lambda item: min(item[1]))
        )
        components.append(
            Component(
                numbers=tuple(int(active[c]) for c in cs),
                needs=tuple(int(flat_need[active[c]]) for c in cs),
                groups=groups,
            )
        )
    off = tuple(int(i) for i in np.flatnonzero(covered.reshape(-1)) if int(i) not in touching)
    return Frontier(tuple(components), off, mines_left)
