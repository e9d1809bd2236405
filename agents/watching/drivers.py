"""The two drivers of the terminal game: an agent playing seeded games, and a saved game.

:class:`AgentDriver` plays the games ``evaluate`` plays: game ``k`` on a
target with run seed ``s`` has the same layout and first click as game ``k``
of ``evaluate --seed s`` on that target, and the agent gets the observation
the env gives, so a deterministic agent makes the very same moves.
:class:`RecordDriver` hands out the moves of a game ``evaluate --save-games``
kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minesweep_env import Game
from minesweep_env.tui import Driver, Guess

from ..base import Agent
from ..evaluation.play import Settings, agent_seed, game_seed, make_env
from ..evaluation.saved_games import Played
from ..evaluation.targets import Target
from ..search import SearchAgent
from .notes import Notes
from .observe import Observer, action_mask


class AgentDriver(Driver):
    """An agent playing the seeded games of a target, game ``first_game`` first.

    :param agent: the player (reset before each game with the evaluation's seed).
    :param name: its registry name, as ``evaluate`` seeds by it.
    """

    def __init__(
        self, agent: Agent, name: str, target: Target, settings: Settings, first_game: int = 0
    ) -> None:
        self.agent = agent
        self.name = name
        self.target = target
        self.settings = settings
        self.index = first_game
        self.env: Any = make_env(target, settings, agent.obs_mode)
        self._observer: Observer | None = None
        self._notes = Notes()

    def game(self) -> Game:
        target = self.target
        options = None
        if target.kind == "map":
            options = {"map": target.maps[self.index % len(target.maps)]}
        self.env.reset(seed=game_seed(self.settings.seed, target.name, self.index), options=options)
        self._notes = Notes()
        return self.env.unwrapped.game

    def next_game(self) -> None:
        self.index += 1

    def guess(self, game: Game, moves: int) -> Guess | None:
        target = self.target
        if moves == 0:
            seed = agent_seed(self.settings.seed, target.name, self.index, self.name)
            self.agent.reset(seed=seed)
            start = target.starts[self.index % len(target.maps)] if target.starts else None
            if start is not None:  # the map's fixed first click, as the harness plays it
                note = self._notes.note(game, start[1] * game.width + start[0])
                return Guess(start, f"{note}, the map's fixed start")
        if self._observer is None or self._observer.game is not game:
            self._observer = Observer(game, self.agent.obs_mode)
        mask = action_mask(game)
        action = int(self.agent.act(self._observer(), mask, game))
        cell = (action % game.width, action // game.width)
        if not (0 <= action < mask.size and mask[action]):
            return Guess(cell, f"invalid action {action}")
        return Guess(cell, self._notes.note(game, action, *self._advice(game, mask)))

    def _advice(self, game: Game, mask: Any) -> tuple:
        """The search agent's advice on the position (its reasons), ``()`` otherwise.

        ``act`` decided; asking again repeats its counts from the agent's cache.
        """
        agent = self.agent
        if not isinstance(agent, SearchAgent) or game.minefield.probes == 0:
            return ()
        return agent.advise(game.minefield.board(), mask), agent.depth

    def title(self, moves: int) -> str:
        where = self.target.name
        if self.target.kind == "map":  # the file or suite folder name: a path is too long
            where = Path(where).name + ("/" if where.endswith("/") else "")
        return f"{self.name} on {where}, game {self.index} (seed {self.settings.seed})"


class RecordDriver(Driver):
    """The moves of one saved game, in order."""

    restart_label = "start over"

    def __init__(self, played: Played) -> None:
        self.played = played
        self._notes = Notes()

    def game(self) -> Game:
        self._notes = Notes()
        return self.played.new_game()

    def guess(self, game: Game, moves: int) -> Guess | None:
        saved = self.played.saved
        if moves >= len(saved.moves):
            return None
        action = saved.moves[moves]
        cell = (action % game.width, action // game.width)
        note = self._notes.note(game, action)
        if moves == 0:
            note = f"({cell[0]}, {cell[1]}) first click ({self.played.first_click})"
        return Guess(cell, note)

    def title(self, moves: int) -> str:
        played = self.played
        total = len(played.saved.moves)
        game = played.record.index
        return f"{played.agent} on {played.board}, game {game}: guess {moves} of {total}"
