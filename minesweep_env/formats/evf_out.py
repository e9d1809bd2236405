"""A game written as a Metasweeper ``.evf`` replay, so Metasweeper (and any
ms-toollib reader) plays it back.

The game is given as its layout and its actions (probes, flags, chords), as a
:class:`~minesweep_env.formats.replay.HumanReplay` holds them or as an agent's
game is turned into them. ms-toollib's ``BaseVideo`` plays each action as the
mouse events a person would make (press and release on the cell's centre) and
encodes the file.

Timing is nominal: ``BaseVideo`` stamps each event with its own clock, so the
times in the file are the milliseconds the writer took, not a player's. The
file's software field says so (:data:`NOMINAL_TIMING`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..core.layout import MineLayout
from ..fileio import write_bytes
from .replay_actions import ReplayAction

CELL_PIXELS = 16
"""The cell size of the written replay, in pixels (Metasweeper's default)."""

NOMINAL_TIMING = "nominal timing, not a person's"
"""Said in the software field of every file written here."""

_PRESSES = {
    "probe": (("lc", "lr"),),
    "flag": (("rc", "rr"),),
    "chord": (("lc", "rc"), ("lr", "rr")),
}
"""The mouse events of each action: left click, right click, both buttons."""


def layout_rows(layout: MineLayout) -> list[list[int]]:
    """The layout as ms-toollib takes a board: rows of numbers, ``-1`` on a mine."""
    numbers = layout.numbers.astype(int)
    numbers[layout.mines] = -1
    return numbers.tolist()


def evf_bytes(
    layout: MineLayout, actions: Iterable[ReplayAction], player: str, software: str
) -> bytes:
    """The ``.evf`` file of the game: ``actions`` played on ``layout``.

    :param player: the player's name in the file (an agent's, e.g. ``SemiAutoMines search``).
    :param software: the software field; :data:`NOMINAL_TIMING` is added to it.
    :raises ImportError: when ms-toollib is not installed (one line with the pip command).
    """
    try:
        import ms_toollib  # type: ignore[import-not-found]  # ships no type information
    except ImportError:
        raise ImportError("writing .evf needs ms-toollib: pip install ms-toollib==1.5.20") from None
    width, height = layout.width, layout.height
    video = ms_toollib.BaseVideo(layout_rows(layout), CELL_PIXELS)
    half = CELL_PIXELS // 2
    for action in actions:
        if not (0 <= action.x < width and 0 <= action.y < height):
            raise ValueError(f"cell ({action.x}, {action.y}) is off the {width}x{height} board")
        # BaseVideo takes the pixel position row first.
        where = (action.y * CELL_PIXELS + half, action.x * CELL_PIXELS + half)
        for down_or_up in _PRESSES[action.kind]:
            for event in down_or_up:
                video.step(event, where)
    video.player_identifier = player
    video.software = f"{software} ({NOMINAL_TIMING})"
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data)


def write_evf(
    path: str | Path,
    layout: MineLayout,
    actions: Iterable[ReplayAction],
    player: str,
    software: str,
) -> None:
    """Write :func:`evf_bytes` to ``path`` atomically (a whole file or none)."""
    write_bytes(path, evf_bytes(layout, actions, player, software))
