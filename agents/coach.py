"""A coach for human games: every guess of a replay, judged on the exact odds.

A *guess* is a probe of a cell that no logic proves safe at that moment: its mine
probability, given the numbers the player saw and the game's mine total, is
above zero (the player's flags are marks, not facts: they are set aside). The
first probe is not judged: every program these replays come from makes it safe.

For each guess the review gives the cell's exact mine probability, the lowest on
the board at that moment, the search agent's advice with its explanation (what
``semiautomines guess`` prints for the same position), and whether the cell was
a forced 50/50 (a coin flip no later number could have settled). The summary
multiplies the survival chances the player took and the best ones on offer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.formats.replay import HumanReplay
from minesweep_env.formats.replay_walk import ReplayStep, walk
from minesweep_env.solver.probability import Weights, count_position

from .commands.guess import advice_json
from .search import Advice, SearchAgent
from .search.explain import explain
from .search.forced import is_forced_guess

Progress = Callable[[int, int], None]
"""Told ``(move, moves)`` before each probe is judged."""


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
        """The chance of surviving every guess the player made."""
        return math.prod(1.0 - g.probability for g in self.guesses)

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


def judge(
    step: ReplayStep, replay: HumanReplay, agent: SearchAgent, cache: dict
) -> JudgedGuess | None:
    """The probe of ``step`` as a :class:`JudgedGuess`, or ``None`` when logic proved
    its cell safe (or it is the first probe)."""
    if not (step.view >= 0).any():
        return None  # the first probe: every program these replays come from makes it safe
    if step.view[step.action.y, step.action.x] >= 0:
        return None  # a click on an open cell (kept by some formats) probes nothing
    board = seen_position(step.view, replay.mines)
    weights = count_position(board, cache=cache)
    cell = step.action.y * board.width + step.action.x
    mine = weights.mine_weight[cell] or 0
    if mine == 0:
        return None
    covered = np.flatnonzero(board.grid.reshape(-1) == COVERED)
    lowest = min(weights.mine_weight[int(c)] or 0 for c in covered)
    return JudgedGuess(
        move=step.move,
        x=step.action.x,
        y=step.action.y,
        probability=mine / weights.layouts,
        safest=lowest / weights.layouts,
        forced=is_forced_guess(board, weights, cell, cache),
        advice=_advice(agent, board, weights),
        lost=bool(replay.layout.mines[step.action.y, step.action.x]),
    )


def review_replay(
    replay: HumanReplay, agent: SearchAgent | None = None, progress: Progress | None = None
) -> Review:
    """Judge every probe of ``replay`` (see the module docstring).

    :param agent: who advises at each guess (default: the search agent).
    :param progress: told before each probe is judged (a long game takes a while).
    """
    agent = agent or SearchAgent()
    cache: dict = {}
    guesses = []
    outcome = "unfinished"
    moves = len(replay.actions)
    for step in walk(replay):
        if step.action.kind == "probe":
            if progress is not None:
                progress(step.move, moves)
            guess = judge(step, replay, agent, cache)
            if guess is not None:
                guesses.append(guess)
        if step.state.value != "playing":
            outcome = step.state.value
    return Review(replay, guesses, outcome)
