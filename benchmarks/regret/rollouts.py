"""Playing a logged position on to the end of the game, on a layout of our choosing.

The game is the env's own (:class:`~minesweep_env.Game` with the rule set
``complete``), set to the position: the view as the player saw it, the probes
made so far (so no first-click policy moves a mine again). The first probe is
the candidate's; from then on ``search`` chooses every guess, exactly as in
:func:`semiautomines_agents.evaluation.play.play_game`, and the auto-solver
makes every certain move.
"""

from __future__ import annotations

import numpy as np

from minesweep_env import Game
from minesweep_env.core.cells import COVERED
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import GameState
from semiautomines_agents.search.agent import SearchAgent


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


def play_on(agent: SearchAgent, game: Game, cell: int) -> bool:
    """Probe ``cell`` in ``game``, let ``agent`` play every later guess; whether it won."""
    width = game.width
    state = game.probe(cell % width, cell // width)
    field = game.minefield
    while state is GameState.PLAYING:
        board = field.board()
        valid = field.view.reshape(-1) == COVERED
        advice = agent.advise(board, valid, game.rule_set.known_weights(board))
        state = game.probe(advice.cell % width, advice.cell // width)
    return state is GameState.WON
