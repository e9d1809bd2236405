"""PyPI ``gym-minesweeper`` 0.0.1: one small single-process env, no auto-solver.

One step probes one cell and flood-fills its zero area (recursive); there is no
inference and no safe first click. Its action check compares the column with
the board's height, so a 30-wide expert board raises on columns >= 16: expert
is played transposed (30 rows of 16), the same game. It imports ``gym`` and
``pygame`` at the top (both come with the bench extra); pygame's greeting is
silenced.
"""

from __future__ import annotations

import os
import random
import time

import numpy as np

from . import require_module

BOARDS = {"beginner": (9, 9, 10), "expert": (30, 16, 99)}
"""Board -> (rows, columns, mines) as this env is built (expert transposed, see above)."""


class RandomGames:
    """A random masked agent (a uniformly chosen covered cell) on gym-minesweeper."""

    def __init__(self, board: str, seed: int = 0) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        module = require_module("gym_minesweeper.envs.minesweeper", "gym-minesweeper 0.0.1")
        rows, columns, mines = BOARDS[board]
        self.env = module.MinesweeperEnv(height=rows, width=columns, num_mines=mines)
        self.columns = columns
        random.seed(seed)  # its mines come from the random module
        self.rng = np.random.default_rng(seed)

    def play(self, cpu_seconds: float) -> tuple[int, int, int]:
        """Whole games until ``cpu_seconds`` of process time pass: (games, steps, wins)."""
        games = steps = wins = 0
        deadline = time.process_time() + cpu_seconds
        while time.process_time() < deadline:
            state = self.env.reset()
            done = False
            reward = 0
            while not done:
                covered = np.flatnonzero(state.reshape(-1) == -1)
                cell = int(covered[self.rng.integers(len(covered))])
                state, reward, done, _ = self.env.step((cell // self.columns, cell % self.columns))
                steps += 1
            games += 1
            wins += reward == self.env.win_reward
        return games, steps, wins
