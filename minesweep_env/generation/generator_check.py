"""The generator's solvability check: :func:`is_solvable`'s verdict, found with less work.

The no-guess generator asks "solvable from the start?" of many random layouts
and most say no, so the check is the generator's cost. :func:`solvable` gives
exactly ``bool(is_solvable(MineLayout(mines), start, rule_set))`` and gets there
three ways cheaper:

1. **A layout no player can finish is turned down before any solving.** If
   some mines and as many safe cells (not the start) could trade places without
   changing the number of any other safe cell, then every position the game can
   reach also fits the layout with them traded (the same mine count, those safe
   cells all mines there), so no sound rule set ever proves one of them safe,
   and no opening reaches one (a zero next to one would see a mine in the
   traded layout). The common cases are a mine and a safe cell side by side
   against the edge or a wall of mines, and a 2x2 block with mines on one
   diagonal walled in at its corners: together about half the failing expert
   layouts, many of which would otherwise be played nearly to the end.
2. **Cheap rules first, incrementally.** Openings and the one-cell rules work
   on a list of the numbers that changed, and the rule of two numbers sharing
   cells (with A-only and B-only the cells one sees and the other does not: if
   rem(A) - rem(B) = #A-only, A-only are mines and B-only safe) only revisits
   pairs where a number changed. Only when both are stuck is the rule set asked.
3. **The rule set's answer per frontier group, remembered, knowing the
   layout.** For ``substitution`` its elimination step is run on each group of
   numbers that share covered cells, a group that has not changed since the
   last stall is not tried again (see :class:`.elimination.SubstitutionStall`), and the
   step itself tries far fewer substitutions because the true layout is known
   (see :func:`.elimination.eliminate_knowing`). It uses the rule set's own consistency
   check (``substitution._Propagator``), so the rule is stated once.

Why the verdict is the same: the auto-solver plays a rule set's proofs until it
proves nothing. For the rule sets in :data:`SAME_FIXED_POINT`, what the rule set
concludes only grows as the position gains openings and flags, and the cheap
rules above only conclude what the rule set itself concludes on the same
position (``complete`` proves everything provable; ``substitution``'s
elimination finds each one-cell and two-number conclusion, since a substitution
against one would overfill or underfill the other number). So any order of
playing sound conclusions that stops only where the rule set proves nothing
ends in the same position. Other rule sets get step 1 and then
:func:`is_solvable` itself. Once the compiled kernels are loaded (see
:data:`COMPILE_AFTER`), step 2 runs compiled (:mod:`.compiled_check`):
the same verdicts, a layout's cheap play in one call.
``tests/minesweep_env/generation/test_generator_check.py`` compares the verdicts on random
layouts, solvable and not, and each elimination with the rule set's own.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..compiled import loaded as kernels_loaded
from ..compiled import ready as kernels_ready
from ..core.board import Board
from ..core.cells import COVERED, FLAGGED, adjacent_mine_counts, neighbour_table
from ..core.layout import MineLayout
from ..solver.base import Proof, RuleSet
from ..solver.registry import get_rule_set
from ..solver.rules.complete import Complete
from ..solver.rules.number_constraints import NumberConstraint
from ..solver.rules.substitution import SubstitutionRules
from .compiled_check import solvable_compiled
from .elimination import SubstitutionStall
from .solvability import is_solvable

SAME_FIXED_POINT: tuple[type[RuleSet], ...] = (Complete, SubstitutionRules)
"""Rule sets whose auto-solver fixed point this module reaches with its own cheap rules."""


Offset = tuple[int, int]
SwapPattern = tuple[tuple[Offset, ...], tuple[Offset, ...], tuple[Offset, ...]]


def _around(dx: int, dy: int) -> set[Offset]:
    return {(dx + i, dy + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)}


def _swap(mines: tuple[Offset, ...], safe: tuple[Offset, ...]) -> SwapPattern:
    """(mines, safe cells, blocked cells) of a swap: the mines and as many safe cells
    trade places unseen when every blocked cell is a mine or off the board, the
    blocked cells being the others that see more of one side than of the other."""
    near = set().union(*(_around(*cell) for cell in mines + safe)) - set(mines) - set(safe)
    blocked = tuple(
        sorted(
            cell
            for cell in near
            if sum(cell in _around(*m) for m in mines) != sum(cell in _around(*s) for s in safe)
        )
    )
    return mines, safe, blocked


SWAPS: tuple[SwapPattern, ...] = (
    # A mine and a safe cell within two steps (further apart they share no neighbour).
    *(
        _swap(((dx, dy),), ((0, 0),))
        for dy in range(-2, 3)
        for dx in range(-2, 3)
        if (dx, dy) != (0, 0)
    ),
    # Two mines on one diagonal of a 2x2 block, two safe cells on the other: the
    # other classic last guess, with mines (or the edge) at the block's four corners.
    _swap(((1, 0), (0, 1)), ((0, 0), (1, 1))),
    _swap(((0, 0), (1, 1)), ((1, 0), (0, 1))),
    # Two such pairs three cells apart in a line (the cells between see one of each
    # side), the next most common along an edge.
    _swap(((0, 1), (0, 4)), ((0, 0), (0, 3))),
    _swap(((0, -1), (0, 2)), ((0, 0), (0, 3))),
    _swap(((1, 0), (4, 0)), ((0, 0), (3, 0))),
    _swap(((-1, 0), (2, 0)), ((0, 0), (3, 0))),
)
"""The swaps tested, each relative to a cell of the board (offsets (dx, dy)). Those
with the fewest blocked cells: the ones random layouts hold often enough to pay."""

PAD = max(max(abs(d) for pattern in SWAPS for part in pattern for cell in part for d in cell), 2)
"""Off-board margin of the bit boards below, as wide as the patterns reach."""


def _bits(cells: np.ndarray) -> int:
    """A (H, W) bool array as the bits of an int: rows of ``W + 2 * PAD`` bits, a clear
    margin of ``PAD`` all round, the cell (x, y) at bit ``(y + PAD) * stride + x + PAD``."""
    height, width = cells.shape
    padded = np.zeros((height + 2 * PAD, width + 2 * PAD), dtype=bool)
    padded[PAD:-PAD, PAD:-PAD] = cells
    return int.from_bytes(np.packbits(padded, bitorder="little").tobytes(), "little")


@lru_cache(maxsize=16)
def _board_bits(width: int, height: int) -> int:
    """The bits of the board's own cells (the margin clear)."""
    return _bits(np.ones((height, width), dtype=bool))


