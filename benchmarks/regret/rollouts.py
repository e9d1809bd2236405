"""Playing a logged position on to the end of the game, on a layout of our choosing.

The game is the env's own (:class:`~minesweep_env.Game` with the rule set
``complete``), set to the position: the view as the player saw it, the probes
made so far (so no first-click policy moves a mine again). The first probe is
the candidate's; from then on ``search`` chooses every guess, exactly as in
:func:`semiautomines_agents.evaluation.play.play_game`, and the auto-solver
makes every certain move.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from minesweep_env import Game
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import GameState
from minesweep_env.solver.weights import Weights
from semiautomines_agents.search.agent import Advice


class Adviser(Protocol):
    """What plays the game on: ``search`` itself, or its advice remembered per position."""

    def advise(
        self,
        board: Board,
        valid: np.ndarray | None = None,
        weights: Weights | None = None,
        *,
        every: bool = True,
    ) -> Advice: ...


def position_game(grid: np.ndarray, mines: np.ndarray, probes: int = 1) -> Game:
    """A game on layout ``mines`` showing ``grid`` (int8 view codes), ``probes`` made.

    :raises ValueError: when the layout contradicts the view (a mine under a probed
        cell, a number that does not match, a flag on a safe cell).
    """
    layout = MineLayout(mines)
    shown = grid >= 0
    if (
        mines[shown].any()
        or (layout.numbers[shown] != grid[shown]).any()
        or not mines[grid == -2].all()
    ):
        raise ValueError("the layout does not fit the position")
    game = Game(layout, rule_set="complete", first_click="none")
    field = game.minefield
    field.view[...] = grid
    field.probes = max(int(probes), 1)
    field.safe_cells_left = grid.size - layout.mine_count - int(np.count_nonzero(shown))
    return game


def play_on(agent: Adviser, game: Game, cell: int, share_weights: bool = True) -> bool:
    """Probe ``cell`` in ``game``, let ``agent`` play every later guess; whether it won.

    :param share_weights: hand the agent the auto-solver's weights of each position, as
        the evaluation harness does (an adviser that remembers its advice per position
        needs none, and counting them would cost more than the rest of its game).
    """
    width = game.width
    state = game.probe(cell % width, cell // width)
    field = game.minefield
    while state is GameState.PLAYING:
        board = field.board()
        valid = field.view.reshape(-1) == COVERED
        weights = game.rule_set.known_weights(board) if share_weights else None
        # Only the cell is played: candidates that cannot win need not be counted whole.
        advice = agent.advise(board, valid, weights, every=False)
        state = game.probe(advice.cell % width, advice.cell // width)
    return state is GameState.WON
