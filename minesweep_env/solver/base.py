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

import numpy as np

from ..core.board import Board
from ..core.minefield import Minefield
from .weights import Weights


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

    A rule set is not a pure function: an instance may keep caches and the last
    position it settled between calls, to answer the auto-solver's next call
    faster. What it proves never depends on that history, but an instance
    belongs to one game at a time and must not be shared between threads.
    :meth:`reset` forgets the history; :class:`~minesweep_env.Game` calls it
    when a game starts (so the env does on every episode, which makes a new game).
    """

    name: ClassVar[str]
    """The registry name: ``rule_set="..."`` everywhere."""

    @abstractmethod
    def prove(self, board: Board) -> Proof:
        """Cells of ``board`` that this rule set proves safe, and proves mines.

        Only covered, unflagged, not-yet-known-safe cells may be returned.
        """

    def known_weights(self, board: Board) -> Weights | None:
        """The probability engine's exact weights of ``board``, if this rule set
        counted exactly that position last; ``None`` otherwise (the default).

        Lets a caller that wants the probabilities of the position the
        auto-solver left (the env's observation) skip counting them again.
        """
        return None

    def known_probabilities(self, board: Board) -> np.ndarray | None:
        """Float mine probabilities of ``board`` (H, W), within 1e-12 of the exact
        engine's, if this rule set computed them for exactly that position; ``None``
        otherwise (the default).

        Lets a caller that wants one cell's probability as a float (the env's
        ``info["mine_probability"]``) skip an exact count. Only covered cells'
        entries are meant; the rest may hold anything.
        """
        return None

    def play_out(self, minefield: Minefield) -> tuple[list[int], list[int], bool] | None:
        """Play the auto-solver's rounds on ``minefield`` faster than round by round, or
        ``None`` (the default) to let :func:`~minesweep_env.solver.autosolve.autosolve`
        call :meth:`prove` round by round.

        Must leave the game as those rounds would: the same cells opened and
        flagged, the same verdict. Returns the flat indices opened and flagged and
        whether it is done; when not, the auto-solver plays on from the position
        it left.
        """
        return None

    def reset(self) -> None:
        """Forget every cache and remembered position (the default keeps none)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
