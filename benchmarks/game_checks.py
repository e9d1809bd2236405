"""What makes two players' games the same game: the mines and the first cells opened.

A paired comparison is only as good as its pairing. Each game played through
:func:`play_checked` carries a :class:`GameCheck`: a digest of its mines (after
the first-click rule moved any), the first probe, and a digest of the view right
after it (the cells it and the auto-solver opened). Two players met the same
game exactly when their checks are equal.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from semiautomines_agents.base import Agent
from semiautomines_agents.evaluation.play import play_game
from semiautomines_agents.evaluation.records import Chunk, GameRecord


@dataclass(frozen=True)
class GameCheck:
    """One game's fingerprint: equal on both sides when both met the same game."""

    mines: str
    """SHA-256 (first 16 hex digits) of the mines the game was played on."""
    first_cell: int
    """The first probe (flat index)."""
    first_view: str
    """SHA-256 (first 16 hex digits) of the view after the first probe."""


def digest(array: np.ndarray) -> str:
    """A short stable digest of an array's shape and bytes."""
    data = np.ascontiguousarray(array)
    return hashlib.sha256(str(data.shape).encode() + data.tobytes()).hexdigest()[:16]


class _Watched(Agent):
    """Passes every call to ``agent`` and notes the first probe and the view after it."""

    name = "watched"

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.obs_mode = agent.obs_mode
        self.first_cell = -1
        self.first_view: str | None = None

    def reset(self, seed: int | None = None) -> None:
        self.first_cell, self.first_view = -1, None
        self.agent.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Any) -> int:
        if game.minefield.probes == 1 and self.first_view is None:
            self.first_view = digest(game.minefield.view)
        action = self.agent.act(observation, action_mask, game)
        if game.minefield.probes == 0:
            self.first_cell = int(action)
        return action


def play_checked(env: Any, agent: Agent, chunk: Chunk, index: int) -> tuple[GameRecord, GameCheck]:
    """``play_game`` with the game's :class:`GameCheck`."""
    watched = _Watched(agent)
    record = play_game(env, watched, chunk, index)
    minefield = env.unwrapped.game.minefield
    # A game over at its first probe was never handed back: its last view is the first.
    first_view = watched.first_view or digest(minefield.view)
    return record, GameCheck(digest(minefield.layout.mines), watched.first_cell, first_view)


def mismatches(ours: dict[int, GameCheck], theirs: dict[int, GameCheck]) -> list[int]:
    """The games (by number) both played whose checks differ, in order."""
    return sorted(i for i in ours.keys() & theirs.keys() if ours[i] != theirs[i])