@lru_cache(maxsize=16)
def _swap_steps(stride: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:data:`SWAPS` as (board, bit step) lists for rows of ``stride`` bits: board 0 the
    mines, 1 the safe cells, 2 the blocked cells, in that order within each pattern."""
    return tuple(
        tuple((board, dy * stride + dx) for board, cells in enumerate(pattern) for dx, dy in cells)
        for pattern in SWAPS
    )


def hidden_swap(mines: np.ndarray, start: tuple[int, int]) -> tuple[list[int], list[int]] | None:
    """Mines and as many safe cells (flat indices) that could trade places unseen.

    They could when every other safe cell sees as many of the mines as of the
    safe cells, and the start is not among the safe cells. Then the layout is
    not solvable from ``start`` by any sound rule set, with the mine count known
    or not (see the module docstring). Tests the patterns of :data:`SWAPS` and
    a lone safe cell and a lone mine (each with only mines and the edge around
    it) anywhere; ``None`` when none is found.

    The whole board is tested at once on bit boards (one int per board, a few
    dozen shifts and ands), since most layouts hold no swap and must all be tested.
    """
    height, width = mines.shape
    stride = width + 2 * PAD
    mine = _bits(mines)
    board = _board_bits(width, height)
    blocked = mine | ~board  # mines and off-board cells: nothing to see there
    safe = board & ~mine & ~(1 << ((start[1] + PAD) * stride + start[0] + PAD))

    boards = (mine, safe, blocked)
    moved: dict[tuple[int, int], int] = {}  # (board, step) -> that board shifted

    def shifted(key: tuple[int, int]) -> int:
        """Board ``key[0]`` moved so that bit i holds what was at bit i + ``key[1]``."""
        bits = moved.get(key)
        if bits is None:
            board, step = boards[key[0]], key[1]
            bits = moved[key] = board >> step if step >= 0 else board << -step
        return bits

    def flat(bit: int, dx: int = 0, dy: int = 0) -> int:
        """The flat board index of the cell (dx, dy) away from bit ``bit``."""
        return (bit // stride - PAD + dy) * width + bit % stride - PAD + dx

    for pattern, steps in zip(SWAPS, _swap_steps(stride), strict=True):
        found = -1
        for key in steps:
            found &= shifted(key)
            if not found:
                break
        else:
            at = (found & -found).bit_length() - 1
            return [flat(at, *cell) for cell in pattern[0]], [flat(at, *c) for c in pattern[1]]
    # Further apart a mine and a safe cell share no neighbour: both must see no safe cell.
    walled = -1  # all bits set: cells with only mines and the edge around them
    for dx, dy in _around(0, 0):
        walled &= shifted((2, dy * stride + dx))
    lone_safe, lone_mine = walled & safe, walled & mine
    if lone_safe and lone_mine:
        return (
            [flat((lone_mine & -lone_mine).bit_length() - 1)],
            [flat((lone_safe & -lone_safe).bit_length() - 1)],
        )
    return None


@lru_cache(maxsize=16)
def _neighbour_counts(width: int, height: int) -> tuple[int, ...]:
    return tuple(len(cells) for cells in neighbour_table(width, height))


class _Play:
    """One play of a layout from its start: openings, flags and the cheap rules, on
    flat Python lists (cheaper than numpy for per-cell work on a few hundred cells).

    Every cell keeps its count of covered neighbours and, once opened, the mines
    still missing around it, so the one-cell rules are a lookup per changed number.
    """

    def __init__(self, mines: np.ndarray, start: tuple[int, int]):
        self.height, self.width = mines.shape
        self.neighbours = neighbour_table(self.width, self.height)
        self.mines = mines.reshape(-1).tolist()
        self.numbers = adjacent_mine_counts(mines).reshape(-1).tolist()
        self.mine_count = int(np.count_nonzero(mines))
        self.flags = 0
        self.view = [COVERED] * len(self.mines)
        self.missing = self.numbers.copy()
        """Per cell: its number minus the flags around it (read once the cell is open)."""
        self.covered = list(_neighbour_counts(self.width, self.height))
        """Per cell: covered, unflagged neighbours."""
        self.safe_left = len(self.mines) - self.mine_count
        self.todo: set[int] = set()
        """Opened numbers to try the one-cell rules on."""
        self.changed: set[int] = set()
        """Opened numbers whose covered neighbours changed since the pair rule ran."""
        self.numbered: list[int] = []
        """Opened cells with a number (not 0), in opening order."""
        self.open(start[1] * self.width + start[0])

    def open(self, *cells: int) -> None:
        """Open safe cells still covered; zeros flood. Opened numbers around that
        still touch a covered cell go on the worklist."""
        view, numbers, covered, neighbours = self.view, self.numbers, self.covered, self.neighbours
        to_try, numbered = self.todo.add, self.numbered.append
        stack = [cell for cell in cells if view[cell] == COVERED]
        for cell in stack:
            view[cell] = numbers[cell]
        opened = len(stack)
        while stack:
            cell = stack.pop()
            if numbers[cell]:
                if covered[cell]:
                    to_try(cell)
                    numbered(cell)
                for n in neighbours[cell]:
                    covered[n] -= 1
                    if view[n] >= 0 and covered[n]:
                        to_try(n)
                continue
            for n in neighbours[cell]:
                covered[n] -= 1
                value = view[n]
                if value == COVERED:
                    view[n] = numbers[n]
                    opened += 1
                    stack.append(n)
                elif value >= 0 and covered[n]:
                    to_try(n)
        self.safe_left -= opened

    def flag(self, index: int) -> None:
        view, missing, covered = self.view, self.missing, self.covered
        view[index] = FLAGGED
        self.flags += 1
        for n in self.neighbours[index]:
            covered[n] -= 1
            missing[n] -= 1
            if view[n] >= 0 and covered[n]:
                self.todo.add(n)

    def play(self, proof: Proof) -> None:
        """Flag the proven mines and open the proven safe cells still covered."""
        for index in proof.mines:
            if self.view[index] == COVERED:
                self.flag(index)
        if any(self.mines[index] for index in proof.safe):
            raise AssertionError("a cell proven safe holds a mine")
        self.open(*proof.safe)

    def one_cell_rules(self) -> None:
        """A number with all its mines flagged frees its other neighbours; one with as
        many covered neighbours as missing mines flags them. Until neither applies."""
        view, missing, covered, neighbours = self.view, self.missing, self.covered, self.neighbours
        todo, changed = self.todo, self.changed
        while todo:
            cell = todo.pop()
            if not covered[cell]:
                continue
            changed.add(cell)
            if missing[cell] == 0:
                self.open(*neighbours[cell])
            elif missing[cell] == covered[cell]:
                for n in neighbours[cell]:
                    if view[n] == COVERED:
                        self.flag(n)

    def pair_rule(self) -> Proof:
        """What two numbers sharing covered cells prove, for pairs where one changed."""
        view, missing, covered, neighbours = self.view, self.missing, self.covered, self.neighbours
        cells_of: dict[int, frozenset[int]] = {}

        def cells(cell: int) -> frozenset[int]:
            found = cells_of.get(cell)
            if found is None:
                found = cells_of[cell] = frozenset(
                    n for n in neighbours[cell] if view[n] == COVERED
                )
            return found

        safe: set[int] = set()
        mines: set[int] = set()
        changed, self.changed = self.changed, set()
        for a in changed:
            if not covered[a]:
                continue
            cells_a, need_a = cells(a), missing[a]
            partners = {m for c in cells_a for m in neighbours[c] if view[m] >= 0}
            partners.discard(a)
            for b in partners:
                if b < a and b in changed:
                    continue  # the pair was tried from b's side
                cells_b, need_b = cells(b), missing[b]
                shared = len(cells_a & cells_b)
                # rem(A) - rem(B) = #A-only: A-only all mines, B-only all safe (and mirrored).
                if need_a - need_b == covered[a] - shared:
                    mines |= cells_a - cells_b
                    safe |= cells_b - cells_a
                if need_b - need_a == covered[b] - shared:
                    mines |= cells_b - cells_a
                    safe |= cells_a - cells_b
        return Proof(safe, mines)

    def constraints(self) -> list[NumberConstraint]:
        """The numbers touching covered cells, as :func:`number_constraints` reads them."""
        view, missing, covered, neighbours = self.view, self.missing, self.covered, self.neighbours
        self.numbered = [cell for cell in self.numbered if covered[cell]]
        return [
            NumberConstraint(
                cell, missing[cell], tuple(n for n in neighbours[cell] if view[n] == COVERED)
            )
            for cell in sorted(self.numbered)
        ]

    def board(self) -> Board:
        grid = np.array(self.view, dtype=np.int8).reshape(self.height, self.width)
        return Board(grid, self.mine_count)


COMPILE_AFTER = 2000
"""Layouts this process checks in Python before it loads the compiled kernels for the
rest: loading them costs about a second, this many Python checks about as much (expert).
Kernels some other part of the process loaded already are used at once."""

_checked_in_python = 0


def _use_compiled() -> bool:
    """Whether to play the cheap rules compiled: the same verdict either way."""
    global _checked_in_python
    if kernels_loaded():
        return True
    _checked_in_python += 1
    return _checked_in_python > COMPILE_AFTER and kernels_ready()


def solvable(
    mines: np.ndarray, start: tuple[int, int], rule_set: str | RuleSet = "substitution"
) -> bool:
    """``bool(is_solvable(MineLayout(mines), start, rule_set))``, with less work.

    :param mines: (H, W) bool, the layout.
    :param start: (x, y) of the start cell.
    :raises ValueError: when ``start`` is off the board.
    """
    rules = get_rule_set(rule_set)
    x, y = start
    height, width = mines.shape
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"start cell ({x}, {y}) is outside the {width}x{height} board")
    if mines[y, x]:
        return False
    if hidden_swap(mines, start) is not None:
        return False
    if type(rules) not in SAME_FIXED_POINT:
        return bool(is_solvable(MineLayout(mines), start, rules))
    if _use_compiled():
        return solvable_compiled(mines, start, rules)
    stall = SubstitutionStall(rules) if type(rules) is SubstitutionRules else None
    play = _Play(mines, start)
    while play.safe_left:
        play.one_cell_rules()
        if not play.safe_left:
            break
        proof = play.pair_rule()
        if not proof.safe and not proof.mines:
            proof = stall(play) if stall is not None else rules.prove(play.board())
            if not proof.safe and not proof.mines:
                return False
        play.play(proof)
    return True
