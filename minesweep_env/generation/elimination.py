"""``substitution``'s answer where the generator's cheap rules are stuck, knowing the layout.

Both ways of playing a layout out (:mod:`.generator_check` in Python,
:mod:`.compiled_check` with the cheap rules compiled) stall in the same places
and ask this module there, so the rule is stated once.
"""

from __future__ import annotations

from itertools import combinations
from typing import Protocol

from ..core.board import Board
from ..solver.base import Proof, RuleSet
from ..solver.rules.number_constraints import NumberConstraint
from ..solver.rules.substitution import _Propagator


class StalledPlay(Protocol):
    """What a stuck play shows the stall: its numbers, the flags, the layout."""

    mine_count: int
    flags: int
    mines: list[bool]

    def constraints(self) -> list[NumberConstraint]: ...

    def board(self) -> Board: ...


class SubstitutionStall:
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

    def __call__(self, play: StalledPlay) -> Proof:
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
                proof = eliminate_knowing(group, mines_left, play.mines)
                if len({cell for c in group for cell in c.unknown}) <= mines_left:
                    self.known[key] = proof
            safe |= proof.safe
            mines |= proof.mines
        return Proof(safe, mines)


def eliminate_knowing(
    constraints: list[NumberConstraint], mines_left: int, truth: list[bool]
) -> Proof:
    """``substitution``'s elimination step on ``constraints``, knowing the layout.

    Elimination proves a covered cell of a number when every substitution of
    that number that passes the consistency check gives it the same value. The
    true layout's substitution always passes (propagation from true facts only
    finds true facts), so a cell is proven exactly when no passing substitution
    gives it the *other* value than ``truth``, and a number is done as soon as
    each of its cells has been seen with its other value. Two things find those
    witnesses early: substitutions that swap one mine and one safe cell of the
    true one are tried first, and each propagation that passes is a witness for
    every number whose cells it fills (it fills them with exactly their count of
    mines, and propagation from part of a passing assignment passes too).
    So far fewer substitutions are tried than all of them, with the same result.

    :param constraints: the numbers, as :func:`number_constraints` reads them.
    :param mines_left: mines not flagged yet (the check's global upper bound).
    :param truth: per flat index, whether the cell holds a mine.
    """
    propagator = _Propagator(constraints, mines_left)
    touching = propagator.touching
    unknowns = [c.unknown for c in constraints]
    unresolved = [set(cells) for cells in unknowns]
    open_numbers = len(constraints)

    def witness(assignment: dict[int, bool]) -> None:
        """Credit a passing assignment to every number it fills."""
        nonlocal open_numbers
        for j in {j for cell in assignment for j in touching[cell]}:
            if not unresolved[j] or any(cell not in assignment for cell in unknowns[j]):
                continue
            unresolved[j] -= {cell for cell in unknowns[j] if assignment[cell] != truth[cell]}
            if not unresolved[j]:
                open_numbers -= 1

    def attempt(cells: tuple[int, ...], chosen: set[int]) -> None:
        assignment = {cell: cell in chosen for cell in cells}
        if propagator.consistent(assignment):
            witness(assignment)

    for k, cells in enumerate(unknowns):
        if not open_numbers:
            break
        if not unresolved[k]:
            continue
        true_mines = {cell for cell in cells if truth[cell]}
        true_safe = [cell for cell in cells if not truth[cell]]
        tried = {frozenset(true_mines)}
        for mine in sorted(true_mines):
            for safe in true_safe:
                if not unresolved[k]:
                    break
                if mine in unresolved[k] or safe in unresolved[k]:
                    chosen = (true_mines - {mine}) | {safe}
                    tried.add(frozenset(chosen))
                    attempt(cells, chosen)
        for combination in combinations(cells, len(true_mines)):
            if not unresolved[k]:
                break
            chosen = set(combination)
            if frozenset(chosen) in tried:
                continue
            if any((cell in chosen) != truth[cell] for cell in unresolved[k]):
                attempt(cells, chosen)
    safe_cells: set[int] = set()
    mine_cells: set[int] = set()
    for left in unresolved:
        for cell in left:
            (mine_cells if truth[cell] else safe_cells).add(cell)
    return Proof(safe_cells, mine_cells)


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
