"""``substitution``: petersohn/mine-solver's solver: grind, eliminate, end game.

The solver alternates three steps, and this rule set reaches the same fixed point:

- **grind**: a number with no mines left around it makes its covered
  neighbours safe; a number with as many mines left as covered neighbours makes
  them all mines.
- **eliminate** (only when grind is stuck): for each *problematic* number (one
  that still touches covered cells) every *substitution* is tried: a choice of
  exactly its remaining mines among its covered neighbours, the others safe.
  A substitution is checked for consistency by propagation, without probing:
  over all problematic numbers, repeatedly, a number whose remaining mines are
  all placed makes its other covered neighbours safe, a number whose covered
  neighbours not yet safe are exactly its remaining mines makes them mines; it is
  inconsistent when a number gets more mines than it has left, or fewer
  possible cells than mines left, or when more mines are placed than are left
  on the whole board (only that upper bound: the tool has no check for too few).
  A neighbour that is a mine in every consistent substitution is a mine; one
  that is a mine in none is safe.
- **end game** (only when no number touches a covered cell): if as many covered
  cells are left as mines, they are all mines; with no mines left, all safe.

The tool applies one problematic number's conclusions and grinds again; this
rule set returns every problematic number's conclusions at once. The fixed
point is the same: each step's conclusions only grow as the position gains
numbers, flags and safe cells (propagation from more facts finds more
contradictions, never fewer), so any order of applying them ends in the same
place. That matters because ``semiautomines solvable`` must give the tool's
verdicts.

Without a known mine total the global bound and the end game are skipped.
"""

from __future__ import annotations

from itertools import combinations

from ...core.board import Board
from ...errors import InconsistentBoardError
from ..base import Proof, RuleSet
from .number_constraints import NumberConstraint, covered_cells, number_constraints


class _Propagator:
    """Consistency checks of substitutions over the problematic numbers."""

    def __init__(self, constraints: list[NumberConstraint], mines_left: int | None):
        self.needs = [c.need for c in constraints]
        self.unknowns = [c.unknown for c in constraints]
        self.mines_left = mines_left
        self.touching: dict[int, list[int]] = {}
        for k, c in enumerate(constraints):
            for cell in c.unknown:
                self.touching.setdefault(cell, []).append(k)

    def consistent(self, assignment: dict[int, bool]) -> bool:
        """Whether propagation from ``assignment`` (cell -> is a mine) finds no contradiction.

        ``assignment`` is extended in place with everything propagation places.
        """
        placed = sum(assignment.values())
        if self.mines_left is not None and placed > self.mines_left:
            return False
        touching, needs, unknowns = self.touching, self.needs, self.unknowns
        pending = {k for cell in assignment for k in touching[cell]}
        while pending:
            k = pending.pop()
            need = needs[k]
            mines = 0
            free: list[int] = []
            for cell in unknowns[k]:
                state = assignment.get(cell)
                if state is None:
                    free.append(cell)
                elif state:
                    mines += 1
            if mines > need or need > mines + len(free):
                return False
            if not free:
                continue
            if mines == need:
                is_mine = False
            elif mines + len(free) == need:
                is_mine = True
                placed += len(free)
                if self.mines_left is not None and placed > self.mines_left:
                    return False
            else:
                continue
            for cell in free:
                assignment[cell] = is_mine
                pending.update(touching[cell])
        return True

    def substitutions(self, k: int) -> list[frozenset[int]]:
        """The consistent substitutions of problematic number ``k``: its mines in each."""
        cells = self.unknowns[k]
        found = []
        for chosen in combinations(cells, self.needs[k]):
            mines = set(chosen)
            if self.consistent({cell: cell in mines for cell in cells}):
                found.append(frozenset(chosen))
        return found


def consistent_substitutions(
    board: Board, cell: tuple[int, int]
) -> list[frozenset[tuple[int, int]]]:
    """The substitutions of the number at ``cell`` that pass the consistency check.

    Each is the set of its covered neighbours taken as mines. For tests and for
    explaining a deduction; ``[]`` for a number that touches no covered cell.
    """
    width = board.width
    constraints = number_constraints(board)
    propagator = _Propagator(constraints, board.mines_left)
    index = cell[1] * width + cell[0]
    for k, constraint in enumerate(constraints):
        if constraint.cell == index:
            return [
                frozenset((i % width, i // width) for i in chosen)
                for chosen in propagator.substitutions(k)
            ]
    return []


def _grind(constraints: list[NumberConstraint]) -> Proof:
    safe: set[int] = set()
    mines: set[int] = set()
    for c in constraints:
        if c.need == 0:
            safe.update(c.unknown)
        elif c.need == len(c.unknown):
            mines.update(c.unknown)
    return Proof(safe, mines)


def _eliminate(constraints: list[NumberConstraint], mines_left: int | None, width: int) -> Proof:
    propagator = _Propagator(constraints, mines_left)
    safe: set[int] = set()
    mines: set[int] = set()
    for k, constraint in enumerate(constraints):
        found = propagator.substitutions(k)
        if not found:
            raise InconsistentBoardError(
                "no placement of its mines fits the other numbers",
                (constraint.cell % width, constraint.cell // width),
            )
        always = frozenset.intersection(*found)
        ever = frozenset.union(*found)
        mines |= always
        safe.update(cell for cell in constraint.unknown if cell not in ever)
    return Proof(safe, mines)


def _end_game(board: Board) -> Proof:
    left = board.mines_left
    if left is None:
        return Proof(set(), set())
    covered = covered_cells(board)
    if covered and left == len(covered):
        return Proof(set(), set(covered))
    if covered and left == 0:
        return Proof(set(covered), set())
    return Proof(set(), set())


class SubstitutionRules(RuleSet):
    """petersohn/mine-solver's solver: grind, eliminate by checked substitutions, end game."""

    name = "substitution"

    def prove(self, board: Board) -> Proof:
        constraints = number_constraints(board)
        proof = _grind(constraints)
        if proof.safe or proof.mines:
            return proof
        if constraints:
            return _eliminate(constraints, board.mines_left, board.width)
        return _end_game(board)
