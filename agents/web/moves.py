"""One move of a watched or replayed game, as the page steps through it."""

from __future__ import annotations

from typing import Any

from minesweep_env import Game

from ..watching.notes import Notes
from .rounds import probe_rounds


def play_move(
    game: Game, cell: int, number: int, notes: Notes, reason: str | None = None
) -> dict[str, Any]:
    """Probe ``cell`` in ``game`` and describe it: ``{"move", "x", "y", "kind", "reason",
    "probability", "rounds", "state"}``.

    ``probability`` is the cell's exact mine chance before the probe; ``kind`` is
    ``"auto"`` for a cell proven safe (no risk taken) and ``"guess"`` otherwise;
    ``reason`` defaults to the terminal game's note on the move.
    """
    x, y = cell % game.width, cell // game.width
    probability = notes.mine_chance(game, cell)
    if reason is None:
        reason = notes.note(game, cell)
    rounds = probe_rounds(game, x, y)
    return {
        "move": number,
        "x": x,
        "y": y,
        "kind": "auto" if probability == 0 else "guess",
        "reason": reason,
        "probability": probability,
        "rounds": rounds,
        "state": str(game.state.value),
    }
