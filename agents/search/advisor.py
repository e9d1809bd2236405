"""The search agent as the terminal game's adviser (the ``h`` key).

``semiautomines play`` finds :func:`make_advisor` through the
``semiautomines.advisors`` entry point, so the library never imports the agents.
"""

from __future__ import annotations

from collections.abc import Callable

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED

from .agent import SearchAgent


def make_advisor(depth: int = 2) -> Callable[[Board], int | None]:
    """A callable giving the search agent's probe on a position (flat index), or
    ``None`` when nothing is covered. One agent (and its engine cache) per game window."""
    agent = SearchAgent(depth=depth)

    def advise(board: Board) -> int | None:
        if not (board.grid == COVERED).any():
            return None
        return agent.advise(board, every=False).cell  # the cell alone: bounded candidates

    return advise
