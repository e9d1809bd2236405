"""A human replay played again on the project's own minefield, action by action.

Each step hands out the position the player saw just before the action (the
view, their flags included) and the cells the action opens in it, so a probe or
a chord can be judged on exactly that position. The game is a plain
:class:`~minesweep_env.core.minefield.Minefield` (no auto-solver, no first-click
move: the replay's layout is the one played).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..core.cells import COVERED, FLAGGED
from ..core.minefield import GameState, Minefield
from .replay import HumanReplay
from .replay_actions import ReplayAction


@dataclass(frozen=True)
class ReplayStep:
    """One action of the replay and the position it was made in."""

    move: int
    """The action's number in the replay, from 1."""
    action: ReplayAction
    view: np.ndarray
    """The player's view before the action (int8, (H, W); flags are the player's)."""
    state: GameState
    """The game's state after the action."""
    opens: tuple[tuple[int, int], ...] = ()
    """The cells (x, y) the action opens: a probe's covered cell, a chord's covered
    unflagged neighbours (all at once, as the programs open them); none for a flag."""


def new_minefield(replay: HumanReplay) -> Minefield:
    """The replay's game, nothing probed yet."""
    return Minefield(replay.layout, first_click="none")


def chord_cells(view: np.ndarray, x: int, y: int) -> list[tuple[int, int]]:
    """The cells a chord on (x, y) opens in ``view``: the covered, unflagged neighbours
    of the number there when as many flags touch it as it shows (as every program
    does; a wrong flag then opens a mine). None for a chord on anything else."""
    height, width = view.shape
    number = int(view[y, x])
    if number < 0:
        return []
    around = [
        (nx, ny)
        for ny in range(max(0, y - 1), min(height, y + 2))
        for nx in range(max(0, x - 1), min(width, x + 2))
        if (nx, ny) != (x, y)
    ]
    if sum(int(view[ny, nx] == FLAGGED) for nx, ny in around) != number:
        return []
    return [(nx, ny) for nx, ny in around if view[ny, nx] == COVERED]


def opened_by(action: ReplayAction, view: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The cells ``action`` opens in ``view`` (see :attr:`ReplayStep.opens`)."""
    if action.kind == "probe":
        return ((action.x, action.y),) if view[action.y, action.x] == COVERED else ()
    if action.kind == "chord":
        return tuple(chord_cells(view, action.x, action.y))
    return ()


def chord(field: Minefield, x: int, y: int) -> None:
    """Play a chord on (x, y): open :func:`chord_cells` until the game ends."""
    for nx, ny in chord_cells(field.view, x, y):
        if field.state is GameState.PLAYING:
            field.probe(nx, ny)


def play_action(field: Minefield, action: ReplayAction) -> None:
    """Play one action on ``field``."""
    if action.kind == "probe":
        field.probe(action.x, action.y)
    elif action.kind == "flag":
        field.set_flag(action.x, action.y, field.view[action.y, action.x] != FLAGGED)
    else:
        chord(field, action.x, action.y)


def walk(replay: HumanReplay) -> Iterator[ReplayStep]:
    """Every action of ``replay`` with the view before it, until the game ends."""
    field = new_minefield(replay)
    for move, action in enumerate(replay.actions, start=1):
        if field.state is not GameState.PLAYING:
            return
        view = field.view.copy()
        play_action(field, action)
        yield ReplayStep(move, action, view, field.state, opened_by(action, view))


def final_state(replay: HumanReplay) -> GameState:
    """How the replay's actions end on this project's minefield (``won`` should agree
    with :attr:`HumanReplay.completed`)."""
    field = new_minefield(replay)
    for action in replay.actions:
        if field.state is not GameState.PLAYING:
            break
        play_action(field, action)
    return field.state
