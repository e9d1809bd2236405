"""The generator's solvability check: :func:`is_solvable`'s verdict, found with less work.

The no-guess generator asks "solvable from the start?" of many random layouts
and most say no, so the check is the generator's cost. :func:`solvable` gives
exactly ``bool(is_solvable(MineLayout(mines), start, rule_set))`` and gets there
three ways cheaper:

1. **A layout no player can finish is turned down before any solving.** If a
   mine A and a safe cell B (not the start) could trade places without changing
   the number of any other safe cell, then every position the game can reach
   also fits the layout with A and B swapped (the same mine count, B a mine
   there), so no sound rule set ever proves B safe, and no opening reaches it
   (a zero next to B would be next to A too). This is the classic 50/50 at an
   edge; it ends about 40% of the failing expert layouts, the ones that would
   otherwise be played nearly to the end before the solver gives up.
2. **Cheap rules first, incrementally.** Openings and the one-cell rules work
   on a list of the numbers that changed, and the rule of two numbers sharing
   cells (with A-only and B-only the cells one sees and the other does not: if
   rem(A) - rem(B) = #A-only, A-only are mines and B-only safe) only revisits
   pairs where a number changed. Only when both are stuck is the rule set asked.
3. **The rule set's answer per frontier component, remembered.** For
   ``substitution`` its elimination step is run on each group of numbers that
   share covered cells, and a group that has not changed since the last stall
   is not tried again (see :class:`_SubstitutionStall`).

Why the verdict is the same: the auto-solver plays a rule set's proofs until it
proves nothing. For the rule sets in :data:`SAME_FIXED_POINT`, what the rule set
concludes only grows as the position gains openings and flags, and the cheap
rules above only conclude what the rule set itself concludes on the same
position (``complete`` proves everything provable; ``substitution``'s
elimination finds each one-cell and two-number conclusion, since a substitution
against one would overfill or underfill the other number). So any order of
playing sound conclusions that stops only where the rule set proves nothing
ends in the same position. Other rule sets get step 1 and then
:func:`is_solvable` itself. ``tests/test_fast_check.py`` compares the verdicts on
random layouts, solvable and not.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.board import Board
from ..core.cells import COVERED, FLAGGED, adjacent_mine_counts, neighbour_table
from ..core.layout import MineLayout
from ..solver.base import Proof, RuleSet
from ..solver.registry import get_rule_set
from ..solver.rules.complete import Complete
from ..solver.rules.number_constraints import NumberConstraint
from ..solver.rules.substitution import SubstitutionRules, _eliminate
from .solvability import is_solvable

SAME_FIXED_POINT: tuple[type[RuleSet], ...] = (Complete, SubstitutionRules)
"""Rule sets whose auto-solver fixed point this module reaches with its own cheap rules."""


@lru_cache(maxsize=16)
def _neighbour_masks(width: int, height: int) -> tuple[int, ...]:
    """Per flat index, its neighbours as a bit mask (bit ``i`` for flat index ``i``)."""
    return tuple(sum(1 << n for n in cells) for cells in neighbour_table(width, height))


def swappable_pair(mines: np.ndarray, start: tuple[int, int]) -> tuple[int, int] | None:
    """A mine and a safe cell (flat indices) that no sequence of openings tells apart.

    They are a pair when every other safe cell is next to both or to neither,
    and the safe cell is not the start. Then the layout is not solvable from
    ``start`` by any sound rule set, with the mine count known or not (see the
    module docstring). ``None`` when there is no such pair.
    """
    height, width = mines.shape
    flat = mines.reshape(-1)
    masks = _neighbour_masks(width, height)
    safe = int.from_bytes(np.packbits(~flat, bitorder="little").tobytes(), "little")
    start_index = start[1] * width + start[0]
    # Safe cells by the set of their safe neighbours.
    by_sight: dict[int, list[int]] = {}
    for cell in np.flatnonzero(~flat).tolist():
        if cell != start_index:
            by_sight.setdefault(masks[cell] & safe, []).append(cell)
    for mine in np.flatnonzero(flat).tolist():
        sight = masks[mine] & safe
        # A safe cell not next to the mine must see exactly the same safe cells.
        # (One next to it is in ``sight`` and never sees itself, so it cannot match.)
        twins = by_sight.get(sight)
        if twins:
            return mine, twins[0]
        # A safe cell next to the mine must see the mine's safe neighbours but itself.
        rest = sight
        while rest:
            low = rest & -rest
            rest ^= low
            cell = low.bit_length() - 1
            if cell in by_sight.get(sight ^ low, ()):
                return mine, cell
    return None


class _SubstitutionStall:
    """``substitution``'s answer on a position where its one-cell rule finds nothing.

    That answer is its elimination step (or its end game when no number touches
    a covered cell). Elimination tries each number's substitutions by
    propagation, which never leaves the group of numbers linked by shared
    covered cells, so it is run per group. Its one global input is the mine
    count left, an upper bound on the mines placed; a group with no more covered
    cells than mines left can never reach it, so its answer depends on its own
    numbers alone and is remembered between stalls.
    """

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.known: dict[tuple[tuple[int, tuple[int, ...]], ...], Proof] = {}

    def __call__(self, play: _Play) -> Proof:
        constraints = play.constraints()
        if not constraints:
            return self.rules.prove(play.board())
        mines_left = play.mine_count - play.flags
        safe: set[int] = set()
        mines: set[int] = set()
        for group in _groups(constraints):
            key = tuple((c.need, c.unknown) for c in group)
            proof = self.known.get(key)
            if proof is None:
                proof = _eliminate(group, mines_left, play.width)
                if len({cell for c in group for cell in c.unknown}) <= mines_left:
                    self.known[key] = proof
            safe |= proof.safe
            mines |= proof.mines
        return Proof(safe, mines)


def _groups(constraints: list[NumberConstraint]) -> list[list[NumberConstraint]]:
    """The constraints split into groups linked by shared cells (each in input order)."""
    owner: dict[int, int] = {}
    parent = list(range(len(constraints)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for k, constraint in enumerate(constraints):
        for cell in constraint.unknown:
            other = owner.setdefault(cell, k)
            if other != k:
                parent[root(other)] = root(k)
    groups: dict[int, list[NumberConstraint]] = {}
    for k, constraint in enumerate(constraints):
        groups.setdefault(root(k), []).append(constraint)
    return list(groups.values())


class _Play:
    """One play of a layout from its start: openings, flags and the cheap rules, on
    flat Python lists (cheaper than numpy for per-cell work on a few hundred cells)."""

    def __init__(self, mines: np.ndarray, start: tuple[int, int]):
        self.height, self.width = mines.shape
        self.neighbours = neighbour_table(self.width, self.height)
        self.mines = mines.reshape(-1).tolist()
        self.numbers = adjacent_mine_counts(mines).reshape(-1).tolist()
        self.mine_count = int(np.count_nonzero(mines))
        self.flags = 0
        self.view = [COVERED] * len(self.mines)
        self.safe_left = len(self.mines) - self.mine_count
        self.todo: set[int] = set()
        """Opened cells to try the one-cell rules on."""
        self.changed: set[int] = set()
        """Opened cells whose covered neighbours or flags changed since the pair rule ran."""
        self.frontier: set[int] = set()
        """Opened numbers that may still touch a covered cell."""
        self.open(start[1] * self.width + start[0])

    def open(self, index: int) -> None:
        """Open a safe cell; zeros flood. Opened cells and their opened neighbours go on the
        worklists."""
        view, numbers, neighbours = self.view, self.numbers, self.neighbours
        stack = [index]
        view[index] = numbers[index]
        self.safe_left -= 1
        while stack:
            cell = stack.pop()
            touched = [n for n in neighbours[cell] if view[n] >= 0]
            touched.append(cell)
            self.todo.update(touched)
            self.changed.update(touched)
            if numbers[cell] != 0:
                self.frontier.add(cell)
                continue
            for n in neighbours[cell]:
                if view[n] == COVERED:
                    view[n] = numbers[n]
                    self.safe_left -= 1
                    stack.append(n)

    def flag(self, index: int) -> None:
        self.view[index] = FLAGGED
        self.flags += 1
        touched = [m for m in self.neighbours[index] if self.view[m] >= 0]
        self.todo.update(touched)
        self.changed.update(touched)

    def play(self, proof: Proof) -> None:
        """Flag the proven mines and open the proven safe cells still covered."""
        for index in proof.mines:
            if self.view[index] == COVERED:
                self.flag(index)
        for index in proof.safe:
            if self.view[index] == COVERED:
                if self.mines[index]:
                    raise AssertionError(f"cell {index} was proven safe but holds a mine")
                self.open(index)

    def one_cell_rules(self) -> None:
        """A number with all its mines flagged frees its other neighbours; one with as
        many covered neighbours as missing mines flags them. Until neither applies."""
        view, neighbours = self.view, self.neighbours
        while self.todo:
            cell = self.todo.pop()
            covered = [n for n in neighbours[cell] if view[n] == COVERED]
            if not covered:
                continue
            missing = view[cell] - sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
            if missing == 0:
                for n in covered:
                    if view[n] == COVERED:
                        self.open(n)
            elif missing == len(covered):
                for n in covered:
                    self.flag(n)

    def constraint(self, cell: int) -> tuple[int, frozenset[int]]:
        """(mines missing, covered neighbours) of an opened number."""
        view = self.view
        covered = frozenset(n for n in self.neighbours[cell] if view[n] == COVERED)
        flags = sum(1 for n in self.neighbours[cell] if view[n] == FLAGGED)
        return view[cell] - flags, covered

    def pair_rule(self) -> Proof:
        """What two numbers sharing covered cells prove, for pairs where one changed."""
        view, neighbours = self.view, self.neighbours
        read: dict[int, tuple[int, frozenset[int]]] = {}

        def constraint(cell: int) -> tuple[int, frozenset[int]]:
            found = read.get(cell)
            if found is None:
                found = read[cell] = self.constraint(cell)
            return found

        safe: set[int] = set()
        mines: set[int] = set()
        changed, self.changed = self.changed, set()
        for a in changed:
            need_a, cells_a = constraint(a)
            if not cells_a:
                continue
            partners = {m for c in cells_a for m in neighbours[c] if view[m] >= 0} - {a}
            for b in partners:
                need_b, cells_b = constraint(b)
                only_a, only_b = cells_a - cells_b, cells_b - cells_a
                # rem(A) - rem(B) = #A-only: A-only all mines, B-only all safe (and mirrored).
                if need_a - need_b == len(only_a):
                    mines |= only_a
                    safe |= only_b
                if need_b - need_a == len(only_b):
                    mines |= only_b
                    safe |= only_a
        return Proof(safe, mines)

    def constraints(self) -> list[NumberConstraint]:
        """The numbers touching covered cells, as :func:`number_constraints` reads them."""
        view, neighbours = self.view, self.neighbours
        found = []
        for cell in sorted(self.frontier):
            unknown = tuple(n for n in neighbours[cell] if view[n] == COVERED)
            if not unknown:
                self.frontier.discard(cell)
                continue
            flags = sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
            found.append(NumberConstraint(cell, view[cell] - flags, unknown))
        return found

    def board(self) -> Board:
        grid = np.array(self.view, dtype=np.int8).reshape(self.height, self.width)
        return Board(grid, self.mine_count)


def solvable(
    mines: np.ndarray, start: tuple[int, int], rule_set: str | RuleSet = "substitution"
) -> bool:
    """``bool(is_solvable(MineLayout(mines), start, rule_set))``, with less work.

    :param mines: (H, W) bool, the layout.
    :param start: (x, y) of the start cell, on the board.
    """
    rules = get_rule_set(rule_set)
    x, y = start
    if mines[y, x]:
        return False
    if swappable_pair(mines, start) is not None:
        return False
    if type(rules) not in SAME_FIXED_POINT:
        return bool(is_solvable(MineLayout(mines), start, rules))
    stall = _SubstitutionStall(rules) if type(rules) is SubstitutionRules else None
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
