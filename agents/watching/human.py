"""A person's game from a replay file, guess by guess on the terminal game's screen.

The game is semi-automatic, as every game ``replay`` shows: the auto-solver makes
the moves logic proves, so stepping goes from one of the player's guesses to the
next. The cells the player opened are handed out in order, a probe's cell and
each cell a chord opened (:attr:`~minesweep_env.formats.replay_walk.ReplayStep.opens`).
One the auto-solver has already opened was a move logic proved, and is skipped.

One the auto-solver has flagged is a proven mine the player opened: the player
saw less than the solved position (their own flags may have been wrong, or
missing), and the click lost their game. Stepping shows that click and the loss
(the guess takes the flag off first: :attr:`~minesweep_env.tui.Guess.opens_flag`),
so stepping ends where ``review`` lists the losing guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from minesweep_env import Game
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.first_click import FirstClick
from minesweep_env.core.minefield import WinRule
from minesweep_env.formats.replay import HumanReplay
from minesweep_env.formats.replay_walk import walk
from minesweep_env.tui import Driver, Guess

from .notes import Notes

REPLAY_RULE_SET = "complete"
"""The auto-solver between the player's guesses (the one ``evaluate`` plays by)."""


@dataclass(frozen=True)
class OpenedCell:
    """A cell the player opened: by a probe, or as one of a chord's cells."""

    move: int
    """The action's number in the replay, from 1."""
    x: int
    y: int
    chord: tuple[int, int] | None = None
    """The number (x, y) chorded when a chord opened the cell."""


def opened_cells(replay: HumanReplay) -> list[OpenedCell]:
    """Every cell the player's probes and chords opened, in order, until their game ended."""
    cells = []
    for step in walk(replay):
        action = step.action
        chord = (action.x, action.y) if action.kind == "chord" else None
        cells.extend(OpenedCell(step.move, x, y, chord) for x, y in step.opens)
    return cells


class HumanReplayDriver(Driver):
    """The cells a human replay opened that are still guesses once logic has moved."""

    restart_label = "start over"

    def __init__(self, replay: HumanReplay, rule_set: str = REPLAY_RULE_SET) -> None:
        self.replay = replay
        self.rule_set = rule_set
        self.probes = opened_cells(replay)
        """The cells the player opened, in order (probes and chords' cells)."""
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
            opened = self.probes[index]
            shown = game.view[opened.y, opened.x]
            if shown != COVERED and shown != FLAGGED:
                continue  # opened by the auto-solver: logic proved it
            self._handed[moves] = index
            return self._guess(game, opened, flagged=shown == FLAGGED)
        return None

    def _guess(self, game: Game, opened: OpenedCell, flagged: bool) -> Guess:
        """The guess on ``opened``, its note saying what it was."""
        x, y = opened.x, opened.y
        how = "" if opened.chord is None else f" (chord on {opened.chord[0]}, {opened.chord[1]})"
        if flagged:
            note = f"move {opened.move}{how}: ({x}, {y}) a mine the auto-solver had proven"
            return Guess((x, y), note, opens_flag=True)
        note = self._notes.note(game, y * game.width + x)
        return Guess((x, y), f"move {opened.move}{how}: {note}")

    def move_of(self, guess: int) -> int:
        """The replay's action number (from 1) of guess number ``guess`` handed out."""
        return self.probes[self._handed[guess]].move

    def title(self, moves: int) -> str:
        replay = self.replay
        return f"{replay.program} replay {Path(replay.source).name}: guess {moves}"
