"""A tie broken by the value network: the cell whose next positions are worth most.

For each cell of a tie (:mod:`.tie_break`), layouts are drawn exactly from the
engine's weights, the same for every cell (common random numbers); in each the cell
is probed and the auto-solver makes every certain move, which leads to the next
position where a guess is needed. The cell is worth the mean over the layouts of
0 (a mine), 1 (the game won) or the network's P(win) of that position
(:mod:`semiautomines_agents.value`): its survival and what it leads to, valued
beyond the two-move horizon.
"""

from __future__ import annotations

import random

from minesweep_env.core.board import Board
from minesweep_env.core.minefield import GameState
from minesweep_env.solver.probability.sampling import LayoutSampler
from semiautomines_agents.value.network import ValueNet

from .decisions import Decision
from .estimate import decision_seed
from .rollouts import position_game
from .tie_break import Tie

SAMPLES = 32
"""Layouts per tie: each cell's value is a mean over this many next positions."""

SEED = 7919
"""The layouts' seed stream: never the regret map's (seed 0), so the cell chosen does
not depend on the very layouts whose outcomes then credit it."""


def cell_values(
    net: ValueNet, decision: Decision, cells: tuple[int, ...], samples: int, seed: int
) -> dict[int, float]:
    """Each cell's value over ``samples`` common layouts (see the module docstring)."""
    sampler = LayoutSampler(decision.board)
    rng = random.Random(decision_seed(decision.key, seed))
    totals = dict.fromkeys(cells, 0.0)
    for _ in range(samples):
        mines = sampler.sample(rng)
        flat = mines.reshape(-1)
        pending: list[tuple[int, Board]] = []
        for cell in cells:
            if flat[cell]:
                continue
            game = position_game(decision.grid, mines, decision.move)
            state = game.probe(cell % game.width, cell // game.width)
            if state is GameState.WON:
                totals[cell] += 1.0
            elif state is GameState.PLAYING:
                pending.append((cell, game.minefield.board()))
        values = net.values([board for _, board in pending])
        for (cell, _), value in zip(pending, values, strict=True):
            totals[cell] += float(value)
    return {cell: total / samples for cell, total in totals.items()}


def value_choices(
    net: ValueNet,
    ties: list[Tie],
    decisions: dict[str, Decision],
    samples: int = SAMPLES,
    seed: int = SEED,
) -> dict[str, int]:
    """Each tie's cell of the highest value; search's choice keeps an exact tie."""
    choices = {}
    for tie in ties:
        values = cell_values(net, decisions[tie.key], tie.cells, samples, seed)
        choices[tie.key] = max(tie.cells, key=lambda c: (values[c], c == tie.search))
    return choices
