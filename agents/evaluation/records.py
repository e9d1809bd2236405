"""The types a run is made of and hands between its parts: what the games share,
a chunk of work, one game's record and replay, the run's outcome.

A leaf: the harness, the backends, the players and the reports all import
these, and this module imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minesweep_env import MineLayout
from minesweep_env.core.difficulty import Difficulty

from .targets import Target


@dataclass(frozen=True)
class Settings:
    """What every game of a run shares."""

    rule_set: str = "complete"
    first_click: str = "safe"
    seed: int = 0
    model: str | None = None
    """The PPO model file; ``None`` for the shipped default."""
    trust_model: bool = False
    """Whether ``model`` may be a stable-baselines3 zip (``--trust-model``)."""
    save_games: bool = False
    """Whether each record carries its game, to replay (``--save-games``)."""


@dataclass(frozen=True)
class Chunk:
    """Some games of one agent on one target: the unit of work of a worker."""

    agent: str
    target: Target
    indices: tuple[int, ...]
    settings: Settings


@dataclass(frozen=True, eq=False)
class SavedGame:
    """What replays one game: the layout, what the first click did to it, the moves."""

    mines: np.ndarray
    """``bool`` (H, W): the layout before the first click."""
    removed: tuple[int, ...]
    """Mines the first-click policy took away (flat indices)."""
    added: tuple[int, ...]
    """Cells it put them on."""
    moves: tuple[int, ...]
    """Every probe, in order (flat indices ``y * W + x``)."""
    seed: int | None = None
    """The env's reset seed of the game."""
    layout_seed: int | None = None
    """The seed the layout was drawn from (``None`` for a map)."""
    map: str | None = None
    """The map file played (``None`` for a drawn layout)."""

    def layout_after_first_click(self) -> MineLayout:
        mines = self.mines.copy()
        flat = mines.reshape(-1)
        flat[list(self.removed)] = False
        flat[list(self.added)] = True
        return MineLayout(mines)


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game, as a worker reports it."""

    index: int
    """The game's number within its board (fixes its layout seed)."""
    won: bool
    guesses: int
    """Cells the player probed, the first click included."""
    safe_opened: float
    """Share of the board's safe cells open at the end (1.0 on a win)."""
    seconds: float
    """Time spent playing it (env steps and the agent's decisions)."""
    invalid: bool = False
    """The agent chose an invalid action (the game was stopped and counts as lost)."""
    saved: SavedGame | None = None
    """The layout and moves, to replay the game (``evaluate --save-games`` only)."""
    difficulty: Difficulty | None = None
    """3BV, ZiNi, openings and islands of the layout the game was played on, after
    the first-click policy moved any mine (``None`` for games read back from files)."""


class AgentFailure(Exception):
    """An agent raised while choosing a move: which agent, which game, and the
    games of its chunk finished before (so a stopped run loses none of them).

    Pickles with its fields, as a worker process or a Ray task hands it back.
    """

    def __init__(
        self,
        agent: str,
        target: str,
        game: int,
        reason: str,
        records: tuple[GameRecord, ...] = (),
    ):
        super().__init__(f"agent {agent!r} failed in game {game} on {target}: {reason}")
        self.agent, self.target, self.game, self.reason = agent, target, game, reason
        self.records = tuple(records)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.agent, self.target, self.game, self.reason, self.records))

    def with_records(self, records: list[GameRecord]) -> AgentFailure:
        """The same failure, carrying the chunk's games finished before it."""
        return AgentFailure(self.agent, self.target, self.game, self.reason, tuple(records))


@dataclass
class Run:
    """The outcome of an evaluation: one row per agent and target, and how it ended."""

    rows: list[dict[str, Any]]
    settings: Settings
    planned_games: int
    played_games: int
    interrupted: bool = False
    error: str | None = None
    """Why the run stopped early, when an agent or the env failed."""
    records: dict[tuple[str, str], list[GameRecord]] = field(default_factory=dict, repr=False)
    seconds: float = 0.0
    """Wall-clock time of the games, all workers together (``games_per_s`` of a row is
    one process's speed; ``played_games / seconds`` is the whole run's)."""
    backend: str = "local"
    """Where the games were played (:meth:`.backends.base.Backend.describe`)."""
