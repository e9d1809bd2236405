"""The one interface every rule set implements.

A rule set looks at a position and says which covered cells it proves safe and
which it proves to be mines. That is all: iterating to a fixed point
(:func:`minesweep_env.deduce`) and playing the proofs out on a game
(:func:`minesweep_env.solver.autosolve.autosolve`) are shared by every rule set.
Adding one is a small class with a ``name`` and a ``prove`` method, decorated
with :func:`~minesweep_env.solver.registry.register_rule_set`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, NamedTuple

from ..core.board import Board
from ..core.minefield import WinRule


class Proof(NamedTuple):
    """Flat indices (``y * width + x``) of covered cells proven safe and proven mines."""

    safe: set[int]
    mines: set[int]


class RuleSet(ABC):
    """A sound set of deduction rules.

    Subclasses must never prove a mine safe or a safe cell a mine on a position
    that some layout fits; the soundness tests check that against brute force.
    Flags on the board are taken as known mines, :data:`KNOWN_SAFE` cells as
    known safe. ``board.total_mines`` is given when the mine total is known;
    rule sets that do not use it ignore it.
    """

    name: ClassVar[str]
    """The registry name: ``rule_set="..."`` everywhere."""
    win_rule: ClassVar[WinRule] = WinRule.SAFE_CELLS_OPENED
    """How a game played with this rule set is won; the IOCCC rule sets use its rule."""

    @abstractmethod
    def prove(self, board: Board) -> Proof:
        """Cells of ``board`` that this rule set proves safe, and proves mines.

        Only covered, unflagged, not-yet-known-safe cells may be returned.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
