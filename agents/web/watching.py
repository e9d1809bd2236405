"""Watch mode: an agent plays game K of a run seed, each move sent as a Server-Sent Event.

The game is ``evaluate``'s: :class:`~semiautomines_agents.watching.AgentDriver` makes
game K of ``--seed S`` on the board with the evaluation's own seeds (layout, first
click, the agent's randomness), so the moves and the outcome are those of game K
of ``semiautomines evaluate --seed S``. The stream sends moves as fast as they
are computed; pausing, stepping and the speed are the page's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from minesweep_env.core.first_click import FIRST_CLICK_POLICIES
from minesweep_env.solver.registry import RULE_SETS
from minesweep_env.tui.driver import InvalidGuess, check_guess

from .. import ModelNotFoundError, make_agent
from ..evaluation import Settings, Target, board_target
from ..watching import AgentDriver
from ..watching.notes import Notes
from .errors import bad_input
from .limits import MAX_SEED, MAX_WEB_CELLS
from .moves import play_move

MAX_GAME = 10**9
"""Largest game number a request may ask for."""


@dataclass(frozen=True)
class WatchRequest:
    """What ``GET /api/watch`` asks for, checked."""

    agent: str
    board: str
    seed: int
    game: int
    rules: str
    first_click: str
    map: str | None = None
    """A map's name in ``/api/maps``, played instead of ``board`` when given."""


def _number(query: Mapping[str, str], name: str, default: int, high: int) -> int:
    value = query.get(name)
    if value is None or value == "":
        return default
    if not value.isdigit() or len(value) > 20 or int(value) > high:
        raise bad_input(f"{name!r} must be a whole number in 0..{high}")
    return int(value)


def watch_request(query: Mapping[str, str]) -> WatchRequest:
    """The watch request in ``query`` (defaults as ``evaluate``'s), or a 400."""
    rules = query.get("rules") or "complete"
    if rules not in RULE_SETS:
        raise bad_input(f"'rules' must be one of {', '.join(sorted(RULE_SETS))}")
    first_click = query.get("first_click") or "safe"
    if first_click not in FIRST_CLICK_POLICIES:
        raise bad_input(f"'first_click' must be one of {', '.join(FIRST_CLICK_POLICIES)}")
    return WatchRequest(
        agent=query.get("agent") or "search",
        board=query.get("board") or "beginner",
        seed=_number(query, "seed", 0, MAX_SEED),
        game=_number(query, "game", 0, MAX_GAME),
        rules=rules,
        first_click=first_click,
        map=query.get("map") or None,
    )


def watch_driver(request: WatchRequest, target: Target | None = None) -> AgentDriver:
    """The driver playing the requested game (agent made, board checked), or a 400.

    :param target: the map to play (from :class:`.maps.MapFiles`); ``None``: the
        request's board.
    """
    if target is None:
        try:
            target = board_target(request.board)
        except (TypeError, ValueError) as error:
            raise bad_input(str(error)) from None
    if target.width * target.height > MAX_WEB_CELLS:
        raise bad_input(f"board {request.board!r} is larger than the web app's limit")
    zone = {"safe": 1, "zero": 9}.get(request.first_click, 0)
    if target.width * target.height - target.mines < zone:
        raise bad_input(f"{target.name}: no room for a {request.first_click} first click")
    try:
        agent = make_agent(request.agent)
    except (ValueError, ModelNotFoundError) as error:
        raise bad_input(str(error)) from None
    settings = Settings(request.rules, request.first_click, request.seed)
    return AgentDriver(agent, request.agent, target, settings, first_game=request.game)


def watched_moves(driver: AgentDriver) -> Iterator[tuple[str, dict[str, Any]]]:
    """The game's events, computed one at a time as they are asked for:
    ``("move", {...})`` per move, then ``("end", {"state", "moves", "guesses"})``.

    A map's game starts with ``("start", {"width", "height", "mines"})``: the page
    knows a board's size from its name, not a map's.
    """
    game = driver.game()
    if driver.target.kind == "map":
        yield "start", {"width": game.width, "height": game.height, "mines": driver.target.mines}
    notes = Notes()
    moves = 0
    invalid = False
    while game.state.value == "playing" and moves <= game.width * game.height:
        guess = driver.guess(game, moves)
        if guess is None:
            break
        try:
            check_guess(game, guess)
        except InvalidGuess:
            invalid = True  # the evaluation ends such a game as a loss
            break
        x, y = guess.cell
        yield "move", play_move(game, y * game.width + x, moves, notes, guess.note)
        moves += 1
    state = "lost" if invalid else str(game.state.value)
    yield "end", {"state": state, "moves": moves, "guesses": int(game.guesses), "invalid": invalid}


def event(name: str, data: dict[str, Any]) -> str:
    """One Server-Sent Event."""
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"
