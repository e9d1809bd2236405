"""Deduction on a position, without a game: what can be proven from here."""

from __future__ import annotations

from ..core.board import Board
from ..core.cells import FLAGGED, KNOWN_SAFE
from .base import RuleSet
from .registry import get_rule_set


def deduce(
    board: Board, rule_set: str | RuleSet, total_mines: int | None = None
) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """Everything ``rule_set`` proves about ``board``, as ``(safe, mines)`` sets of (x, y).

    The rule set is applied again on what it has proven until nothing changes:
    proven mines become flags, proven-safe cells stay covered but known safe
    (their numbers are unknown).

    :param total_mines: total mines on the board (flags included); overrides
        ``board.total_mines`` when given.
    """
    rules = get_rule_set(rule_set)
    work = board.copy()
    if total_mines is not None:
        work.total_mines = total_mines
    flat = work.grid.reshape(-1)
    safe: set[int] = set()
    mines: set[int] = set()
    while True:
        proof = rules.prove(work)
        new_safe = proof.safe - safe
        new_mines = proof.mines - mines
        if not new_safe and not new_mines:
            break
        flat[list(new_safe)] = KNOWN_SAFE
        flat[list(new_mines)] = FLAGGED
        safe |= new_safe
        mines |= new_mines
    width = board.width
    return (
        frozenset((i % width, i // width) for i in safe),
        frozenset((i % width, i // width) for i in mines),
    )
