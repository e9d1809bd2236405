"""The IOCCC 2020 endoh1 rule sets: ``endoh`` (``prog.c``) and ``endoh-alt`` (``prog.alt.c``).

Yusuke Endoh's semi-automatic Minesweeper (the IOCCC entry) describes four rules and
adds: "these complex rules can be integrated to one simple rule. Analyze the
code." This is that analysis.

What the program stores
    One ``int`` per cell: bit 0 a mine, bit 4 (16) still covered, bit 8 (256)
    flagged, bit 12 (4096) a scratch mark. Its helper ``F(p)`` toggles the mark
    on every covered cell around ``p`` and returns the sum of the 3x3 block's
    words. Because each field is a 4-bit digit of that sum, one addition counts
    four things at once: the low digit is the mines of the block (for a probed
    cell, its number), the next the covered cells, the next the flags, the top
    one the marked cells.

The one rule (``K(p, f, g)``)
    Take two probed cells A (``p``) and B (``q``), with ``rem`` = number minus
    flags around each and ``P``, ``Q`` their sets of covered unflagged
    neighbours. Calling ``F(p)`` then ``F(q)`` leaves a mark exactly on the
    symmetric difference of ``P`` and ``Q`` (cells in both are toggled twice),
    so ``g``'s top digit is ``|Q \\ P|`` and the marked cells around A are
    ``P \\ Q``. ``K`` computes ``x = (g + f/256) % 16 - (f + g/256) % 16``,
    which is ``(number(B) + flags(A)) - (number(A) + flags(B))``, that is
    ``x = rem(B) - rem(A)`` (the ``% 16`` only wraps when A or B has eight
    flags around it; that cell then has no covered neighbour, and the
    ``g = 0`` call below already decides all the pair could). Then:

    * if ``x == |Q \\ P|``, B's cells outside A cannot hold more than
      ``|Q \\ P|`` mines, so the shared cells hold at least ``rem(A)``: every
      cell of ``P \\ Q`` is safe and is probed;
    * if ``-x == |P \\ Q|``, A needs ``|P \\ Q|`` more mines than the shared
      cells can give: every cell of ``P \\ Q`` is a mine and is flagged.

    The program calls ``K`` first with ``g = 0``: B is then an imaginary cell
    with no covered neighbours and nothing left to find, and the two cases
    become rule 1 (``rem(A) == 0``: probe everything around A) and rule 2
    (``rem(A) == |P|``: flag everything). With a real B within two cells of A
    (the 5x5 window it scans, the only cells that can share a neighbour with
    A) the same two lines are rules 3 and 4. That is the "one simple rule":
    *if the difference of two numbers' remaining mines equals the number of
    covered cells one of them has outside the other, those cells are decided.*

    One premise, read from both ends, gives both halves: ``x == |Q \\ P|``
    also makes every cell of ``Q \\ P`` a mine, which is what ``K(q, p)``
    concludes when the scan reaches B. So here one test of a pair decides
    both difference sets.

What else the program does, and what we do
    * It applies one deduction per 9 ms tick between clicks, scanning cells in
      priority order. Each rule's premise, once true, stays true as correct
      knowledge is added (a flag in ``Q \\ P`` lowers both ``rem(B)`` and
      ``|Q \\ P|``; anything in ``P & Q`` moves both sides alike), so every
      order reaches the same settled board. We compute that board directly.
    * A probe opens one cell; zeros spread only through rule 1. Our core
      floods zeros at once, which rule 1 would do anyway.
    * ``prog.c`` only: when the mines left (its counter) equal the covered
      unflagged cells left, and are not zero, it flags them all (the counting
      rule its author added after the judges found ``unwinnable.txt``).
      ``prog.alt.c`` has no such rule, so a mine no number touches is never
      flagged and the game, won only when nothing is covered and unflagged,
      cannot end. Neither program opens the cells when no mines are left.
    * ``prog.c`` evaluates the counting rule in its drawing code, so it keeps
      running after a loss and can then flag safe cells. Ours stops at the
      loss (the game stops calling the solver).

Speed
    ``prove`` works only around numbers next to covered cells: it builds a
    bitmask of covered neighbours and a remaining-mine count for those numbers
    alone, then runs a work list in which a decided cell re-queues just the
    numbers around it. Each instance also remembers its last settled position:
    when the next board it is given only adds knowledge to it (the auto-solver's
    case: the cells it proved have been opened or flagged, nothing else
    changed), the work list starts from the changed cells instead of the whole
    board. Any other board (smaller knowledge, another size or mine total)
    starts afresh, so results never depend on the call history. That memory
    makes an instance belong to one game at a time (``Game`` makes its own);
    do not share one between threads. ``prove`` returns everything the rules
    decide before any new number is seen, so ``deduce`` needs one more call
    only to find that nothing changes.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core.board import Board
from ...core.cells import COVERED, FLAGGED, KNOWN_SAFE, adjacent_mine_counts, neighbour_table
from ..base import Proof, RuleSet


def _cells(mask: int) -> list[int]:
    """Flat indices of the set bits of ``mask``."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


