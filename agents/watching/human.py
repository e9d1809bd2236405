"""A person's game from a replay file, guess by guess on the terminal game's screen.

The game is semi-automatic, as every game ``replay`` shows: the auto-solver makes
the moves logic proves, so stepping goes from one of the player's guesses to the
next. The player's probes are handed out in order; one whose cell the auto-solver
has already opened was a move logic proved, and is skipped. (One whose cell it
flagged as a proven mine is skipped too: the player's position at the time
showed less than the solved one, and the guess lost there; ``review`` lists it.)
"""

from __future__ import annotations

from pathlib import Path

from minesweep_env import Game
from minesweep_env.core.cells import COVERED
from minesweep_env.core.first_click import FirstClick
from minesweep_env.core.minefield import WinRule
from minesweep_env.formats.replay import HumanReplay
from minesweep_env.tui import Driver, Guess

from .notes import Notes

REPLAY_RULE_SET = "complete"
"""The auto-solver between the player's guesses (the one ``evaluate`` plays by)."""


class HumanReplayDriver(Driver):
    """The probes of a human replay that are still guesses once logic has moved."""

    restart_label = "start over"

    def __init__(self, replay: HumanReplay, rule_set: str = REPLAY_RULE_SET) -> None:
        self.replay = replay
        self.rule_set = rule_set
        self.probes = [
            (move, a) for move, a in enumerate(replay.actions, start=1) if a.kind == "probe"
        ]
        self._notes = Notes()
        self._handed: dict[int, int] = {}
        """Guess number -> the index in :attr:`probes` it was: the next guess is sought
        after the last one, also when the screen takes guesses back and asks again."""

    def game(self) -> Game:
        self._notes = Notes()
        # The replay's layout is the one played: no first-click policy runs again.
        return Game(
            self.replay.layout, self.rule_set, FirstClick.NONE, win_rule=WinRule.SAFE_CELLS_OPENED
        )

    def guess(self, game: Game, moves: int) -> Guess | None:
        start = self._handed.get(moves - 1, -1) + 1 if moves > 0 else 0
        for index in range(start, len(self.probes)):
            move, action = self.probes[index]
            if game.view[action.y, action.x] != COVERED:
                continue  # opened by the auto-solver (logic), or flagged as a proven mine
            self._handed[moves] = index
            cell = action.y * game.width + action.x
            return Guess((action.x, action.y), f"move {move}: {self._notes.note(game, cell)}")
        return None

    def move_of(self, guess: int) -> int:
        """The replay's action number (from 1) of guess number ``guess`` handed out."""
        return self.probes[self._handed[guess]][0]

    def title(self, moves: int) -> str:
        replay = self.replay
        return f"{replay.program} replay {Path(replay.source).name}: guess {moves}"
