"""Agent games out as Metasweeper ``.evf`` replays (``evaluate --evf DIR``).

A saved game holds the agent's guesses only; the auto-solver made every other
move. Metasweeper plays back clicks, so each game is played again and turned into
the clicks a person would make for the same result: the agent's probe, then a
left click on every cell the auto-solver opened (a cell a flood already opened
needs none) and a right click on every mine it flagged. The player's name says
an agent played (``SemiAutoMines search``); the timing is nominal and the file's
software field says so (see :mod:`minesweep_env.formats.evf_out`).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from minesweep_env import __version__
from minesweep_env.core.cells import COVERED
from minesweep_env.core.minefield import GameState, Minefield
from minesweep_env.formats.evf_out import write_evf
from minesweep_env.formats.replay_actions import ReplayAction

from .records import Run
from .saved_games import Played

PLAYER_PREFIX = "SemiAutoMines"
"""Every written game's player is ``SemiAutoMines AGENT``: an agent, never a person."""


def evf_folder_problem(folder: str | Path) -> str | None:
    """Why ``--evf DIR`` cannot be written (checked before any game is played), or
    ``None``: ms-toollib missing, or DIR a file."""
    if importlib.util.find_spec("ms_toollib") is None:
        return "--evf needs ms-toollib: pip install ms-toollib==1.5.20"
    path = Path(folder)
    if path.exists() and not path.is_dir():
        return f"--evf: {folder} is a file, not a folder"
    return None


def agent_game_actions(played: Played) -> list[ReplayAction]:
    """The clicks that replay ``played`` on an ordinary Minesweeper: its guesses and
    the auto-solver's openings and flags, in order (times count the clicks)."""
    game = played.new_game()
    clicks = Minefield(game.layout, first_click="none")  # what a plain game shows after each
    width = game.width
    actions: list[ReplayAction] = []

    def click(kind: str, x: int, y: int) -> None:
        actions.append(ReplayAction(kind, x, y, float(len(actions))))  # type: ignore[arg-type]

    for move in played.saved.moves:
        if game.minefield.state is not GameState.PLAYING:
            break
        x, y = move % width, move // width
        game.probe(x, y)
        for cx, cy in [(x, y), *game.last_opened]:
            if clicks.state is GameState.PLAYING and clicks.view[cy, cx] == COVERED:
                click("probe", cx, cy)
                clicks.probe(cx, cy)
        for fx, fy in game.last_flagged:
            if clicks.view[fy, fx] == COVERED:
                click("flag", fx, fy)
                clicks.set_flag(fx, fy)
    return actions


def evf_name(agent: str, board: str, game: int) -> str:
    """A file name for game ``game`` of ``agent`` on ``board`` (a map's path, an agent's
    settings: every character a file system may refuse becomes ``_``)."""
    stem = f"{agent}-{Path(board.rstrip('/')).name or board}-game{game}"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem) + ".evf"


def write_evf_games(run: Run, folder: str | Path) -> Path:
    """Write every saved game of ``run`` as ``FOLDER/AGENT-BOARD-gameK.evf``; returns the
    folder (made if missing)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    settings = run.settings
    software = f"SemiAutoMines {__version__}"
    for (agent, board), records in run.records.items():
        for record in records:
            if record.saved is None:
                continue
            played = Played(
                agent, board, settings.rule_set, settings.first_click, record, record.saved
            )
            layout = record.saved.layout_after_first_click()
            player = f"{PLAYER_PREFIX} {agent}"
            path = folder / evf_name(agent, board, record.index)
            write_evf(path, layout, agent_game_actions(played), player, software)
    return folder
