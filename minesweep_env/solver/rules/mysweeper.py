"""``mysweeper``: the four implemented rules of MySweeper 1.08.

MySweeper looks at one exposed cell, or at a pair of exposed cells at most two
cells apart, and never chains deductions inside one pass ("one-level rules, not
transitive cases"); it does not use the global mine count (its rule 6 is
unimplemented). In MySweeper's words, for an exposed cell with ``R`` its
unexposed unflagged neighbours and ``REST`` its number minus its adjacent flags:

1. ``REST == 0``: every cell of ``R`` is blank (safe).
2. ``REST == #R``: every cell of ``R`` is a mine.
3. For two exposed cells #1 and #2 within two cells of each other: if
   ``R1`` is a subset of ``R2`` and ``REST1 == REST2``, every cell of
   ``R2 \\ R1`` is blank.
4. If ``REST1 < #(R1 & R2)`` and ``REST2 - REST1 == #(R2 \\ R1)``, every cell
   of ``R2 \\ R1`` is a mine and every cell of ``R1 \\ R2`` is blank.

Rule 4's first condition is kept as written although the conclusion would hold
without it: it only excludes ``REST1 == #(R1 & R2)``, where rule 2 on cell #2
and then rule 1 on cell #1 reach the same cells one step later, so the fixed
point (:func:`minesweep_env.deduce`, the auto-solver) is the same either way.
Cells within two cells is no restriction either: cells further apart share no
neighbour, and then rules 3 and 4 cannot fire.

Cells already proven safe (``KNOWN_SAFE``) count as known blanks, flags as
mines: in a game every proven cell is probed or flagged at once, so this only
matters for :func:`minesweep_env.deduce`.
"""

from __future__ import annotations

from ...core.board import Board
from ..base import Proof, RuleSet
from .number_constraints import number_constraints

_PAIR_OFFSETS = tuple((dx, dy) for dy in range(-2, 3) for dx in range(-2, 3) if (dx, dy) != (0, 0))


class MySweeperRules(RuleSet):
    """MySweeper 1.08 rules 1-4: single cells and pairs of exposed cells, one level."""

    name = "mysweeper"

    def prove(self, board: Board) -> Proof:
        width, height = board.width, board.height
        constraints = number_constraints(board)
        safe: set[int] = set()
        mines: set[int] = set()
        regions = {c.cell: (frozenset(c.unknown), c.need) for c in constraints}
        for c in constraints:
            if c.need == 0:  # rule 1
                safe.update(c.unknown)
            elif c.need == len(c.unknown):  # rule 2
                mines.update(c.unknown)
        for cell, (r1, rest1) in regions.items():
            x, y = cell % width, cell // width
            for dx, dy in _PAIR_OFFSETS:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < width and 0 <= ny < height):
                    continue
                other = regions.get(ny * width + nx)
                if other is None:
                    continue
                r2, rest2 = other
                common = len(r1 & r2)
                if common == 0:
                    continue
                if common == len(r1) and rest1 == rest2:  # rule 3
                    safe.update(r2 - r1)
                if rest1 < common and rest2 - rest1 == len(r2) - common:  # rule 4
                    mines.update(r2 - r1)
                    safe.update(r1 - r2)
        return Proof(safe, mines)
