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
from functools import lru_cache

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
    constraint_cells: tuple[tuple[int, ...], ...]
    """The covered cells each constraint sees."""

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


@lru_cache(maxsize=64)
def _gather_table(width: int, height: int) -> np.ndarray:
    """(W*H, 8) flat neighbour indices, padded with W*H (a cell that is always unset).

    Counting a mask's neighbours is then one gather and one sum, which is
    several times cheaper than padding and shifting for board-sized arrays.
    """
    table = neighbour_table(width, height)
    out = np.full((width * height, 8), width * height, dtype=np.intp)
    for index, cells in enumerate(table):
        out[index, : len(cells)] = cells
    return out


def read_frontier(board: Board, total_mines: int | None = None) -> Frontier:
    """Split ``board`` into independent components; check what can be checked cheaply.

    :param total_mines: overrides ``board.total_mines`` when given.
    :raises InconsistentBoardError: a number with more flags around it than it
        shows, or fewer covered neighbours than mines it still needs, or more
        flags than mines on the board.
    """
    width, height = board.width, board.height
    size = width * height
    total = board.total_mines if total_mines is None else total_mines
    flat = board.grid.reshape(-1)
    gather = _gather_table(width, height)
    covered = np.zeros(size + 1, dtype=np.int8)
    covered[:size] = flat == COVERED
    flagged = np.zeros(size + 1, dtype=np.int8)
    flagged[:size] = flat == FLAGGED
    is_number = np.zeros(size + 1, dtype=np.int8)
    is_number[:size] = flat >= 0
    numbers = is_number[:size].astype(bool)
    room = covered[gather].sum(axis=1)
    need = flat - flagged[gather].sum(axis=1)
    bad = numbers & ((need < 0) | (need > room))
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        x, y = index % width, index // width
        raise InconsistentBoardError(
            f"shows {int(flat[index])} with {int(flat[index] - need[index])} flag(s) "
            f"and {int(room[index])} covered neighbour(s)",
            (x, y),
        )
    mines_left = None
    if total is not None:
        flags = int(flagged.sum())
        mines_left = int(total) - flags
        if mines_left < 0:
            raise InconsistentBoardError(f"{flags} flags but only {total} mines on the board")
    active = np.flatnonzero(numbers & (room > 0)).tolist()
    needs = need[active].tolist()
    table = neighbour_table(width, height)
    is_covered = covered.tolist()
    # Constraint c: the number at active[c]; which constraints each cell touches.
    touching: dict[int, list[int]] = {}
    cells_of: list[list[int]] = []
    for c, number in enumerate(active):
        cells = [cell for cell in table[number] if is_covered[cell]]
        cells_of.append(cells)
        for cell in cells:
            if cell in touching:
                touching[cell].append(c)
            else:
                touching[cell] = [c]
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
            )
        )
    off = tuple(np.flatnonzero(covered[:size] & (is_number[gather].sum(axis=1) == 0)).tolist())
    return Frontier(tuple(components), off, mines_left)
