"""The position: what the player sees, the input of every solver.

A :class:`Board` is a snapshot, independent of any game: solvers, the
probability engine and the command-line tools take one, whether it came from a
running game or from a position file. From a game it is a copy of the
player's view (:attr:`Minefield.view <minesweep_env.core.minefield.Minefield.view>`,
``Game.view``), with the mine count: ``Board.view`` names the array as the game
does, ``Board.grid`` (the field every solver reads) is the same array.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cells import COVERED, FLAGGED, KNOWN_SAFE, neighbour_table

_CHAR_OF_CODE = {COVERED: "?", FLAGGED: "!", KNOWN_SAFE: "?"}


@dataclass(eq=False)
class Board:
    """A Minesweeper position.

    :param grid: int8 array shaped (height, width): a probed cell holds its number
        0..8, a covered cell :data:`COVERED`, a flag :data:`FLAGGED` (a known
        mine), a covered cell already proven safe :data:`KNOWN_SAFE`.
    :param total_mines: the number of mines on the whole board, flags included,
        when known. Solvers that use the global count need it.
    """

    grid: np.ndarray
    total_mines: int | None = None

    def __post_init__(self) -> None:
        self.grid = np.asarray(self.grid, dtype=np.int8)

    @property
    def view(self) -> np.ndarray:
        """The player's view this board is a snapshot of: the same array as :attr:`grid`."""
        return self.grid

    @property
    def width(self) -> int:
        return int(self.grid.shape[1])

    @property
    def height(self) -> int:
        return int(self.grid.shape[0])

    @property
    def flag_count(self) -> int:
        return int(np.count_nonzero(self.grid == FLAGGED))

    @property
    def mines_left(self) -> int | None:
        """Mines not yet flagged, when the total is known."""
        return None if self.total_mines is None else self.total_mines - self.flag_count

    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Flat-index neighbour table for this board's size."""
        return neighbour_table(self.width, self.height)

    def copy(self) -> Board:
        return Board(self.grid.copy(), self.total_mines)

    @classmethod
    def from_rows(cls, rows: list[str], total_mines: int | None = None) -> Board:
        """Build from strings of ``?`` covered, ``!`` flag and digits; for tests."""
        codes = {"?": COVERED, "!": FLAGGED}
        grid = [[codes[c] if c in codes else int(c) for c in row] for row in rows]
        return cls(np.array(grid, dtype=np.int8), total_mines)

    def rows(self) -> list[str]:
        """One string per row: ``?`` covered, ``!`` flag, a digit for a probed cell."""
        return [
            "".join(_CHAR_OF_CODE.get(int(v), str(int(v))) for v in row) for row in self.grid
        ]


def require_board(value: object, caller: str) -> Board:
    """``value`` when it is a :class:`Board`; a ``TypeError`` saying how to get one otherwise.

    Why: the solvers read ``board.grid`` and ``board.total_mines`` deep inside, so an
    array or a :class:`~minesweep_env.Game` passed by mistake would fail there with an
    ``AttributeError`` that names neither what was expected nor the fix.
    """
    if isinstance(value, Board):
        return value
    got = type(value).__name__
    if isinstance(value, np.ndarray):
        got = f"a numpy array {value.shape}"
    raise TypeError(
        f"{caller}() takes a Board, got {got}; from a Game use game.board, "
        "from a view array Board(view, total_mines)"
    )
