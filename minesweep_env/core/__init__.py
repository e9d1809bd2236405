"""The game itself: layouts, the player's view, probing. No solver, no Gymnasium."""

from .board import Board
from .cells import COVERED, FLAGGED, KNOWN_SAFE, STANDARD_BOARDS, neighbour_table, neighbours
from .first_click import FIRST_CLICK_POLICIES, FirstClick, protect_first_click
from .layout import MineLayout
from .minefield import GameState, Minefield, WinRule

__all__ = [
    "COVERED",
    "FIRST_CLICK_POLICIES",
    "FLAGGED",
    "KNOWN_SAFE",
    "STANDARD_BOARDS",
    "Board",
    "FirstClick",
    "GameState",
    "MineLayout",
    "Minefield",
    "WinRule",
    "neighbour_table",
    "neighbours",
    "protect_first_click",
]
