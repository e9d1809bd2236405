"""Reading a position file for a subcommand, with errors that name the file line.

``probabilities`` and ``deduce`` both take a position file and ``--mines``, and
both must refuse a position no layout fits with the line of the contradicted
cell, so that logic lives here once.
"""

from __future__ import annotations

from ..core.board import Board
from ..errors import InconsistentBoardError
from ..formats import is_jsm_position, parse_board, read_position_text
from ..formats.source import numbered_lines
from .errors import CliError


class PositionFile:
    """A position read from ``path``, with ``--mines`` applied when given.

    :raises MapFormatError: for a malformed file.
    :raises CliError: for ``--mines`` outside 0..W*H.
    """

    def __init__(self, path: str, mines: int | None = None):
        self.path = path
        self.text = read_position_text(path)
        self.board: Board = parse_board(self.text, path)
        if mines is not None:
            cells = self.board.width * self.board.height
            if not 0 <= mines <= cells:
                raise CliError(f"--mines {mines} out of range 0..{cells} for this board")
            self.board.total_mines = mines

    def row_line(self, y: int) -> int:
        """1-based file line of board row ``y`` (the position reader skips blank lines;
        JSMinesweeper's rows follow its header line by line)."""
        lines = [n for n, line in numbered_lines(self.text) if line.strip()]
        if is_jsm_position(self.text):
            return lines[0] + 1 + y
        return lines[1:][y]

    def inconsistent(self, error: InconsistentBoardError) -> CliError:
        """The one-line error for an impossible position: ``file:line: problem``."""
        if error.cell is None:
            return CliError(f"{self.path}: {error}")
        return CliError(f"{self.path}:{self.row_line(error.cell[1])}: {error}")
