"""``groups``: the first algorithm of the "Mines" probability tool: groups of cells.

Every probed number gives a group: the covered cells around it and how many of
them are mines, ``(cells, mines)``. The groups are then transformed until
nothing changes:

- two equal groups: the second is dropped;
- one group inside another: it is subtracted from the larger one, so
  (5678, 2) and (5, 1) become (678, 1) and (5, 1);
- two groups that overlap otherwise: with A the one with more mines and B the
  other, the overlap holds at least ``mines(A) - #(A outside the overlap)``
  mines and at most ``mines(B)``. When these are equal the overlap becomes a
  group with ``mines(B)`` mines, B's cells outside it a group with none, and
  A's a group with the rest: (234, 2) and (123, 1) become (23, 1), (1, 0) and
  (4, 1). Otherwise the pair is left alone.

At the end, a group with no mines is all safe, a group with as many mines as
cells all mines. The tool's prose counts "the cells left in the other group"
in the bound; its example cannot tell the groups apart, and only A's leftover
cells make the rule sound, so that is what is used here. Every transformation
keeps the groups equivalent to the numbers, so it is sound; which transformations
fire depends on the order, and this module compares each new or changed group
with every group it overlaps until none changes. No global mine count (the
tool's first algorithm has none).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from typing import TypeVar

from ...core.board import Board
from ...errors import InconsistentBoardError
from ..base import Proof, RuleSet
from .number_constraints import number_constraints

Cell = TypeVar("Cell", bound=Hashable)
Group = tuple[frozenset, int]
"""(cells, mines among them)."""


class _GroupList:
    """The live groups with an index from cell to the groups holding it."""

    def __init__(self) -> None:
        self.groups: dict[int, Group] = {}
        self.by_cell: dict[Hashable, set[int]] = {}
        self.queue: deque[int] = deque()
        self._next_id = 0

    def add(self, cells: frozenset, mines: int) -> None:
        if mines < 0 or mines > len(cells):
            raise InconsistentBoardError(f"a group of {len(cells)} cells would hold {mines} mines")
        if not cells:
            return
        gid = self._next_id
        self._next_id += 1
        self.groups[gid] = (cells, mines)
        for cell in cells:
            self.by_cell.setdefault(cell, set()).add(gid)
        self.queue.append(gid)

    def remove(self, gid: int) -> None:
        cells, _ = self.groups.pop(gid)
        for cell in cells:
            self.by_cell[cell].discard(gid)

    def overlapping(self, gid: int) -> list[int]:
        cells, _ = self.groups[gid]
        found: set[int] = set()
        for cell in cells:
            found |= self.by_cell[cell]
        found.discard(gid)
        return sorted(found)


def _compare(groups: _GroupList, gid: int, hid: int) -> bool:
    """Apply the tool's transformation to groups ``gid`` and ``hid`` (ids in creation
    order, ``gid`` the one being processed); returns whether ``gid`` was replaced."""
    g_cells, g_mines = groups.groups[gid]
    h_cells, h_mines = groups.groups[hid]
    if g_cells == h_cells:
        if g_mines != h_mines:
            raise InconsistentBoardError(
                f"the same {len(g_cells)} cells hold {g_mines} and {h_mines} mines"
            )
        groups.remove(max(gid, hid))  # the later group is "the second"
        return hid < gid
    common = g_cells & h_cells
    if common == g_cells:  # g inside h
        groups.remove(hid)
        groups.add(h_cells - g_cells, h_mines - g_mines)
        return False
    if common == h_cells:  # h inside g
        groups.remove(gid)
        groups.add(g_cells - h_cells, g_mines - h_mines)
        return True
    (a_cells, a_mines), (b_cells, b_mines) = sorted(
        ((g_cells, g_mines), (h_cells, h_mines)), key=lambda group: -group[1]
    )
    if a_mines - len(a_cells - common) != b_mines:
        return False
    groups.remove(gid)
    groups.remove(hid)
    groups.add(common, b_mines)
    groups.add(a_cells - common, a_mines - b_mines)
    groups.add(b_cells - common, 0)
    return True


def simplify_groups(groups: Iterable[tuple[Iterable[Cell], int]]) -> list[tuple[frozenset, int]]:
    """Transform ``(cells, mines)`` groups as the "Mines" tool does, until nothing changes.

    Cells are any hashable labels. Returns the final groups (empty ones dropped).

    :raises InconsistentBoardError: when the groups contradict each other.
    """
    live = _GroupList()
    for cells, mines in groups:
        live.add(frozenset(cells), mines)
    while live.queue:
        gid = live.queue.popleft()
        if gid not in live.groups:
            continue
        for hid in live.overlapping(gid):
            if hid in live.groups and _compare(live, gid, hid):
                break
    return list(live.groups.values())


class GroupRules(RuleSet):
    """The "Mines" tool's first algorithm: group subtraction and intersection to a fixed point."""

    name = "groups"

    def prove(self, board: Board) -> Proof:
        final = simplify_groups((c.unknown, c.need) for c in number_constraints(board))
        safe: set[int] = set()
        mines: set[int] = set()
        for cells, count in final:
            if count == 0:
                safe |= cells
            elif count == len(cells):
                mines |= cells
        return Proof(safe, mines)
