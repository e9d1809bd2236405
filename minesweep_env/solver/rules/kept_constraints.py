"""The constraints of a position kept up to date move by move, instead of read afresh.

The auto-solver hands its rule set one position after another, each the last
one plus a few flags and a few opened cells. Re-reading the whole board every
time (:func:`~minesweep_env.solver.probability.frontier.read_constraints`) costs
the same on move 50 as on move 1; here a changed cell only adjusts the numbers
around it (a newly shown number is read), so a call costs what changed. Any
board may come next: the changed cells are found by comparing it with the
remembered one, and a board of another size or mine total is read from scratch.

The result is exactly what :func:`read_constraints` gives on the same board
(its :meth:`TrackedConstraints.constraints` builds that record, in the same
order), and the same boards are rejected with the same error, because any
doubt is settled by calling :func:`read_constraints` itself.
"""

from __future__ import annotations

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED, FLAGGED, neighbour_table
from ..probability.frontier import Constraints, read_constraints


class TrackedConstraints:
    """Every number that still touches a covered cell, keyed by the number's flat index.

    A number is a *constraint* while it has covered neighbours: :attr:`need` is
    its value minus the flags around it, :attr:`cells` its covered neighbours.
    :attr:`dirty` collects the constraints that changed since a caller last
    emptied it (the cheap rules of ``complete`` look only at those).

    :raises InconsistentBoardError: as :func:`read_constraints`, for a board
        that some number (or the mine total) rules out at a glance.
    """

    def __init__(self, board: Board) -> None:
        # The fresh read does the checks (and raises their error for a bad board).
        fresh = read_constraints(board)
        self.width, self.height = board.width, board.height
        self.total_mines = board.total_mines
        self._table = neighbour_table(self.width, self.height)
        flat = board.grid.reshape(-1)
        self._grid = flat.copy()
        self._view: list[int] = flat.tolist()
        numbers = fresh.numbers
        self.need: dict[int, int] = dict(zip(numbers, fresh.needs, strict=True))
        self.cells: dict[int, set[int]] = {
            number: set(cells) for number, cells in zip(numbers, fresh.cells, strict=True)
        }
        self.touching: dict[int, set[int]] = {
            cell: {numbers[c] for c in users} for cell, users in fresh.touching.items()
        }
        self.off: set[int] = set(fresh.off_frontier)
        self.dirty: set[int] = set(numbers)
        self.covered = int(np.count_nonzero(flat == COVERED))
        self.flags = int(np.count_nonzero(flat == FLAGGED))

    @property
    def mines_left(self) -> int | None:
        """Total mines minus flags, or ``None`` when the total is unknown."""
        return None if self.total_mines is None else self.total_mines - self.flags

    def update(self, board: Board) -> bool:
        """Take in ``board``: each changed cell adjusts the numbers around it.

        Returns False, changing nothing, for a board of another size or mine
        total (read it from scratch). Returns True when the constraints are
        ``board``'s.

        :raises InconsistentBoardError: as :func:`read_constraints`; the
            constraints are then of no board, and the caller must drop them.
        """
        if (
            board.width != self.width
            or board.height != self.height
            or board.total_mines != self.total_mines
        ):
            return False
        flat = board.grid.reshape(-1)
        changed = np.flatnonzero(flat != self._grid).tolist()
        if not changed:
            return True
        view, table = self._view, self._table
        need, cells_of, touching = self.need, self.cells, self.touching
        touched: set[int] = set()
        fresh: list[int] = []
        around: list[int] = changed[:]
        for cell in changed:
            before, after = view[cell], int(flat[cell])
            view[cell] = after
            # What the change does to the numbers around it, one step each way.
            if before == COVERED:
                self.covered -= 1
                for number in touching.pop(cell, ()):
                    cells_of[number].discard(cell)
                    touched.add(number)
            elif before == FLAGGED:
                self.flags -= 1
                for number in table[cell]:
                    if number in need:
                        need[number] += 1
                        touched.add(number)
            elif before >= 0:
                if cell in need:
                    self._drop(cell)
                around.extend(table[cell])  # its neighbours may now touch no number
            if after == COVERED:
                self.covered += 1
                for number in table[cell]:
                    if number in need:
                        cells_of[number].add(cell)
                        touching.setdefault(cell, set()).add(number)
                        touched.add(number)
            elif after == FLAGGED:
                self.flags += 1
                for number in table[cell]:
                    if number in need:
                        need[number] -= 1
                        touched.add(number)
            elif after >= 0:
                fresh.append(cell)
            if before != COVERED and (after == COVERED or FLAGGED in (before, after)):
                # A number with nothing covered around it has no constraint to adjust:
                # read it again (a cell around it is covered again, or its flags changed).
                # Not when the cell was covered: every number around it then either
                # had it among its cells, or is one this change list opens (read anyway).
                fresh.extend(n for n in table[cell] if view[n] >= 0 and n not in need)
        self._grid[changed] = flat[changed]
        bad = False
        for number in fresh:
            if view[number] >= 0:  # a later change in the list may have covered it again
                bad |= not self._read_number(number)
                touched.discard(number)
        for number in touched:
            if number not in need:
                continue
            cells = cells_of[number]
            if not cells:
                bad |= need[number] != 0
                self._drop(number)
                continue
            bad |= not 0 <= need[number] <= len(cells)
            self.dirty.add(number)
        if bad or (self.total_mines is not None and self.flags > self.total_mines):
            read_constraints(board)  # raises the error a fresh read gives
        self._refresh_off(around)
        return True

    def _read_number(self, number: int) -> bool:
        """(Re)read the constraint of the number at ``number``; False if it cannot hold."""
        view = self._view
        cells = set()
        flags = 0
        for cell in self._table[number]:
            code = view[cell]
            if code == COVERED:
                cells.add(cell)
            elif code == FLAGGED:
                flags += 1
        need = view[number] - flags
        if not cells:
            if number in self.need:
                self._drop(number)
            return need == 0
        old = self.cells.get(number)
        touching = self.touching
        if old is None:
            for cell in cells:
                touching.setdefault(cell, set()).add(number)
        elif old != cells:
            for cell in old - cells:
                users = touching[cell]
                users.discard(number)
                if not users:
                    del touching[cell]
            for cell in cells - old:
                touching.setdefault(cell, set()).add(number)
        self.cells[number] = cells
        self.need[number] = need
        self.off.difference_update(cells)
        self.dirty.add(number)
        return 0 <= need <= len(cells)

    def _drop(self, number: int) -> None:
        """The number at ``number`` is no constraint any more (gone, or nothing left covered)."""
        touching = self.touching
        for cell in self.cells.pop(number):
            users = touching[cell]
            users.discard(number)
            if not users:
                del touching[cell]
        del self.need[number]
        self.dirty.discard(number)

    def _refresh_off(self, cells) -> None:
        """Covered cells that no number touches: only the mine total constrains them."""
        view, touching, off = self._view, self.touching, self.off
        for cell in cells:
            if view[cell] == COVERED and cell not in touching:
                off.add(cell)
            else:
                off.discard(cell)

    def constraints(self) -> Constraints:
        """The same record :func:`read_constraints` gives on the remembered board, in its order.

        Numbers row-major, each one's cells in neighbour order, cells keyed in
        order of first sight: so the engine meets the same components, groups
        and cache keys as on a fresh read.
        """
        numbers = sorted(self.need)
        need, cells_of, table = self.need, self.cells, self._table
        cells: list[list[int]] = []
        touching: dict[int, list[int]] = {}
        for c, number in enumerate(numbers):
            mine = cells_of[number]
            ordered = [cell for cell in table[number] if cell in mine]
            cells.append(ordered)
            for cell in ordered:
                if cell in touching:
                    touching[cell].append(c)
                else:
                    touching[cell] = [c]
        return Constraints(
            numbers,
            [need[n] for n in numbers],
            cells,
            touching,
            tuple(sorted(self.off)),
            self.mines_left,
            self.width,
        )


__all__ = ["TrackedConstraints"]
