"""The auto-solver as the player sees it: each round recorded, hand flags trusted.

The IOCCC program shows its solver at work, one inference a frame. Here the
game itself runs the solver (so the final board is exactly
:meth:`minesweep_env.Game.probe`'s), through :class:`WatchedRuleSet`, which
wraps the real rule set and snapshots the position before every round. The
snapshots become the frames of a short animation.

Flags placed by hand are taken as mines by the rule set, as any flag is. A
wrong hand flag can therefore lead the rule set to "prove" a mine safe: the
solver's probe of it is a chord on a wrong flag and loses the game there, as
it would in classic Minesweeper. A position the rule set finds impossible
(also only through wrong hand flags) stops the solver with a message instead
of a crash.
"""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from ..core.minefield import GameState, Minefield
from ..errors import InconsistentBoardError
from ..solver.autosolve import autosolve
from ..solver.base import Proof, RuleSet


class WatchedRuleSet(RuleSet):
    """A rule set that records each position it is asked about.

    :param inner: the rule set that does the proving.
    """

    name = "watched"

    def __init__(self, inner: RuleSet):
        self.inner = inner
        self.win_rule = inner.win_rule  # type: ignore[misc]  (the game reads it once)
        self.minefield: Minefield | None = None
        self.snapshots: list[np.ndarray] = []
        self.blunder: int | None = None
        self.contradiction: str | None = None

    def reset(self) -> None:
        """Forget the last move's snapshots and mishaps."""
        self.snapshots = []
        self.blunder = None
        self.contradiction = None

    def prove(self, board: Board) -> Proof:
        self.snapshots.append(board.grid.copy())
        if self.blunder is not None or self.contradiction is not None:
            return Proof(set(), set())
        try:
            proof = self.inner.prove(board)
        except InconsistentBoardError as error:
            self.contradiction = str(error)
            return Proof(set(), set())
        if self.minefield is not None:
            mines = self.minefield.layout.mines.reshape(-1)
            wrong = sorted(i for i in proof.safe if mines[i])
            if wrong:
                self.blunder = wrong[0]
                return Proof(set(), set())
        return proof

    def settle(self) -> None:
        """After a move: lose on the cell a wrong hand flag made the solver open."""
        if self.blunder is not None and self.minefield is not None:
            width = self.minefield.width
            if self.minefield.state is GameState.PLAYING:
                self.minefield.probe(self.blunder % width, self.blunder // width)

    def solve_after_flag(self) -> None:
        """Run the auto-solver after a hand flag, which may be what it was missing."""
        if self.minefield is not None and self.minefield.state is GameState.PLAYING:
            autosolve(self.minefield, self)
            self.settle()


def reveal_order(frames: list[np.ndarray], origin: tuple[int, int] | None) -> list[tuple[int, int]]:
    """Every change between successive views as (flat index, new code), in play order.

    Round by round; within a round nearest the probed cell first, so an opening
    spreads out from the click as the original's does.
    """
    changes: list[tuple[int, int]] = []
    if not frames:
        return changes
    height, width = frames[0].shape
    for before, after in zip(frames, frames[1:], strict=False):
        changed = np.flatnonzero(before.reshape(-1) != after.reshape(-1))
        if origin is not None and len(changed) > 1:
            ox, oy = origin
            distance = np.maximum(abs(changed % width - ox), abs(changed // width - oy))
            changed = changed[np.argsort(distance, kind="stable")]
        flat = after.reshape(-1)
        changes.extend((int(i), int(flat[i])) for i in changed)
    return changes


def chunked(changes: list[tuple[int, int]], frames: int) -> list[list[tuple[int, int]]]:
    """Split the changes into at most ``frames`` nearly equal, ordered chunks."""
    if not changes:
        return []
    frames = max(1, min(frames, len(changes)))
    size = -(-len(changes) // frames)
    return [changes[i : i + size] for i in range(0, len(changes), size)]
