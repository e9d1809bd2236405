"""The auto-solver: play out everything a rule set proves, until it proves nothing."""

from __future__ import annotations

from collections.abc import Callable

from ..core.board import Board
from ..core.cells import FLAGGED
from ..core.minefield import GameState, Minefield
from .base import Proof, RuleSet

SolverObserver = Callable[[Board, Proof], bool | None]
"""Watches the auto-solver round by round (the terminal game animates it so).

Called once a round with the position the rule set was given and its proof,
before the proof is played. A true return stops the auto-solver there, with
that proof unplayed; ``None`` or false lets it go on.
"""


def autosolve(
    minefield: Minefield, rule_set: RuleSet, observer: SolverObserver | None = None
) -> tuple[list[int], list[int]]:
    """Probe every proven-safe cell (zeros flood) and flag every proven mine, repeatedly.

    Stops when the rule set proves nothing new, the game has ended, or the
    observer says stop. Returns the flat indices opened and flagged. Without an
    observer the rule set may play all its rounds at once (:meth:`RuleSet.play_out`:
    ``complete``'s compiled auto-solver), leaving the game where these rounds would.

    :param observer: called with every round's position and proof (see
        :data:`SolverObserver`).
    """
    opened: list[int] = []
    flagged: list[int] = []
    # An observer watches every round: then they are played one by one.
    if observer is None and minefield.state is GameState.PLAYING:
        played = rule_set.play_out(minefield)
        if played is not None:
            opened, flagged, done = played
            if done:
                return opened, flagged
    view = minefield.view.reshape(-1)
    width = minefield.width
    while minefield.state is GameState.PLAYING:
        board = minefield.board()
        proof = rule_set.prove(board)
        if observer is not None and observer(board, proof):
            break
        new_mines = [i for i in proof.mines if view[i] < 0 and view[i] != FLAGGED]
        for index in new_mines:
            minefield.set_flag(index % width, index // width)
        flagged.extend(new_mines)
        new_opened = minefield.open_safe(proof.safe)
        opened.extend(new_opened)
        if not new_opened and not new_mines:
            break
    return opened, flagged
