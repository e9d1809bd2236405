"""A replay's mouse events as the player's actions: probe, flag, chord.

ms-toollib runs each program's mouse state machine (press and release of either
button, both at once, the quirks of each program) and marks every event with
what it did to the game (its ``useful_level``): 1 a flag set or taken away,
2 a left release that opened cells, 3 a chord (both buttons, or a double click)
that opened cells, 4 the click that lost the game. Only those events are
actions here; a click that changed nothing is not one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

ActionKind = Literal["probe", "flag", "chord"]

FLAG_LEVEL = 1
PROBE_LEVEL = 2
CHORD_LEVEL = 3
LOSS_LEVEL = 4


@dataclass(frozen=True)
class ReplayAction:
    """One thing the player did to the game."""

    kind: ActionKind
    """``probe`` (open a covered cell), ``flag`` (flag or unflag it) or ``chord``
    (open the covered neighbours of a number whose flags are all placed)."""
    x: int
    y: int
    time: float
    """Seconds since the game started, as the replay records it."""


COVERED_SHOWN = (10, 11)
"""What ms-toollib's game board shows on a covered cell: 10 plain, 11 flagged."""


def action_of(level: int, x: int, y: int, time: float, shown: int) -> ReplayAction | None:
    """The action of one event that changed the game (``None`` for one that did not).

    :param level: ms-toollib's ``useful_level`` of the event.
    :param shown: what cell (x, y) showed before the event (ms-toollib's codes): the
        losing click (level 4) is a probe on a covered cell and a chord on an opened one.
    """
    if level == FLAG_LEVEL:
        return ReplayAction("flag", x, y, time)
    if level == PROBE_LEVEL:
        return ReplayAction("probe", x, y, time)
    if level == CHORD_LEVEL:
        return ReplayAction("chord", x, y, time)
    if level == LOSS_LEVEL:
        return ReplayAction("probe" if shown in COVERED_SHOWN else "chord", x, y, time)
    return None


def actions_of_events(
    events: Iterable[Sequence], pixels: int, width: int, height: int
) -> list[ReplayAction]:
    """The player's actions, in order, from the decoded events
    (``[time, button, x, y, level, shown]``, pixels); events off the board are
    dropped (a program may record a release beside the board).

    :raises ValueError: for an event that is not six fields of the right types.
    """
    actions = []
    for event in events:
        if len(event) != 6:
            raise ValueError(f"an event of {len(event)} fields, not 6")
        time, _button, px, py, level, shown = event
        x, y = int(px) // pixels, int(py) // pixels
        if not (0 <= x < width and 0 <= y < height):
            continue
        action = action_of(int(level), x, y, float(time), int(shown))
        if action is not None:
            actions.append(action)
    return actions
