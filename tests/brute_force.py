"""A plain enumerator of the layouts consistent with a position, kept separate from
the engine so the tests compare two independent computations.

It walks the frontier cells (covered cells next to a number) one by one,
backtracking when a number is over- or under-filled; cells off the frontier
are counted with a binomial coefficient, since no number constrains them.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE, neighbour_table


def frontier_solutions(board: Board) -> list[frozenset[int]]:
    """Every set of frontier cells that, as mines, satisfies every number."""
    w, h = board.width, board.height
    flat = board.grid.reshape(-1)
    table = neighbour_table(w, h)
    numbers = [i for i in range(w * h) if flat[i] >= 0]
    frontier = sorted(
        {n for i in numbers for n in table[i] if flat[n] == COVERED}
    )
    need = {i: int(flat[i]) - sum(flat[n] == FLAGGED for n in table[i]) for i in numbers}
    open_slots = {i: sum(flat[n] == COVERED for n in table[i]) for i in numbers}
    if any(need[i] < 0 or need[i] > open_slots[i] for i in numbers):
        return []
    solutions: list[frozenset[int]] = []
    chosen: list[int] = []

    def walk(k: int) -> None:
        if k == len(frontier):
            if all(need[i] == 0 for i in numbers):
                solutions.append(frozenset(chosen))
            return
        cell = frontier[k]
        touched = [i for i in table[cell] if flat[i] >= 0]
        for mine in (False, True):
            for i in touched:
                open_slots[i] -= 1
                if mine:
                    need[i] -= 1
            if all(0 <= need[i] <= open_slots[i] for i in touched):
                if mine:
                    chosen.append(cell)
                walk(k + 1)
                if mine:
                    chosen.pop()
            for i in touched:
                open_slots[i] += 1
                if mine:
                    need[i] += 1

    walk(0)
    return solutions


def exact_probabilities(
    board: Board, total_mines: int | None
) -> tuple[int, dict[int, Fraction | None]]:
    """(number of consistent layouts, mine probability per covered unflagged cell).

    Without a total, each consistent frontier configuration counts once and
    cells off the frontier get ``None``. With a total, layouts are weighted by
    the ways to place the remaining mines off the frontier.
    """
    w, h = board.width, board.height
    flat = board.grid.reshape(-1)
    table = neighbour_table(w, h)
    covered = [i for i in range(w * h) if flat[i] == COVERED]
    safe_known = [i for i in range(w * h) if flat[i] == KNOWN_SAFE]
    frontier = {n for i in range(w * h) if flat[i] >= 0 for n in table[i] if flat[n] == COVERED}
    off = [i for i in covered if i not in frontier]
    solutions = frontier_solutions(board)
    weights: dict[int, int] = dict.fromkeys(covered, 0)
    total = 0
    if total_mines is None:
        for solution in solutions:
            total += 1
            for cell in solution:
                weights[cell] += 1
        probs: dict[int, Fraction | None] = {
            i: (Fraction(weights[i], total) if total else None) if i in frontier else None
            for i in covered
        }
    else:
        left = total_mines - int((flat == FLAGGED).sum())
        for solution in solutions:
            rest = left - len(solution)
            if rest < 0 or rest > len(off):
                continue
            ways = comb(len(off), rest)
            total += ways
            for cell in solution:
                weights[cell] += ways
            if off:
                per_off = ways * rest // len(off)
                for cell in off:
                    weights[cell] += per_off
        probs = {i: (Fraction(weights[i], total) if total else None) for i in covered}
    for i in safe_known:
        probs[i] = Fraction(0)
    return total, probs


def every_layout(board: Board) -> list[frozenset[int]]:
    """Every mine layout of the unflagged covered cells that fits the numbers and the total."""
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    free = [c for c in range(flat.size) if flat[c] == COVERED]
    flags = {c for c in range(flat.size) if flat[c] == FLAGGED}
    numbers = [(c, int(flat[c])) for c in range(flat.size) if flat[c] >= 0]
    found = []
    for chosen in combinations(free, board.mines_left):
        mines = flags | set(chosen)
        if all(sum(n in mines for n in table[c]) == v for c, v in numbers):
            found.append(frozenset(chosen))
    return found


def shows(board: Board, layout: frozenset[int], cell: int) -> int:
    """The number ``cell`` shows in ``layout`` (flags count as mines)."""
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    return sum(n in layout or flat[n] == FLAGGED for n in table[cell])
