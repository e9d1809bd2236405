"""minesweeper.online's ``.msor`` replays, as JSMinesweeper steps through them.

The file is JSON: ``{"header": {"width", "height", "mines"}, "replay": [step, ...]}``;
a step is ``{"type", "x", "y", "time", "touchCells"}`` with type 0 a left click
(probe), 1 a flag and 3 a chord, ``time`` in milliseconds, and ``touchCells`` five
numbers a cell (x, y, what the cell now shows, two more not used here): 0..8 a
number, 10 a flag set or taken away (after the fatal click: a mine shown), 11 the
mine that lost, 12 a flag on a safe cell shown after the loss. As JSMinesweeper
does, a flag step (type 1) toggles its own cell and its ``touchCells`` are not read.

The file keeps what the clicks showed, not the layout, so the layout is rebuilt:
on a won game the mines are the cells never opened; on a lost one, the mine that
lost, the mines shown after it and the flags the loss did not mark wrong. The
rebuilt layout must give every number the file shows and the header's mine count,
or the file is refused: a review is never made on a guessed layout.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..core.board_spec import size_problem
from ..core.cells import adjacent_mine_counts
from ..core.layout import MineLayout
from .replay_actions import ActionKind, ReplayAction

STEP_KINDS: dict[int, ActionKind] = {0: "probe", 1: "flag", 3: "chord"}
FLAG_SHOWN, LOST_ON, WRONG_FLAG = 10, 11, 12


class _Shown:
    """What the steps showed: numbers, flags, the fatal mine and the mines after it."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[int, int], int] = {}
        self.flags: set[tuple[int, int]] = set()
        self.exploded: tuple[int, int] | None = None
        self.mines_shown: set[tuple[int, int]] = set()
        self.wrong_flags: set[tuple[int, int]] = set()

    def take(self, x: int, y: int, value: int) -> None:
        cell = (x, y)
        if 0 <= value <= 8:
            self.numbers[cell] = value
        elif value == LOST_ON:
            self.exploded = cell
        elif value == WRONG_FLAG:
            self.wrong_flags.add(cell)
        elif value == FLAG_SHOWN and self.exploded is not None:
            self.mines_shown.add(cell)
        elif value == FLAG_SHOWN:
            self.flags ^= {cell}
        else:
            raise ValueError(f"a cell shows {value}, not 0..8 or 10..12")


def _integer(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is {value!r}, not an integer")
    return value


def _step(step: Any, width: int, height: int, shown: _Shown) -> ReplayAction:
    """One step's action, its shown cells taken into ``shown``."""
    if not isinstance(step, dict):
        raise ValueError("a step is not an object")
    kind = STEP_KINDS.get(_integer(step.get("type"), "a step's type"))
    if kind is None:
        raise ValueError(f"a step of type {step.get('type')!r}, not 0, 1 or 3")
    x, y = _integer(step.get("x"), "a step's x"), _integer(step.get("y"), "a step's y")
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"a step at ({x}, {y}), off the {width}x{height} board")
    time = step.get("time", 0)
    if isinstance(time, bool) or not isinstance(time, int | float):
        raise ValueError(f"a step's time is {time!r}")
    if kind == "flag":
        shown.flags ^= {(x, y)}
        return ReplayAction(kind, x, y, float(time) / 1000.0)
    touched = step.get("touchCells", [])
    if not isinstance(touched, list) or len(touched) % 5:
        raise ValueError("touchCells is not a list of five numbers a cell")
    for i in range(0, len(touched), 5):
        cx, cy = _integer(touched[i], "a cell's x"), _integer(touched[i + 1], "a cell's y")
        if not (0 <= cx < width and 0 <= cy < height):
            raise ValueError(f"a cell ({cx}, {cy}) off the {width}x{height} board")
        shown.take(cx, cy, _integer(touched[i + 2], "a cell's value"))
    return ReplayAction(kind, x, y, float(time) / 1000.0)  # the file counts milliseconds


def _mines(shown: _Shown, width: int, height: int) -> np.ndarray:
    """The rebuilt layout (see the module docstring)."""
    mines = np.zeros((height, width), dtype=bool)
    if shown.exploded is None:
        mines[:] = True
        for x, y in shown.numbers:
            mines[y, x] = False
    else:
        for x, y in {shown.exploded} | shown.mines_shown | (shown.flags - shown.wrong_flags):
            mines[y, x] = True
    return mines


def _check(mines: np.ndarray, shown: _Shown, total: int) -> None:
    """The rebuilt layout must explain every number shown and the mine count."""
    count = int(mines.sum())
    if count != total:
        raise ValueError(
            f"the cells shown leave {count} mines, the header says {total}: an unfinished "
            "game, whose layout the file does not hold"
        )
    numbers = adjacent_mine_counts(mines)
    for (x, y), value in shown.numbers.items():
        if mines[y, x] or numbers[y, x] != value:
            raise ValueError(f"cell ({x}, {y}) shows {value}, which no rebuilt layout explains")


def parse_msor(text: str) -> tuple[MineLayout, list[ReplayAction], bool]:
    """The layout, the actions and whether the game was won, from an ``.msor`` file's text.

    :raises ValueError: what is wrong (the caller names the file).
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("header"), dict):
        raise ValueError("no header object")
    header = data["header"]
    width = _integer(header.get("width"), "the width")
    height = _integer(header.get("height"), "the height")
    total = _integer(header.get("mines"), "the mine count")
    problem = size_problem(width, height)
    if problem is not None:
        raise ValueError(problem)
    steps = data.get("replay")
    if not isinstance(steps, list):
        raise ValueError("no replay list")
    shown = _Shown()
    actions = [_step(step, width, height, shown) for step in steps]
    mines = _mines(shown, width, height)
    _check(mines, shown, total)
    return MineLayout(mines), actions, shown.exploded is None