class _Settling:
    """The work-list state of one position: what is known, and each number's open question.

    ``view`` holds the board's codes with decided cells overwritten
    (``KNOWN_SAFE`` / ``FLAGGED``). For every probed cell, ``covered[p]`` is the
    bitmask of its undecided neighbours and ``left[p]`` its number minus the
    mines (flags or decided) around it.
    """

    def __init__(self, board: Board, count_rule: bool):
        self.width, self.height = board.width, board.height
        self.neighbours = neighbour_table(self.width, self.height)
        self.window = neighbour_table(self.width, self.height, radius=2)
        self.count_rule = count_rule
        self.total_mines = board.total_mines
        grid = board.grid
        self.board_view = grid.reshape(-1).copy()
        self.view: list[int] = self.board_view.tolist()
        size = len(self.view)
        self.covered = [0] * size
        self.left = [0] * size
        unknown = grid == COVERED
        self.unknown_count = int(np.count_nonzero(unknown))
        self.flag_count = int(np.count_nonzero(grid == FLAGGED))
        self.safe: set[int] = set()
        self.mines: set[int] = set()
        # Only numbers with an undecided neighbour can prove anything.
        frontier = np.flatnonzero(((grid >= 0) & (adjacent_mine_counts(unknown) > 0)).reshape(-1))
        for p in frontier.tolist():
            self._read_number(p)
        self.queue: list[int] = frontier.tolist()
        self.queued = set(self.queue)

    # -- learning -----------------------------------------------------------------

    def _read_number(self, p: int) -> None:
        """Record number cell ``p``'s covered neighbours (a bitmask) and its mines left."""
        view = self.view
        mask, left = 0, view[p]
        for n in self.neighbours[p]:
            v = view[n]
            if v == COVERED:
                mask |= 1 << n
            elif v == FLAGGED:
                left -= 1
        self.covered[p] = mask
        self.left[p] = left

    def _push(self, p: int) -> None:
        if p not in self.queued:
            self.queued.add(p)
            self.queue.append(p)

    def decide(self, cell: int, mine: bool) -> None:
        """Record a cell decided by a rule (or learned from the board)."""
        view = self.view
        if view[cell] != COVERED:
            return
        view[cell] = FLAGGED if mine else KNOWN_SAFE
        (self.mines if mine else self.safe).add(cell)
        self.unknown_count -= 1
        self._forget_covered(cell, mine)

    def _forget_covered(self, cell: int, mine: bool) -> None:
        if mine:
            self.flag_count += 1
        clear = ~(1 << cell)
        view, covered, left = self.view, self.covered, self.left
        for n in self.neighbours[cell]:
            if view[n] >= 0:
                covered[n] &= clear
                if mine:
                    left[n] -= 1
                self._push(n)

    def learn_number(self, cell: int, number: int) -> None:
        """A cell was probed and shows ``number``: it becomes a constraint of its own."""
        view = self.view
        before = view[cell]
        view[cell] = number
        if before == COVERED:
            self.unknown_count -= 1
            self._forget_covered(cell, mine=False)
        self._read_number(cell)
        self._push(cell)

    # -- the rules ----------------------------------------------------------------

    def settle(self) -> None:
        """Apply the one rule (and ``prog.c``'s counting rule) until nothing changes."""
        while True:
            self._run_queue()
            if not self._count_rule():
                return

    def _run_queue(self) -> None:
        view, covered, left, window = self.view, self.covered, self.left, self.window
        queue, queued = self.queue, self.queued
        while queue:
            p = queue.pop()
            queued.discard(p)
            around_p = covered[p]
            if not around_p:
                continue
            # The pair with the imaginary empty cell: rules 1 and 2.
            if left[p] == 0 or left[p] == around_p.bit_count():
                mine = left[p] > 0
                for c in _cells(around_p):
                    self.decide(c, mine)
                continue
            # Real pairs: rules 3 and 4, both directions at once.
            for q in window[p]:
                if view[q] < 0:
                    continue
                around_p = covered[p]
                around_q = covered[q]
                if not around_q or not around_p:
                    continue
                only_p = around_p & ~around_q
                only_q = around_q & ~around_p
                if not only_p and not only_q:
                    continue
                difference = left[q] - left[p]
                if difference == only_q.bit_count():
                    safe, mines = only_p, only_q
                elif -difference == only_p.bit_count():
                    safe, mines = only_q, only_p
                else:
                    continue
                for c in _cells(safe):
                    self.decide(c, mine=False)
                for c in _cells(mines):
                    self.decide(c, mine=True)

    def _count_rule(self) -> bool:
        """``prog.c``: covered cells left == mines left > 0 -> all are mines."""
        if not self.count_rule or self.total_mines is None:
            return False
        mines_left = self.total_mines - self.flag_count
        if mines_left <= 0 or self.unknown_count != mines_left:
            return False
        for cell, v in enumerate(self.view):
            if v == COVERED:
                self.decide(cell, mine=True)
        return True

    # -- reuse --------------------------------------------------------------------

    def extend_to(self, board: Board) -> bool:
        """Take in a board that only adds knowledge to the last one; False if it does not."""
        if (
            board.width != self.width
            or board.height != self.height
            or board.total_mines != self.total_mines
        ):
            return False
        new = board.grid.reshape(-1)
        old = self.board_view
        changed = np.flatnonzero(new != old).tolist()
        if not changed:
            return True
        # Every change must add knowledge: covered -> anything, known safe -> a number.
        updates = []
        for cell in changed:
            before, after = int(old[cell]), int(new[cell])
            if before == COVERED or (before == KNOWN_SAFE and after >= 0):
                updates.append((cell, after))
            else:
                return False
        view = self.view
        for cell, after in updates:
            if after >= 0:
                if view[cell] == FLAGGED:
                    return False  # a number where we proved a mine: inconsistent, start afresh
                self.learn_number(cell, after)
            elif after == FLAGGED:
                if view[cell] == COVERED:
                    self.decide(cell, mine=True)
                elif view[cell] == KNOWN_SAFE:
                    return False  # a flag on a cell we proved safe: inconsistent, start afresh
            elif view[cell] == COVERED:  # KNOWN_SAFE from outside
                self.decide(cell, mine=False)
            elif view[cell] == FLAGGED:
                return False
        self.board_view = new.copy()
        return True


class _EndohRules(RuleSet):
    """The one rule of the IOCCC program; subclasses choose the counting rule."""

    count_rule: ClassVar[bool]

    def __init__(self) -> None:
        self._last: _Settling | None = None

    def reset(self) -> None:
        """Forget the last settled position."""
        self._last = None

    def prove(self, board: Board) -> Proof:
        state = self._last
        if state is None or not state.extend_to(board):
            state = _Settling(board, self.count_rule)
        state.settle()
        self._last = state
        flat = board.grid.reshape(-1)
        safe = {c for c in state.safe if flat[c] == COVERED}
        mines = {c for c in state.mines if flat[c] == COVERED}
        # Drop what the board now shows, so the sets stay small over a long game.
        state.safe = safe.copy()
        state.mines = mines.copy()
        return Proof(safe, mines)


class Endoh(_EndohRules):
    """``prog.c``: the one rule plus "covered cells left == mines left: flag them all"."""

    name = "endoh"
    count_rule = True


class EndohAlt(_EndohRules):
    """``prog.alt.c``: the one rule alone; a mine no number touches is never flagged."""

    name = "endoh-alt"
    count_rule = False
