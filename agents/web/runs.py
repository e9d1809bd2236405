"""Replay mode: the run folders given to ``serve --runs``, their saved games, move by move.

The client names a run by the name listed in ``/api/runs`` and a game by its number
in the run's list; no path ever comes from the client. The saved games are read
as ``semiautomines replay`` reads them (:func:`load_saved_games`), once, when the
server starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minesweep_env.cli.errors import CliError

from ..evaluation.saved_games import Played, SavedGamesError, load_saved_games
from ..watching.notes import Notes
from .errors import ApiError, bad_input
from .moves import play_move


@dataclass(frozen=True)
class RunFolder:
    """One run folder: its name in the API and its saved games, in file order."""

    name: str
    games: tuple[Played, ...]

    def summary(self) -> dict[str, Any]:
        won = sum(1 for p in self.games if p.record.won)
        return {
            "name": self.name,
            "games": len(self.games),
            "won": won,
            "lost": len(self.games) - won,
            "agents": sorted({p.agent for p in self.games}),
            "boards": sorted({p.board for p in self.games}),
        }


def _entry(number: int, played: Played) -> dict[str, Any]:
    return {
        "game": number,
        "index": played.record.index,
        "agent": played.agent,
        "board": played.board,
        "result": "won" if played.record.won else "lost",
        "guesses": played.record.guesses,
        "moves": len(played.saved.moves),
    }


def replay(played: Played) -> dict[str, Any]:
    """A saved game replayed: its layout and every move with the rounds that followed."""
    game = played.new_game()
    notes = Notes()
    moves = []
    for number, cell in enumerate(played.saved.moves):
        if game.state.value != "playing":
            break
        reason = None
        if number == 0:
            x, y = cell % game.width, cell // game.width
            reason = f"({x}, {y}) first click ({played.first_click})"
        moves.append(play_move(game, cell, number, notes, reason))
    layout = played.saved.layout_after_first_click()
    return {
        "agent": played.agent,
        "board": played.board,
        "width": game.width,
        "height": game.height,
        "mines": int(layout.mine_count),
        "layout": layout.rows(),
        "moves": moves,
        "result": "won" if played.record.won else "lost",
        "state": str(game.state.value),
    }


class RunFolders:
    """The runs Replay lists, by name."""

    def __init__(self, runs: Sequence[RunFolder] = ()) -> None:
        self.runs = {run.name: run for run in runs}

    @classmethod
    def from_paths(cls, paths: Sequence[Path]) -> RunFolders:
        """Read every folder's saved games; a folder without them is a one-line CliError."""
        runs: list[RunFolder] = []
        names: set[str] = set()
        for path in paths:
            try:
                games = tuple(load_saved_games(path))
            except SavedGamesError as error:
                raise CliError(f"--runs: {error}") from None
            name = path.resolve().name or "run"
            if name in names:
                name = f"{name}-{len(runs) + 1}"
            names.add(name)
            runs.append(RunFolder(name, games))
        return cls(runs)

    def listing(self) -> dict[str, Any]:
        return {"runs": [run.summary() for run in self.runs.values()]}

    def run(self, name: str) -> RunFolder:
        if name not in self.runs:
            raise ApiError(404, f"no run {name[:60]!r}; /api/runs lists them")
        return self.runs[name]

    def games(self, name: str, result: str | None, min_guesses: str | None) -> dict[str, Any]:
        """The games of run ``name``, only the ``result`` ones (won/lost) with at least
        ``min_guesses`` guesses when given."""
        if result not in (None, "", "won", "lost"):
            raise bad_input("'result' must be won or lost")
        least = 0
        if min_guesses not in (None, ""):
            assert min_guesses is not None
            if not min_guesses.isdigit() or len(min_guesses) > 9:
                raise bad_input("'min_guesses' must be a whole number")
            least = int(min_guesses)
        listed = [_entry(n, p) for n, p in enumerate(self.run(name).games)]
        return {
            "games": [
                g for g in listed if (not result or g["result"] == result) and g["guesses"] >= least
            ]
        }

    def game(self, name: str, number: str) -> Played:
        games = self.run(name).games
        if not number.isdigit() or int(number) >= len(games):
            raise ApiError(404, f"no game {number[:20]!r} in run {name!r}")
        return games[int(number)]
