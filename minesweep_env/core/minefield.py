"""A game in progress without any solver: probing, flood fill, flags, win and loss.

The core knows the mines and shows the player only the view. It is driven from
outside (by :class:`minesweep_env.Game`, which adds the auto-solver).
"""

from __future__ import annotations

from enum import Enum

import numpy as np

from .board import Board
from .cells import COVERED, FLAGGED, covered_view, neighbour_table
from .first_click import DeferredGenerator, FirstClick, protect_first_click
from .layout import MineLayout


class GameState(str, Enum):
    """The state of a game; a ``str`` so it compares equal to its value."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class WinRule(str, Enum):
    """When a game counts as won."""

    SAFE_CELLS_OPENED = "safe-cells-opened"
    """The usual rule: every safe cell is probed, flags do not matter."""
    NOTHING_COVERED = "nothing-covered"
    """The IOCCC program's rule: no cell is left covered and unflagged."""


GeneratorSource = np.random.Generator | DeferredGenerator
"""The first-click policy's randomness: a generator, or one made only if the policy
draws (the env starts a game on every reset, and most never draw)."""


class Minefield:
    """The mines, the player's view of them, and the rules of probing.

    :param layout: the mines before the first click.
    :param first_click: policy applied to the first probe (see :class:`FirstClick`).
    :param rng: source of randomness for the first-click policy (see :data:`GeneratorSource`).
    :param win_rule: when the game is won (see :class:`WinRule`).
    """

    def __init__(
        self,
        layout: MineLayout,
        first_click: FirstClick | str = FirstClick.SAFE,
        rng: GeneratorSource | None = None,
        win_rule: WinRule | str = WinRule.SAFE_CELLS_OPENED,
    ):
        self.initial_layout = layout
        self.layout = layout
        # An enum member is taken as it is: the enum call costs more than the rest of a
        # new game's bookkeeping here (the env makes a game on every reset).
        self.first_click = (
            first_click if type(first_click) is FirstClick else FirstClick(first_click)
        )
        self.win_rule = win_rule if type(win_rule) is WinRule else WinRule(win_rule)
        self._rng: GeneratorSource = rng if rng is not None else np.random.default_rng()
        self.height, self.width = layout.mines.shape  # ints already (layout.width converts)
        self._neighbours = neighbour_table(self.width, self.height)
        self.view = covered_view(self.width, self.height).copy()
        self._flat_view = self.view.reshape(-1)
        self._set_layout(layout)
        self.state = GameState.PLAYING
        self.probes = 0
        self.exploded: tuple[int, int] | None = None

    def _set_layout(self, layout: MineLayout) -> None:
        """Play ``layout``: called before the first probe, so no cell is open yet."""
        self.layout = layout
        self._flat_mines = layout.mines.reshape(-1)
        self._flat_numbers = layout.numbers.reshape(-1)
        self.mine_count = layout.mine_count
        self.safe_cells_left = self.width * self.height - self.mine_count

    def flat_layout(self) -> tuple[np.ndarray, np.ndarray]:
        """The layout's mines (bool) and numbers (int8), flat and read-only: the same two
        arrays until the layout changes (a compiled probe takes them as they are)."""
        return self._flat_mines, self._flat_numbers

    @property
    def mines_left(self) -> int:
        """Mines minus flags: the IOCCC program's counter."""
        return self.mine_count - int(np.count_nonzero(self.view == FLAGGED))

    @property
    def all_safe_opened(self) -> bool:
        return self.safe_cells_left == 0

    def check_cell(self, x: int, y: int) -> None:
        """Raise ``ValueError`` unless (x, y) is on the board.

        Numpy would read a negative index from the far edge: ``(-1, 0)`` is a
        real cell to it, so every move by coordinates is checked here first.
        """
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"cell ({x}, {y}) is outside the {self.width}x{self.height} board")

    def board(self) -> Board:
        """A snapshot of the player's view with the (current) total mine count."""
        return Board(self.view.copy(), self.mine_count)

    def probe(self, x: int, y: int) -> list[int]:
        """Probe (x, y); return the flat indices opened (zeros flood their neighbours).

        Probing a mine loses the game. Probing a probed or flagged cell, or any
        cell after the game ended, changes nothing and returns ``[]``. A cell off
        the board raises ``ValueError``.
        """
        self.check_cell(x, y)
        index = y * self.width + x
        if self.state is not GameState.PLAYING or self._flat_view[index] >= 0:
            return []
        if self._flat_view[index] == FLAGGED:
            return []
        self.apply_first_click(x, y)
        self.probes += 1
        if self._flat_mines[index]:
            self.state = GameState.LOST
            self.exploded = (x, y)
            return []
        opened = self._flood(index)
        self._update_won()
        return opened

    def apply_first_click(self, x: int, y: int) -> None:
        """Before the first probe, at (x, y): let the first-click policy move the mines.

        Does nothing once a probe was made. :meth:`probe` calls it; a compiled
        probe (:meth:`record_probe`) calls it first, then plays the probe itself.
        """
        if self.probes != 0:
            return
        if self.first_click is FirstClick.NONE:
            return
        if self.first_click is not FirstClick.ZERO and not self._flat_mines[y * self.width + x]:
            return  # no mine under the click: the policy neither moves one nor draws
        layout = self.layout
        mines = protect_first_click(layout.mines, x, y, self.first_click, self._rng)
        moved = np.not_equal(mines.reshape(-1), self._flat_mines).nonzero()[0].tolist()
        if not moved:
            return
        # The policy moved or deleted a few mines: their neighbours' numbers change by one
        # each, cheaper than counting the whole board again (every fifth expert game).
        numbers = layout.numbers.copy()
        flat_numbers, flat_mines = numbers.reshape(-1), mines.reshape(-1)
        count = layout.mine_count
        for cell in moved:
            change = 1 if flat_mines[cell] else -1
            count += change
            for neighbour in self._neighbours[cell]:
                flat_numbers[neighbour] += change
        self._set_layout(MineLayout.counted(mines, layout.priorities, numbers, count))

    def record_probe(self, x: int, y: int, opened: int) -> None:
        """Take in a probe of (x, y) played on :attr:`view` directly, after
        :meth:`apply_first_click`: it lost on a mine, or opened ``opened`` safe cells
        (its flood and anything opened after it); flags may have been set too."""
        self.probes += 1
        if self._flat_mines[y * self.width + x]:
            self.state = GameState.LOST
            self.exploded = (x, y)
            return
        self.record_opened(opened)

    def open_safe(self, indices: list[int] | set[int]) -> list[int]:
        """Open cells proven safe (the auto-solver's move); returns all opened.

        A sound rule set never names a mine here, except when a person has
        flagged a safe cell by hand and the rule set trusted that flag: then,
        as when chording on a wrong flag in classic Minesweeper, the game is
        lost on that cell.
        """
        opened: list[int] = []
        for index in indices:
            if self._flat_view[index] < 0 and self._flat_view[index] != FLAGGED:
                if self._flat_mines[index]:
                    self.state = GameState.LOST
                    self.exploded = (index % self.width, index // self.width)
                    return opened
                opened.extend(self._flood(index))
        self._update_won()
        return opened

    def record_opened(self, count: int) -> None:
        """Take in ``count`` safe cells opened (and any flags set) in :attr:`view` directly.

        A compiled auto-solver plays its proofs on the view array itself, as
        :meth:`open_safe` and :meth:`set_flag` would; this keeps the count of safe
        cells left and the verdict up to date after it.
        """
        self.safe_cells_left -= count
        self._update_won()

    def _flood(self, start: int) -> list[int]:
        """Open ``start`` and, from every zero, its covered unflagged neighbours; returns
        the cells opened. The rule of the flood: the compiled copies
        (``complete_play_compiled._flood``/``flood_flat``, ``board_batch.open_cells`` and
        ``complete_play_compiled.open_many``) are tested against it (see their docstrings)."""
        view, numbers, neighbours = self._flat_view, self._flat_numbers, self._neighbours
        opened = [start]
        view[start] = numbers[start]
        stack = [start] if numbers[start] == 0 else []
        while stack:
            for n in neighbours[stack.pop()]:
                if view[n] < 0 and view[n] != FLAGGED:
                    view[n] = numbers[n]
                    opened.append(n)
                    if numbers[n] == 0:
                        stack.append(n)
        self.safe_cells_left -= len(opened)
        return opened

    def set_flag(self, x: int, y: int, flagged: bool = True) -> bool:
        """Flag or unflag a covered cell; returns whether anything changed.

        A cell off the board raises ``ValueError``.
        """
        self.check_cell(x, y)
        index = y * self.width + x
        if self.state is not GameState.PLAYING:
            return False
        current = self._flat_view[index]
        if flagged and current == COVERED:
            self._flat_view[index] = FLAGGED
        elif not flagged and current == FLAGGED:
            self._flat_view[index] = COVERED
        else:
            return False
        self._update_won()
        return True

    def _update_won(self) -> None:
        if self.state is not GameState.PLAYING:
            return
        if self.win_rule is WinRule.SAFE_CELLS_OPENED:
            won = self.safe_cells_left == 0
        else:
            # Requiring every safe cell opened too keeps a wrong manual flag from winning.
            won = self.safe_cells_left == 0 and not np.any(self.view == COVERED)
        if won:
            self.state = GameState.WON

    def rows(self) -> list[str]:
        """The view as text: ``?`` covered, ``!`` flag, digits; after a loss ``*``
        on every unflagged mine, the fatal one included (as the IOCCC program)."""
        rows = []
        for y in range(self.height):
            chars = []
            for x in range(self.width):
                v = int(self.view[y, x])
                if v >= 0:
                    chars.append(str(v))
                elif v == FLAGGED:
                    chars.append("!")
                elif self.state is GameState.LOST and self.layout.mines[y, x]:
                    chars.append("*")
                else:
                    chars.append("?")
            rows.append("".join(chars))
        return rows
