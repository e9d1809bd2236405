"""What the status line says about a guess: the chance it was a mine, and for the
search agent why it chose the cell (its two-move survival, or the endgame's win chance)."""

from __future__ import annotations

import numpy as np

from minesweep_env import Game
from minesweep_env.core.first_click import FirstClick
from minesweep_env.solver.probability import count_position
from minesweep_env.solver.probability.engine import CACHE_LIMIT

from ..search import Advice


class Notes:
    """Notes on the guesses of one game (the engine's counts cached across them)."""

    def __init__(self) -> None:
        self._cache: dict = {}

    def mine_chance(self, game: Game, cell: int) -> float | None:
        """The exact chance that ``cell`` holds a mine in the position, before it is probed;
        ``None`` when the engine has no figure (an impossible position)."""
        minefield = game.minefield
        if minefield.probes == 0:
            if minefield.first_click is not FirstClick.NONE:
                return 0.0
            return minefield.mine_count / (minefield.width * minefield.height)
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        weights = count_position(minefield.board(), cache=self._cache)
        weight = weights.mine_weight.get(cell)
        return None if weight is None else weight / weights.layouts

    def note(self, game: Game, cell: int, advice: Advice | None = None, depth: int = 2) -> str:
        """``(x, y) mine 12.5%``, with the search agent's reason and figures when given.

        :param depth: the guesses the search agent's survival covers.
        """
        x, y = cell % game.width, cell // game.width
        parts = [f"({x}, {y})"]
        chance = self.mine_chance(game, cell)
        if game.minefield.probes == 0:
            parts.append("first click" + (", safe" if chance == 0 else f", mine {_pc(chance)}"))
        elif chance is not None:
            parts.append("safe" if chance == 0 else f"mine {_pc(chance)}")
        if advice is not None and advice.cell == cell:
            parts.append(_reason(advice, depth))
        return " ".join(p for p in parts if p)


def _reason(advice: Advice, depth: int) -> str:
    if advice.reason == "search":
        survival = next((a.survival for a in advice.candidates if a.cell == advice.cell), None)
        return "" if survival is None else f"{depth}-move survival {_pc(survival)}"
    if advice.reason == "endgame" and advice.win_probability is not None:
        return f"endgame, win {_pc(advice.win_probability)}"
    if advice.reason == "forced":
        return "forced guess"
    if advice.reason == "book":
        return "book of first guesses"
    return ""


def _pc(p: float | None) -> str:
    if p is None or np.isnan(p):
        return "?"
    if p in (0.0, 1.0):
        return f"{p * 100:.0f}%"
    return f"{p * 100:.1f}%"
