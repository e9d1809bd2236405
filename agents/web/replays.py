"""Replay mode's human games: the replay files given to ``serve --replays``, by name.

A person's replay (``.avf``, ``.rmv``, ``.mvf``, ``.evf``, ``.msor``) is stepped as
``semiautomines replay FILE`` steps it
(:class:`~semiautomines_agents.watching.HumanReplayDriver`): the auto-solver makes
the moves logic proves, so the moves left are the player's guesses (their probes'
cells and their chords' cells; a cell the auto-solver flagged as a proven mine is
the losing click it was), and the page's ``n`` jumps from one to the next. Each
guess's reason carries the review's figures
(:func:`~semiautomines_agents.coach.review_replay`): its mine probability against
the safest cell on the board at that moment, and what the search agent advises.

The files are found when the server starts and read only when asked for (the
readers check the size before reading); a file that cannot be read answers a
one-line 400. A review takes a while on a long game, so each replay's answer is
computed once and kept. The client names a replay by the name ``/api/replays``
lists; no path ever comes from the client.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minesweep_env import Game
from minesweep_env.cli.errors import CliError
from minesweep_env.errors import MapFormatError
from minesweep_env.formats.replay import REPLAY_FORMATS, HumanReplay, read_replay
from minesweep_env.tui.driver import lift_flag

from ..coach import JudgedGuess, Review, review_replay
from ..watching import HumanReplayDriver
from ..watching.notes import Notes
from .errors import ApiError, bad_input
from .limits import MAX_WEB_CELLS
from .moves import play_move


def replay_paths(paths: Sequence[Path]) -> list[Path]:
    """The replay files among ``paths`` and in the folders among them, or a CliError."""
    found: list[Path] = []
    known = ", ".join(REPLAY_FORMATS)
    for path in paths:
        if path.is_file():
            if path.suffix.lower() not in REPLAY_FORMATS:
                raise CliError(f"--replays: {path}: not a replay file (expected {known})")
            found.append(path)
        elif path.is_dir():
            files = sorted(
                p for p in path.rglob("*") if p.suffix.lower() in REPLAY_FORMATS and p.is_file()
            )
            if not files:
                raise CliError(f"--replays: {path}: no replay files ({known}) in this folder")
            found.extend(files)
        else:
            raise CliError(f"--replays: {path}: no such replay file or folder")
    return found


def _percent(p: float) -> str:
    return f"{p * 100:.1f}%"


def guess_reason(note: str, judged: JudgedGuess | None) -> str:
    """The driver's note on a move (its mine probability), with the review's figures
    when it judged the move: the safest cell's probability and the search agent's cell
    when it differs."""
    if judged is None:
        return note
    reason = f"{note}; safest on the board {_percent(judged.safest)}"
    x, y = judged.advice.get("x"), judged.advice.get("y")
    if x is not None and y is not None and (x, y) != (judged.x, judged.y):
        reason += f"; search advised ({x}, {y})"
    if judged.forced:
        reason += "; a forced 50/50"
    return reason


def human_replay(replay: HumanReplay, review: Review) -> dict[str, Any]:
    """A human replay in the shape of a replayed saved game (see :func:`.runs.replay`),
    plus the review's ``summary``."""
    driver = HumanReplayDriver(replay)
    judged = {(g.move, g.x, g.y): g for g in review.guesses}
    game: Game = driver.game()
    notes = Notes()
    moves: list[dict[str, Any]] = []
    while game.state.value == "playing":
        guess = driver.guess(game, len(moves))
        if guess is None:
            break
        x, y = guess.cell
        reason = guess_reason(guess.note, judged.get((driver.move_of(len(moves)), x, y)))
        lift_flag(game, guess)  # a click on a mine the auto-solver proved: it loses
        moves.append(play_move(game, y * game.width + x, len(moves), notes, reason))
    state = str(game.state.value)
    return {
        "agent": None,
        "player": replay.program,
        "board": f"{replay.width}x{replay.height}x{replay.mines}",
        "width": replay.width,
        "height": replay.height,
        "mines": replay.mines,
        "layout": replay.layout.rows(),
        "moves": moves,
        "result": "won" if state == "won" else "lost" if state == "lost" else "unfinished",
        "state": state,
        "summary": review.summary(),
    }


class ReplayFiles:
    """The human replays Replay lists, by name; each answer computed once."""

    def __init__(self, paths: Sequence[Path] = ()) -> None:
        self.paths: dict[str, Path] = {}
        for path in paths:
            name = path.name
            if name in self.paths:
                name = f"{path.stem}-{len(self.paths) + 1}{path.suffix}"
            self.paths[name] = path
        self._answers: dict[str, dict[str, Any]] = {}
        self._locks = {name: threading.Lock() for name in self.paths}

    @classmethod
    def from_paths(cls, paths: Sequence[Path]) -> ReplayFiles:
        return cls(replay_paths(paths))

    def listing(self) -> dict[str, Any]:
        return {
            "replays": [
                {"name": name, "format": path.suffix.lower().lstrip(".")}
                for name, path in self.paths.items()
            ]
        }

    def check(self, name: str) -> None:
        """A 404 for a name ``/api/replays`` does not list."""
        if name not in self.paths:
            raise ApiError(404, f"no replay {name[:60]!r}; /api/replays lists them")

    def answer(self, name: str) -> dict[str, Any]:
        """Replay ``name`` stepped and reviewed (computed on the first request, then kept);
        a 400 for a file that cannot be read."""
        self.check(name)
        with self._locks[name]:  # a second request waits for the first one's answer
            if name not in self._answers:
                self._answers[name] = self._compute(name)
            return self._answers[name]

    def _compute(self, name: str) -> dict[str, Any]:
        path = self.paths[name]
        try:
            replay = read_replay(path)
        except (MapFormatError, OSError, ValueError) as error:
            raise bad_input(str(error).replace(str(path), name)) from None
        if replay.width * replay.height > MAX_WEB_CELLS:
            raise bad_input(f"{name}: the board is larger than the web app's limit")
        answer = human_replay(replay, review_replay(replay))
        answer["name"] = name
        return answer
