"""``--gif FILE`` of ``watch`` and ``replay``: the driver's game written as an animated GIF."""

from __future__ import annotations

from pathlib import Path

from minesweep_env.cli.errors import CliError
from minesweep_env.core.minefield import GameState
from minesweep_env.tui import Driver, InvalidGuess
from minesweep_env.tui.recording import record_gif

MAX_CELL, MIN_CELL = 24, 12
WIDTH_PIXELS = 600
"""The widest picture a board is drawn in: an expert board at 20 pixels a cell (a GIF of
an expert game stays near 250 KB); smaller boards get 24."""


def cell_pixels(width: int) -> int:
    """Pixels a cell: 24, smaller on boards wider than 30 cells (even, at least 12)."""
    return max(MIN_CELL, min(MAX_CELL, WIDTH_PIXELS // width) // 2 * 2)


def write_film(driver: Driver, path: str | Path) -> str:
    """Play the driver's current game into ``path``; one line saying what happened.

    :raises CliError: when the file cannot be written or the driver guesses wrong.
    """
    try:
        game, guesses = record_gif(driver, path, cell_pixels(driver.game().width))
    except OSError as error:
        raise CliError(f"{path}: cannot write the GIF ({error.strerror or error})") from None
    except InvalidGuess as error:
        raise CliError(f"the player made an invalid guess {error}") from None
    outcome = {GameState.WON: "won", GameState.LOST: "lost"}.get(game.state, "unfinished")
    count = f"{len(guesses)} guess" + ("" if len(guesses) == 1 else "es")
    return f"{path}: {driver.title(len(guesses))}: {outcome} after {count}"
