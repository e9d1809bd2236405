"""A book of first guesses: positions that recur at a game's first guess, and the cell
measured best there.

From the safe corner, over a third of expert games meet the same position at their first
guess (the corner shows a 1, nothing else open). There the look-ahead sees several cells
as equal, and which one is taken decides how the rest of the game unfolds. A race that
plays every candidate on to the end on thousands of common layouts, confirmed on fresh
ones (``benchmarks/first_guess_book.py``), can tell them apart; the book keeps its
answers as data (``first_guesses.json``: board, probe, number shown, cell, and the
measurement behind each) and ``search:book=1`` plays them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED

BOOK_FILE = Path(__file__).with_name("first_guesses.json")

Key = tuple[int, int, int, int, int]
"""Board width, height and mines, the one probed cell, the number it shows."""


@lru_cache(maxsize=1)
def entries() -> dict[Key, int]:
    """The book's positions and cells (flat indices), read once."""
    book = {}
    for entry in json.loads(BOOK_FILE.read_text(encoding="utf-8"))["positions"]:
        width, height, mines = entry["board"]
        (px, py), (cx, cy) = entry["probe"], entry["cell"]
        book[(width, height, mines, py * width + px, entry["shows"])] = cy * width + cx
    return book


def book_cell(board: Board) -> int | None:
    """The book's cell for ``board``, or ``None`` when the position is not in it."""
    flat = board.grid.reshape(-1)
    if board.total_mines is None or int((flat != COVERED).sum()) != 1:
        return None
    probed = int((flat != COVERED).argmax())
    key = (board.width, board.height, board.total_mines, probed, int(flat[probed]))
    return entries().get(key)
