"""The auto-solver as the player sees it: each round recorded, hand flags trusted.

The IOCCC program shows its solver at work, one inference a frame. Here the
game itself runs the solver (so the final board is exactly
:meth:`minesweep_env.Game.probe`'s), and :class:`SolverSteps` watches it
through the auto-solver's observer, keeping the position of every round. The
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
from ..core.minefield import GameState
from ..errors import InconsistentBoardError
from ..game import Game
from ..solver.autosolve import autosolve
from ..solver.base import Proof


class SolverSteps:
    """The auto-solver's rounds in one move of ``game``, and what went wrong in them.

    :param game: the game whose auto-solver is watched.
    """

    def __init__(self, game: Game):
        self.game = game
        self.snapshots: list[np.ndarray] = []
        """The position before every round of the last move."""
        self.blunder: int | None = None
        """A mine the rule set proved safe (trusting a wrong hand flag), flat index."""
        self.contradiction: str | None = None
        """Why the rule set found the position impossible (wrong hand flags)."""

    def start_move(self) -> None:
        """Forget the last move's snapshots and mishaps."""
        self.snapshots = []
        self.blunder = None
        self.contradiction = None

    def observe(self, board: Board, proof: Proof) -> bool:
        """The auto-solver's observer: keep the round's position; stop before a blunder."""
        self.snapshots.append(board.grid.copy())
        mines = self.game.minefield.layout.mines.reshape(-1)
        wrong = sorted(i for i in proof.safe if mines[i])
        if wrong:
            self.blunder = wrong[0]
            return True
        return False

    def probe(self, x: int, y: int) -> None:
        """The player's probe, the auto-solver watched."""
        try:
            self.game.probe(x, y, observer=self.observe)
        except InconsistentBoardError as error:
            self.contradiction = str(error)
        self._settle()

    def solve_after_flag(self) -> None:
        """Run the auto-solver after a hand flag, which may be what it was missing."""
        minefield = self.game.minefield
        if minefield.state is GameState.PLAYING:
            try:
                autosolve(minefield, self.game.rule_set, observer=self.observe)
            except InconsistentBoardError as error:
                self.contradiction = str(error)
            self._settle()

    def _settle(self) -> None:
        """After a move: lose on the cell a wrong hand flag made the solver open."""
        minefield = self.game.minefield
        if self.blunder is not None and minefield.state is GameState.PLAYING:
            width = minefield.width
            minefield.probe(self.blunder % width, self.blunder // width)


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
