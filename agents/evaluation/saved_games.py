"""Every game of a run kept to be replayed: ``evaluate --save-games`` writes ``games.jsonl``.

One JSON object a line, one line a game, self-contained (``grep`` finds a game)::

    {"agent": "search", "board": "expert", "game": 3, "won": true, "guesses": 4,
     "safe_opened": 1.0, "invalid": false, "rule_set": "complete", "first_click": "safe",
     "seed": 1234, "layout_seed": 5678, "map": null, "width": 30, "height": 16,
     "mines": "0a41...", "first_click_moved": {"removed": [0], "added": [417]},
     "moves": [0, 212, 95, 301]}

``mines`` is the layout before the first click, one bit a cell in row order
(``numpy.packbits``, hex): about 120 characters on expert. ``first_click_moved``
is what the first-click policy did to it (flat indices of the mines it took away
and put back elsewhere), ``moves`` the flat index of every probe the player
made, the first click included. ``seed`` (the env's reset seed) and
``layout_seed`` say where the game came from, but a replay needs neither: the
layout is stored, so a game replays even if the layout generator changes.
An expert game takes about 450 bytes.

The games are recorded in the worker processes by wrapping the env
(:class:`Recorder`), so playing a game does not change when it is saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from minesweep_env import Game
from minesweep_env.core.first_click import FirstClick
from minesweep_env.core.minefield import WinRule
from minesweep_env.fileio import atomic_write

from .records import Chunk, GameRecord, Run, SavedGame

if TYPE_CHECKING:
    from ..base import Agent

GAMES_FILE = "games.jsonl"
"""The saved games' file in a run folder."""


class SavedGamesError(ValueError):
    """A run folder without saved games, or a line of ``games.jsonl`` that cannot be read."""


@dataclass(frozen=True)
class Played:
    """A saved game as read back: who played it where, how it ended, how to replay it."""

    agent: str
    board: str
    rule_set: str
    first_click: str
    record: GameRecord
    saved: SavedGame

    def new_game(self) -> Game:
        """The game, nothing probed yet, ready for :attr:`SavedGame.moves`.

        The first click's outcome is already in its layout (the recorded one; no
        policy runs again), so every probe opens what it opened in the run.
        """
        return Game(
            self.saved.layout_after_first_click(),
            self.rule_set,
            FirstClick.NONE,
            win_rule=WinRule.SAFE_CELLS_OPENED,  # the env's rule, as in the run
        )


class Recorder(gymnasium.Wrapper):
    """Keeps the layout and every action of the game being played through it."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.seed = kwargs.get("seed")
        self.info = info
        self.mines = self._game().layout.mines
        self.moves: list[int] = []
        return observation, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        self.moves.append(int(action))
        return self.env.step(action)

    def _game(self) -> Game:
        env: Any = self.env.unwrapped  # a SemiAutoMinesEnv
        return env.game

    def saved(self) -> SavedGame:
        """The game played since the last reset."""
        after = self._game().layout.mines.reshape(-1)
        before = self.mines.reshape(-1)
        return SavedGame(
            mines=self.mines,
            removed=tuple(np.flatnonzero(before & ~after).tolist()),
            added=tuple(np.flatnonzero(after & ~before).tolist()),
            moves=tuple(self.moves),
            seed=self.seed,
            layout_seed=self.info.get("layout_seed"),
            map=self.info.get("map"),
        )


def record_games(
    env: Any,
    agent: Agent,
    chunk: Chunk,
    play: Callable[..., GameRecord],
    into: list[GameRecord] | None = None,
) -> list[GameRecord]:
    """Play a chunk's games as ``play`` (the harness's ``play_game``) does, each
    record carrying its :class:`SavedGame`.

    :param into: the list the records are appended to as each game ends (so a
        caller keeps the finished games when one raises); a new one by default.
    """
    recorder = Recorder(env)
    records = [] if into is None else into
    for index in chunk.indices:
        records.append(replace(play(recorder, agent, chunk, index), saved=recorder.saved()))
    return records


def game_json(agent: str, board: str, rule_set: str, first_click: str, record: GameRecord) -> dict:
    """One line of ``games.jsonl``."""
    saved = record.saved
    assert saved is not None, "the game was played without --save-games"
    height, width = saved.mines.shape
    return {
        "agent": agent,
        "board": board,
        "game": record.index,
        "won": record.won,
        "guesses": record.guesses,
        "safe_opened": record.safe_opened,
        "invalid": record.invalid,
        "rule_set": rule_set,
        "first_click": first_click,
        "seed": saved.seed,
        "layout_seed": saved.layout_seed,
        "map": saved.map,
        "width": width,
        "height": height,
        "mines": np.packbits(saved.mines.reshape(-1)).tobytes().hex(),
        "first_click_moved": {"removed": list(saved.removed), "added": list(saved.added)},
        "moves": list(saved.moves),
    }


def write_saved_games(run: Run, folder: str | Path) -> Path:
    """Write every saved game of ``run`` to ``FOLDER/games.jsonl`` (atomically)."""
    path = Path(folder) / GAMES_FILE
    settings = run.settings
    with atomic_write(path) as handle:
        for (agent, board), records in run.records.items():
            for record in records:
                if record.saved is not None:
                    line = game_json(agent, board, settings.rule_set, settings.first_click, record)
                    handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    return path


def load_saved_games(folder: str | Path) -> list[Played]:
    """Every game saved in a run folder, in file order.

    :raises SavedGamesError: naming the folder or ``file:line`` and what is wrong.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise SavedGamesError(f"{folder}: no such run folder")
    path = folder / GAMES_FILE
    if not path.is_file():
        raise SavedGamesError(
            f"{folder}: no saved games ({GAMES_FILE}); run evaluate with --save-games"
        )
    games = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    games.append(_played(json.loads(line)))
                except (ValueError, KeyError, TypeError) as error:
                    raise SavedGamesError(f"{path}:{number}: not a saved game ({error})") from None
    return games


def _played(data: dict[str, Any]) -> Played:
    width, height = int(data["width"]), int(data["height"])
    bits = np.unpackbits(np.frombuffer(bytes.fromhex(data["mines"]), dtype=np.uint8))
    if bits.size < width * height:
        raise ValueError(f"mines has {bits.size} bits for {width * height} cells")
    mines = bits[: width * height].astype(bool).reshape(height, width)
    moved = data["first_click_moved"]
    cells = width * height
    moves = tuple(int(m) for m in data["moves"])
    for cell in (*moves, *moved["removed"], *moved["added"]):
        if not 0 <= int(cell) < cells:
            raise ValueError(f"cell {cell} is off the {width}x{height} board")
    saved = SavedGame(
        mines=mines,
        removed=tuple(int(c) for c in moved["removed"]),
        added=tuple(int(c) for c in moved["added"]),
        moves=moves,
        seed=data.get("seed"),
        layout_seed=data.get("layout_seed"),
        map=data.get("map"),
    )
    record = GameRecord(
        index=int(data["game"]),
        won=bool(data["won"]),
        guesses=int(data["guesses"]),
        safe_opened=float(data["safe_opened"]),
        seconds=0.0,
        invalid=bool(data["invalid"]),
    )
    return Played(
        str(data["agent"]),
        str(data["board"]),
        str(data["rule_set"]),
        str(data["first_click"]),
        record,
        saved,
    )
