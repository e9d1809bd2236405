"""A probe and the auto-solver's rounds after it, cell by cell, for the page to animate.

:meth:`Game.probe` takes an observer that sees the position before each round of
the auto-solver; the difference between consecutive positions is what each round
changed. The observer only watches, so the game ends exactly where it would
without it (the rounds are then played one by one instead of in one compiled
call, to the same result).
"""

from __future__ import annotations

from typing import Any

from minesweep_env import Game
from minesweep_env.core.board import Board

from .cells import changes, states_of_rows, states_of_view


def probe_rounds(game: Game, x: int, y: int) -> list[list[dict[str, Any]]]:
    """Probe (x, y) in ``game`` and return what changed: the probe's own cells first,
    then each auto-solver round's, in order (empty rounds left out)."""
    width = game.width
    seen = [states_of_rows(game.rows())]

    def observe(board: Board, proof: object) -> None:
        seen.append(states_of_view(board.grid))

    game.probe(x, y, observer=observe)
    seen.append(states_of_rows(game.rows()))
    rounds = [changes(a, b, width) for a, b in zip(seen, seen[1:], strict=False)]
    return [r for r in rounds if r]


def flag_rounds(game: Game, x: int, y: int) -> list[list[dict[str, Any]]]:
    """Flag or unflag (x, y) by hand: one round with the cell, or none if nothing changed."""
    if not game.toggle_flag(x, y):
        return []
    state = states_of_rows(game.rows())[y * game.width + x]
    return [[{"x": x, "y": y, "state": state}]]
