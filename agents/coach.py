"""A coach for human games: every guess of a replay, judged on the exact odds.

A *guess* is the opening of a cell that no logic proves safe at that moment: its
mine probability, given the numbers the player saw and the game's mine total, is
above zero (the player's flags are marks, not facts: they are set aside). A probe
opens one cell; a chord opens every covered, unflagged neighbour of its number
at once, so a chord on a wrong or unproven flag is a guess on each cell it opens
that logic does not prove safe (reported with the chord's cell). The first probe
is not judged: every program these replays come from makes it safe.

For each guess the review gives the cell's exact mine probability, the lowest on
the board at that moment, the search agent's advice with its explanation (what
``semiautomines guess`` prints for the same position), and whether the cell was
a forced 50/50 (a coin flip no later number could have settled). The summary
multiplies the survival chances the player took and the best ones on offer. The
cells of one chord are judged on the same position; the survival counts them at
their exact joint risk (each cell's probability given the chord's earlier cells
are safe), since they were opened together, not one after another.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE
from minesweep_env.formats.replay import HumanReplay
from minesweep_env.formats.replay_walk import ReplayStep, walk
from minesweep_env.solver.probability import Weights, count_position

from .commands.guess import advice_json
from .search import Advice, SearchAgent
from .search.explain import explain
from .search.forced import is_forced_guess

Progress = Callable[[int, int], None]
"""Told ``(move, moves)`` before each probe or chord is judged."""


@dataclass(frozen=True)
class JudgedGuess:
    """One guess of the player and what the position offered."""

    move: int
    """The action's number in the replay, from 1."""
    x: int
    y: int
    probability: float
    """The exact mine probability of the probed cell."""
    safest: float
    """The lowest mine probability of any covered cell at that moment."""
    forced: bool
    """The cell was a forced 50/50: a coin flip no later number could settle."""
    advice: dict[str, Any]
    """The agent's advice, as ``semiautomines guess --json`` prints it."""
    lost: bool = False
    """The guess hit a mine."""
    chord: tuple[int, int] | None = None
    """The number (x, y) chorded when a chord opened the cell; ``None`` for a probe."""
    conditional: float | None = None
    """The mine probability given that the cells the same chord opened before this one
    are safe (:func:`chained_probabilities`): the cell's share of the chord's joint
    risk; equal to :attr:`probability` for a probe and a chord's first guess (``None``:
    not counted, :attr:`probability` stands)."""

    @property
    def risk(self) -> float:
        """The factor this guess takes off the chance of surviving the game."""
        return self.probability if self.conditional is None else self.conditional

    def as_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "x": self.x,
            "y": self.y,
            "probability": self.probability,
            "safest": self.safest,
            "advice": self.advice,
            "forced": self.forced,
            "lost": self.lost,
            "chord": None if self.chord is None else {"x": self.chord[0], "y": self.chord[1]},
            "conditional": self.risk,
        }


@dataclass(frozen=True)
class Review:
    """Every guess of a replay and the summary of the risks taken."""

    replay: HumanReplay
    guesses: list[JudgedGuess] = field(default_factory=list)
    outcome: str = "won"
    """``won``, ``lost`` or ``unfinished``: how the actions end on our minefield."""

    @property
    def survival_taken(self) -> float:
        """The chance of surviving every guess the player made (a chord's cells at their
        exact joint risk)."""
        return math.prod(1.0 - g.risk for g in self.guesses)

    @property
    def survival_best(self) -> float:
        """The chance of surviving the same number of guesses, each on the safest cell."""
        return math.prod(1.0 - g.safest for g in self.guesses)

    def summary(self) -> dict[str, Any]:
        replay = self.replay
        return {
            "guesses": len(self.guesses),
            "survival_taken": self.survival_taken,
            "survival_best": self.survival_best,
            "bbbv": replay.bbbv,
            "zini": replay.zini,
            "openings": replay.openings,
            "islands": replay.islands,
            "forced": sum(g.forced for g in self.guesses),
            "chord_guesses": sum(g.chord is not None for g in self.guesses),
            "outcome": self.outcome,
            "completed": replay.completed,
            "moves": len(replay.actions),
            "program": replay.program,
            "width": replay.width,
            "height": replay.height,
            "mines": replay.mines,
        }

    def as_json(self) -> dict[str, Any]:
        return {
            "replay": self.replay.source,
            "guesses": [g.as_json() for g in self.guesses],
            "summary": self.summary(),
        }


