"""Play mode's games: made from a board spec and a seed, kept in memory, bounded.

A game made here with board, seed, rule set and first click is the game
``semiautomines play --board BOARD --seed SEED`` starts with those settings (the
same generator draws the layout, then the first click). A game asked for without
a seed gets a random one, shown in its URL, so every game can be shared. ``no_guess`` draws the
layout from the no-guess generator instead and opens its start cell at once.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import numpy as np

from minesweep_env import Game
from minesweep_env.core.board import Board
from minesweep_env.core.board_spec import parse_board_spec
from minesweep_env.core.first_click import FIRST_CLICK_POLICIES
from minesweep_env.core.layout import MineLayout
from minesweep_env.game import program_win_rule
from minesweep_env.generation.no_guess import generate_no_guess
from minesweep_env.solver.registry import RULE_SETS, get_rule_set

from .cells import grid_of, states_of_rows
from .errors import ApiError, bad_input
from .limits import MAX_GAMES, MAX_SEED, MAX_WEB_CELLS
from .payload import bool_field, cell_field, int_field, text_field
from .rounds import flag_rounds, probe_rounds

DEFAULT_RULES = "endoh"
"""The rule set of a new game, as ``semiautomines play``'s default."""
DEFAULT_FIRST_CLICK = "endoh"
"""The first-click policy of a new game, as ``semiautomines play``'s default."""
NO_GUESS_DRAWS = 2000
"""Layouts the no-guess generator may draw for one game before the request is refused."""


@dataclass
class PlayedGame:
    """One game of Play mode and how it was made."""

    id: str
    game: Game
    board: str
    mines: int
    seed: int
    rules: str
    first_click: str
    no_guess: bool
    start: tuple[int, int] | None = None
    moves: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def board_now(self) -> Board:
        """The position as it stands (a copy, taken while no move is being played)."""
        with self.lock:
            return self.game.board

    def report_now(self) -> dict[str, Any]:
        """:meth:`report`, taken while no move is being played."""
        with self.lock:
            return self.report()

    def report(self) -> dict[str, Any]:
        """The game object of the API (the caller holds :attr:`lock`, or owns the game)."""
        game = self.game
        query = {"board": self.board, "seed": str(self.seed)}
        return {
            "id": self.id,
            "board": self.board,
            "width": game.width,
            "height": game.height,
            "mines": self.mines,
            "seed": self.seed,
            "rules": self.rules,
            "first_click": self.first_click,
            "no_guess": self.no_guess,
            "start": None if self.start is None else list(self.start),
            "state": str(game.state.value),
            "grid": grid_of(states_of_rows(game.rows()), game.width),
            "mines_left": int(game.mines_left),
            "moves": self.moves,
            "url": "/?" + urlencode(query),
        }


def _choice(payload: dict[str, Any], name: str, default: str, choices: tuple[str, ...]) -> str:
    value = text_field(payload, name, default)
    assert value is not None
    if value not in choices:
        raise bad_input(f"{name!r} must be one of {', '.join(choices)}, got {value[:40]!r}")
    return value


def _size(spec: str) -> tuple[int, int, int]:
    """The board spec's size, refused before any allocation when beyond the limits."""
    try:
        width, height, mines = parse_board_spec(spec)
    except (TypeError, ValueError) as error:
        raise bad_input(str(error)) from None
    if width * height > MAX_WEB_CELLS:
        raise bad_input(
            f"board {width}x{height} is larger than the web app's limit of {MAX_WEB_CELLS} cells"
        )
    return width, height, mines


def new_game(payload: dict[str, Any]) -> PlayedGame:
    """A game as ``POST /api/games`` asks: ``{"board", "rules", "first_click", "seed",
    "no_guess"}``."""
    board = text_field(payload, "board", "beginner")
    assert board is not None
    width, height, mines = _size(board)
    rules = _choice(payload, "rules", DEFAULT_RULES, tuple(sorted(RULE_SETS)))
    first_click = _choice(payload, "first_click", DEFAULT_FIRST_CLICK, FIRST_CLICK_POLICIES)
    seed = int_field(payload, "seed", 0, MAX_SEED)
    if seed is None:  # a seed of its own, so the game's URL replays it
        seed = secrets.randbelow(2**32)
    no_guess = bool_field(payload, "no_guess")
    zone = {"safe": 1, "zero": min(9, width * height)}.get(first_click, 0)
    if no_guess:
        zone = min(9, width * height)
    if mines > width * height - zone:
        raise bad_input(
            f"{mines} mines leave no room for the first click on a "
            f"{width}x{height} board (at most {width * height - zone})"
        )
    rng = np.random.default_rng(seed)
    win_rule = program_win_rule(rules)
    start = None
    if no_guess:
        try:
            made = generate_no_guess(
                width,
                height,
                mines,
                rng,
                rule_set=get_rule_set(rules),
                method="repair",
                max_draws=NO_GUESS_DRAWS,
            )
        except ValueError as error:
            raise bad_input(str(error)) from None
        game = Game(made.layout, rules, first_click, rng, win_rule)
        start = made.start
    else:
        layout = MineLayout.random(width, height, mines, rng)
        game = Game(layout, rules, first_click, rng, win_rule)
    played = PlayedGame(
        secrets.token_hex(8), game, board, mines, seed, rules, first_click, no_guess, start
    )
    if start is not None:
        game.probe(*start)
        played.moves = 1
    return played


class GameStore:
    """The games in play, the oldest dropped past :data:`MAX_GAMES` (a client cannot
    fill the server's memory by starting games)."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[str, PlayedGame] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, played: PlayedGame) -> None:
        with self._lock:
            self._games[played.id] = played
            while len(self._games) > self.limit:
                self._games.popitem(last=False)

    def get(self, game_id: str) -> PlayedGame:
        """The game ``game_id``; a 404 when it is unknown or was dropped."""
        with self._lock:
            played = self._games.get(game_id)
        if played is None:
            raise ApiError(404, f"no game {game_id[:40]!r} (unknown, or dropped as too old)")
        return played

    def __len__(self) -> int:
        return len(self._games)


def move(played: PlayedGame, action: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Play ``action`` (``"probe"`` or ``"flag"``) at the payload's cell: the game
    object and the rounds of cells it changed."""
    with played.lock:
        game = played.game
        x, y = cell_field(payload, game.width, game.height)
        play = probe_rounds if action == "probe" else flag_rounds
        rounds = play(game, x, y)
        if rounds:
            played.moves += 1
        return {"game": played.report(), "rounds": rounds}
