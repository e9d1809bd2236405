"""The one interface every agent implements.

An agent sees what a reinforcement-learning policy sees (the observation and
the action mask) and, if it is a hand-written player, the position itself
(``env.unwrapped.game``): a baseline that reads the board directly is stronger
and simpler than one that decodes observation planes. Learned agents ignore
the game. Actions are flat cell indices ``y * width + x``, as the env's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

import numpy as np

if TYPE_CHECKING:
    from minesweep_env import Game


class Agent(ABC):
    """A Minesweeper player: one action per call, reset before every game.

    Subclasses set :attr:`name`, :attr:`deterministic` and :attr:`obs_mode`
    and implement :meth:`act`. An agent object plays one game at a time; the
    evaluation harness makes one per worker process.
    """

    name: ClassVar[str]
    """The registry name (``--agents``)."""
    deterministic: ClassVar[bool] = True
    """Whether the same position always gets the same action. A deterministic
    agent plays a fixed map the same way every time, so the harness plays each
    map once for it instead of ``--games`` identical replays."""
    obs_mode: str = "grid"
    """The env observation this agent reads (``planes``, ``grid`` or
    ``planes+probabilities``); the harness makes the env with it."""

    def reset(self, seed: int | None = None) -> None:  # noqa: B027 (optional hook)
        """Start a new game; ``seed`` seeds any randomness of the agent."""

    @abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game) -> int:
        """The flat index (``y * width + x``) of the cell to probe.

        :param observation: the env's observation in :attr:`obs_mode`.
        :param action_mask: boolean, one entry per cell, ``True`` where probing
            is a valid action (covered, unflagged cells).
        :param game: the position being played (read-only use).
        """

    def describe(self) -> str:
        """One line for reports: the agent and its settings."""
        return self.name
