""":func:`~.generator_check.solvable` with its cheap rules compiled: the same verdict, faster.

The Python check plays openings, the one-cell rules and the two-number rule on
worklists and asks the rule set only when they are stuck. Here
:func:`~.generator_check_compiled.settle` plays those same rules
in one compiled call up to the stall; the stall is answered as before (for
``substitution`` by :class:`~.elimination.SubstitutionStall`, else by the rule
set), its proof is handed back to :func:`settle`, and so on. The verdict is the
same for the reason the Python check's is (see :mod:`.generator_check`): the cheap
rules only conclude what the rule set concludes, so every order of playing
sound conclusions ends in the same position.
``tests/minesweep_env/generation/test_compiled_check.py`` compares the verdicts with the
Python ones on many layouts.
"""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from ..core.cells import COVERED, FLAGGED, neighbour_table
from ..solver.base import Proof, RuleSet
from ..solver.rules.number_constraints import NumberConstraint
from ..solver.rules.substitution import SubstitutionRules
from .elimination import SubstitutionStall

_NO_CELLS = np.empty(0, dtype=np.int64)


class _Settled:
    """A position :func:`settle` left stuck, as :class:`~.elimination.SubstitutionStall`
    reads a play: its numbers, the flags, the layout."""

    def __init__(self, view: np.ndarray, mines: list[bool], mine_count: int, shape: tuple):
        self.grid = view.reshape(shape)
        self.view = view.tolist()
        self.mines = mines
        self.mine_count = mine_count
        self.flags = self.view.count(FLAGGED)
        self.neighbours = neighbour_table(shape[1], shape[0])

    def constraints(self) -> list[NumberConstraint]:
        """The numbers touching covered cells, as :func:`number_constraints` reads them."""
        view, neighbours = self.view, self.neighbours
        height, width = self.grid.shape
        covered = np.pad(self.grid == COVERED, 1)
        around = sum(
            covered[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width].astype(np.int8)
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if dx or dy
        )
        found = []
        for cell in np.flatnonzero((self.grid > 0) & (around > 0)).tolist():
            unknown = tuple(n for n in neighbours[cell] if view[n] == COVERED)
            flags = sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
            found.append(NumberConstraint(cell, view[cell] - flags, unknown))
        return found

    def board(self) -> Board:
        return Board(self.grid.copy(), self.mine_count)


def solvable_compiled(mines: np.ndarray, start: tuple[int, int], rules: RuleSet) -> bool:
    """The verdict of :func:`~.generator_check.solvable` after its early rejections, for a rule
    set of :data:`~.generator_check.SAME_FIXED_POINT`, with the cheap rules compiled."""
    from .generator_check_compiled import settle

    height, width = mines.shape
    flat = np.array(mines.reshape(-1), dtype=bool)  # a writable copy: the kernel's type
    view = np.full(flat.size, COVERED, dtype=np.int8)
    opens = np.array([start[1] * width + start[0]], dtype=np.int64)
    flags = _NO_CELLS
    stall = SubstitutionStall(rules) if type(rules) is SubstitutionRules else None
    truth: list[bool] | None = None
    mine_count = int(np.count_nonzero(flat))
    while True:
        left = settle(flat, view, height, width, opens, flags)
        if left < 0:
            raise AssertionError("a cell proven safe holds a mine")
        if not left:
            return True
        if truth is None:
            truth = flat.tolist()
        position = _Settled(view, truth, mine_count, (height, width))
        proof: Proof = stall(position) if stall is not None else rules.prove(position.board())
        if not proof.safe and not proof.mines:
            return False
        opens = np.array(sorted(proof.safe), dtype=np.int64)
        flags = np.array(sorted(proof.mines), dtype=np.int64)
