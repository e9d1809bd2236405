"""A driven game as an animated GIF, through the ``rgb_array`` renderer, no terminal needed.

Each guess is shown in three beats: the position with the guessed cell
outlined (what the player chose), the auto-solver's rounds as it opens and
flags what it proves, and the position it leaves. The last frame stays up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.board import Board
from ..game import Game
from ..render.gif import write_gif
from ..render.picture import BoardPainter
from ..solver.base import Proof
from .driver import Driver, Guess, play_out

GUESS_MS = 500
"""How long the outlined guess shows before it is probed."""
ROUND_MS = 120
"""How long each round of the auto-solver shows."""
END_MS = 3000
"""How long the final position stays before the film loops."""
MARK = np.array((0, 90, 255), dtype=np.uint8)
"""The outline of a guessed cell: a blue no cell of the renderer uses."""


@dataclass
class Film:
    """Frames and how long each shows."""

    painter: BoardPainter
    frames: list[np.ndarray] = field(default_factory=list)
    durations: list[int] = field(default_factory=list)

    def add(self, picture: np.ndarray, ms: int) -> None:
        if self.frames and np.array_equal(self.frames[-1], picture):
            self.durations[-1] += ms  # an unchanged frame only lengthens the last
            return
        self.frames.append(picture)
        self.durations.append(ms)


def record_gif(driver: Driver, path: str | Path, cell: int = 16) -> tuple[Game, list[Guess]]:
    """Play the driver's current game off the screen and write it to ``path`` as a GIF.

    A stop (Ctrl-C, or SIGTERM turned into one) still writes the frames played so far
    before it goes on up: a run keeps what it played.

    :param cell: pixels per cell side (even, at least 12).
    :returns: the finished game and its guesses.
    """
    film = Film(BoardPainter(cell))
    current: list[Game] = []

    def before(game: Game, guess: Guess) -> None:
        current[:] = [game]
        film.add(film.painter.paint(game), ROUND_MS)
        film.add(_outlined(film.painter, film.painter.paint(game), game.width, guess), GUESS_MS)

    def observer(board: Board, proof: Proof) -> bool:
        film.add(film.painter.paint(current[0]), ROUND_MS)
        return False

    try:
        game, guesses = play_out(driver, observer=observer, before=before)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the film of what was played is kept
        if film.frames:
            film.durations[-1] += END_MS
            write_gif(path, film.frames, film.durations)
        raise
    film.add(film.painter.paint(game), END_MS)
    write_gif(path, film.frames, film.durations)
    return game, guesses


def _outlined(painter: BoardPainter, picture: np.ndarray, width: int, guess: Guess) -> np.ndarray:
    top, left = painter.cell_origin(*guess.cell, width)
    size, line = painter.cell, max(2, painter.cell // 8)
    box = picture[top : top + size, left : left + size]
    box[:line], box[-line:], box[:, :line], box[:, -line:] = MARK, MARK, MARK, MARK
    return picture