def seen_position(view: np.ndarray, mines: int) -> Board:
    """The position the player saw, flags set aside (a person's flag may be wrong)."""
    grid = view.copy()
    grid[grid == FLAGGED] = COVERED
    return Board(grid, mines)


def _advice(agent: SearchAgent, board: Board, weights: Weights) -> dict[str, Any]:
    """The agent's advice on ``board`` as ``guess --json`` prints it."""
    advice = agent.advise(board, weights=weights)
    if not advice.candidates:
        candidates = agent.weigh(board, weights)
        advice = Advice(
            advice.cell, advice.reason, advice.safety, candidates, advice.win_probability
        )
    mine = weights.mine_weight.get(advice.cell)
    probability = None if mine is None else mine / weights.layouts
    explanation = explain(agent, board, weights, advice)
    return advice_json(advice, board.width, probability, board.total_mines, explanation, agent)


def chained_probabilities(
    board: Board, cells: list[tuple[int, int]], weights: Weights, cache: dict
) -> list[float]:
    """Each cell's mine probability given that the cells before it in ``cells`` are
    safe, so that the product of the chances of surviving them is the exact chance
    that all of them are safe (what a chord opening them all at once risks).

    The first is the cell's own probability (from ``weights``, the counts of
    ``board``); each later one is counted on ``board`` with the earlier cells marked
    safe. Once the cells so far cannot all be safe, the rest keep their own.
    """
    width = board.width
    chained = []
    grid = board.grid.copy()
    current: Weights | None = weights
    for x, y in cells:
        cell = y * width + x
        own = (weights.mine_weight[cell] or 0) / weights.layouts
        if current is None:
            chained.append(own)
            continue
        mine = (current.mine_weight[cell] or 0) / current.layouts
        chained.append(mine)
        grid[y, x] = KNOWN_SAFE
        if mine == 1:
            current = None  # no layout keeps every cell so far safe
        elif len(chained) < len(cells):
            current = count_position(Board(grid.copy(), board.total_mines), cache=cache)
    return chained


def judge(
    step: ReplayStep, replay: HumanReplay, agent: SearchAgent, cache: dict
) -> list[JudgedGuess]:
    """The cells ``step`` opens that logic did not prove safe, each a :class:`JudgedGuess`
    (none for the first probe, a flag, or a probe or chord that opens nothing)."""
    if not step.opens or not (step.view >= 0).any():
        return []  # nothing opened, or the first probe: every program makes it safe
    board = seen_position(step.view, replay.mines)
    weights = count_position(board, cache=cache)
    risky = [(x, y) for x, y in step.opens if weights.mine_weight[y * board.width + x]]
    if not risky:
        return []
    covered = np.flatnonzero(board.grid.reshape(-1) == COVERED)
    safest = min(weights.mine_weight[int(c)] or 0 for c in covered) / weights.layouts
    advice = _advice(agent, board, weights)
    action = step.action
    chord = (action.x, action.y) if action.kind == "chord" else None
    chained = chained_probabilities(board, risky, weights, cache)
    return [
        JudgedGuess(
            move=step.move,
            x=x,
            y=y,
            probability=(weights.mine_weight[y * board.width + x] or 0) / weights.layouts,
            safest=safest,
            forced=is_forced_guess(board, weights, y * board.width + x, cache),
            advice=advice,
            lost=bool(replay.layout.mines[y, x]),
            chord=chord,
            conditional=conditional,
        )
        for (x, y), conditional in zip(risky, chained, strict=True)
    ]


def review_replay(
    replay: HumanReplay, agent: SearchAgent | None = None, progress: Progress | None = None
) -> Review:
    """Judge every probe and chord of ``replay`` (see the module docstring).

    :param agent: who advises at each guess (default: the search agent).
    :param progress: told before each probe or chord is judged (a long game takes a while).
    """
    agent = agent or SearchAgent()
    cache: dict = {}
    guesses = []
    outcome = "unfinished"
    moves = len(replay.actions)
    for step in walk(replay):
        if step.opens:
            if progress is not None:
                progress(step.move, moves)
            guesses.extend(judge(step, replay, agent, cache))
        if step.state.value != "playing":
            outcome = step.state.value
    return Review(replay, guesses, outcome)
