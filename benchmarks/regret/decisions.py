"""A guess log's decisions, and what kind of decision each is.

The phases of a game, by the share of its safe cells open when the guess is made
(the first click's opening counts): the *first guess* is the first decision of a
game after its first click, whatever the share; then *early* below 35 %, *mid*
from 35 % to 75 %, *endgame* from 75 % on. The share is what a player sees and is
the same scale on every board, unlike a move number.

Position types: how ``search`` decided (``forced``: a 50/50 no later number can
resolve, ``endgame``: solved exactly, ``search``: the look-ahead), the number of
layouts the position admits (bands by powers of ten), and where its cell lies
(corner, edge, interior; on the frontier or off it).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED

PHASES = ("first guess", "early", "mid", "endgame")
EARLY_END, MID_END = 0.35, 0.75
"""Shares of the safe cells open where the early game and the mid-game end."""
LAYOUT_BANDS = ((10, "<= 10"), (10**3, "11 - 1e3"), (10**6, "1e3 - 1e6"), (10**12, "1e6 - 1e12"))
"""Upper bounds of the layout-count bands (and their labels); beyond the last: "> 1e12"."""


@dataclass(frozen=True)
class Decision:
    """One logged guess: where, what the player saw, what ``search`` chose."""

    key: str
    """``board/start/seed/game/move``: names the decision in a results file."""
    game: int
    move: int
    grid: np.ndarray
    mines: int
    cell: int
    reason: str
    layouts: int | None
    first: bool
    """Whether it is its game's first decision after the first click."""
    jsminesweeper: int | None = None
    """JSMinesweeper's cell on the same position, when the log has it."""

    @property
    def board(self) -> Board:
        return Board(self.grid.copy(), self.mines)


def decision_key(row: dict[str, Any]) -> str:
    return f"{row['board']}/{row['start']}/{row['seed']}/{row['game']}/{row['move']}"


def read_decisions(path: Path, games: int | None = None) -> tuple[list[Decision], list[int]]:
    """The guesses in a guess log (``benchmarks/guess_log.py``) of its first ``games``
    games (all when ``None``), and how many games those are (games with no guess
    after the first click included: the denominator of a loss per game).

    Decisions where a safe cell was known (``reason`` ``safe``) are no guesses and
    are left out.
    """
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue  # a line a hard kill cut short
    order = sorted({int(r["game"]) for r in rows if "game" in r})
    kept = set(order if games is None else order[:games])
    decisions: list[Decision] = []
    seen: set[int] = set()
    for row in sorted((r for r in rows if "cell" in r), key=lambda r: (r["game"], r["move"])):
        game = int(row["game"])
        if game not in kept:
            continue
        first = game not in seen
        seen.add(game)
        if row["reason"] == "safe":
            continue
        peer = row.get("jsminesweeper")
        decisions.append(
            Decision(
                key=decision_key(row),
                game=game,
                move=int(row["move"]),
                grid=np.array(row["grid"], dtype=np.int8),
                mines=int(row["mines"]),
                cell=int(row["cell"]),
                reason=str(row["reason"]),
                layouts=None if row.get("layouts") is None else int(row["layouts"]),
                first=first,
                jsminesweeper=None if not peer else int(peer["cell"]),
            )
        )
    return decisions, sorted(kept)


def phase(decision: Decision) -> str:
    """The game phase of a decision (see the module docstring)."""
    if decision.first:
        return PHASES[0]
    grid = decision.grid
    share = np.count_nonzero(grid >= 0) / (grid.size - decision.mines)
    return PHASES[1] if share < EARLY_END else PHASES[2] if share < MID_END else PHASES[3]


def layout_band(layouts: int | None) -> str:
    if layouts is None:
        return "unknown"
    for bound, label in LAYOUT_BANDS:
        if layouts <= bound:
            return label
    return "> 1e12"


def place(grid: np.ndarray, cell: int) -> str:
    """``corner``, ``edge`` or ``interior``, then ``frontier`` or ``off frontier``."""
    height, width = grid.shape
    y, x = divmod(cell, width)
    sides = (x in (0, width - 1)) + (y in (0, height - 1))
    where = ("interior", "edge", "corner")[sides]
    near = grid[max(y - 1, 0) : y + 2, max(x - 1, 0) : x + 2]
    return f"{where}, {'frontier' if (near >= 0).any() else 'off frontier'}"


def describe(decision: Decision) -> dict[str, Any]:
    """The fields every results line starts with: which decision, and what kind it is."""
    return {
        "key": decision.key,
        "game": decision.game,
        "move": decision.move,
        "phase": phase(decision),
        "reason": decision.reason,
        "layouts": None if decision.layouts is None else str(decision.layouts),
        "band": layout_band(decision.layouts),
        "place": place(decision.grid, decision.cell),
        "cell": decision.cell,
        "jsminesweeper": decision.jsminesweeper,
    }


def covered_cells(grid: np.ndarray) -> np.ndarray:
    return np.flatnonzero(grid.reshape(-1) == COVERED)


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    """``--guesses`` (a guess log) and ``--games``, as the readers of a guess log take them."""
    parser.add_argument("--guesses", type=Path, required=True, help="a guess_log.py log")
    parser.add_argument("--games", type=int, help="only the log's first GAMES games")


def check_log_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """One line and exit 2 for a missing log or a count of games below 1."""
    if not args.guesses.is_file():
        parser.error(f"--guesses {args.guesses}: no such file")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")


def complete_games(
    rows: Iterable[dict[str, Any]], decisions: Iterable[Decision], games: list[int]
) -> int:
    """How many of the log's ``games`` (in order) come before the first with a decision
    not measured: the games a partial regret map's gains can be divided by."""
    measured = {r["key"] for r in rows}
    missing = {d.game for d in decisions if d.key not in measured}
    return next((i for i, game in enumerate(games) if game in missing), len(games))
