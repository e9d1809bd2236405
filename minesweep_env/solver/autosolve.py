"""The auto-solver: play out everything a rule set proves, until it proves nothing."""

from __future__ import annotations

from ..core.cells import FLAGGED
from ..core.minefield import GameState, Minefield
from .base import RuleSet


def autosolve(minefield: Minefield, rule_set: RuleSet) -> tuple[list[int], list[int]]:
    """Probe every proven-safe cell (zeros flood) and flag every proven mine, repeatedly.

    Stops when the rule set proves nothing new or the game has ended.
    Returns the flat indices opened and flagged.
    """
    opened: list[int] = []
    flagged: list[int] = []
    view = minefield.view.reshape(-1)
    width = minefield.width
    while minefield.state is GameState.PLAYING:
        proof = rule_set.prove(minefield.board())
        new_mines = [i for i in proof.mines if view[i] < 0 and view[i] != FLAGGED]
        for index in new_mines:
            minefield.set_flag(index % width, index // width)
        flagged.extend(new_mines)
        new_opened = minefield.open_safe(proof.safe)
        opened.extend(new_opened)
        if not new_opened and not new_mines:
            break
    return opened, flagged
