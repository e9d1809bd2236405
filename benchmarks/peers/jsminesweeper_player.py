"""JSMinesweeper's own solver as a player of our games, its moves asked of node.

``jsminesweeper_player.js`` (next to this file) loads JSMinesweeper's solver
scripts and answers one position per line with the move its solver makes.
:class:`JSMinesweeperAgent` plugs that into the evaluation harness's
``play_game``, so JSMinesweeper meets our seeded layouts, our first-click rule
and our auto-solver (``complete``) exactly as our agents do: it is asked only
where our auto-solver has nothing certain left, which is where a guess is made.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from minesweep_env import Board
from semiautomines_agents.base import Agent
from semiautomines_agents.search.opening import opening_cell

from . import PeerMissing
from .jsminesweeper_source import Source, find_source

DRIVER = Path(__file__).with_name("jsminesweeper_player.js")
_FILE_LISTS = json.loads(Path(__file__).with_name("jsminesweeper_files.json").read_text())
SOLVER_FILES: list[str] = [*_FILE_LISTS["engine"], *_FILE_LISTS["player"]]
"""What the driver loads, in order: one list in ``jsminesweeper_files.json``, read by
both node drivers."""


@dataclass(frozen=True)
class Choice:
    """JSMinesweeper's move in one position."""

    cell: int
    """Flat index ``y * width + x``."""
    safety: float
    """Its solver's chance that the cell is safe."""
    path: str
    """Which part of its solver chose: ``tie-break``, ``brute force``, ``50/50``,
    ``dead``, ``off edge``, ``engine``, ``safe`` or ``other``."""
    ms: float
    """Wall time of the solver's answer, measured in node."""
    cpu_ms: float = 0.0
    """CPU time of the node process for the answer (a shared machine's fair measure)."""


def load_source(given: str | Path | None) -> Source:
    """JSMinesweeper's solver files (see :func:`.jsminesweeper_source.find_source`)."""
    return find_source(given, SOLVER_FILES)


class JSMinesweeperPlayer:
    """One warm node process holding JSMinesweeper's solver."""

    def __init__(self, source: Source) -> None:
        node = shutil.which("node")
        if node is None:
            raise PeerMissing("node not found on PATH: install node >= 18")
        self.source = source
        self.process = subprocess.Popen(
            [node, str(DRIVER), str(source.root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self._reply()  # {"ready": true}: loading the solver is no move's time

    def _reply(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the JSMinesweeper driver stopped (run it by hand to see why)")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def choose(self, board: Board) -> Choice:
        """JSMinesweeper's move on ``board`` (flags taken as proven mines)."""
        height, width = board.grid.shape
        request = {
            "width": width,
            "height": height,
            "mines": int(board.total_mines or 0),
            "grid": board.grid.reshape(-1).tolist(),
        }
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        reply = self._reply()
        if "error" in reply:
            raise RuntimeError(f"JSMinesweeper gave no move: {reply['error'].splitlines()[0]}")
        return Choice(
            int(reply["cell"]), float(reply["safety"]), reply["path"], reply["ms"], reply["cpu_ms"]
        )

    def close(self) -> None:
        """Stop the node process."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class JSMinesweeperAgent(Agent):
    """JSMinesweeper's solver as an :class:`Agent`: our ``search``'s first click, then
    its moves. ``paths`` counts, per game, which part of its solver chose each move."""

    name = "jsminesweeper"
    obs_mode = "grid"

    def __init__(self, player: JSMinesweeperPlayer) -> None:
        self.player = player
        self.paths: Counter[str] = Counter()
        self.node_ms = 0.0
        self.node_cpu_ms = 0.0

    def reset(self, seed: int | None = None) -> None:
        self.paths = Counter()
        self.node_ms = 0.0
        self.node_cpu_ms = 0.0

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Any) -> int:
        minefield = game.minefield
        if minefield.probes == 0:
            policy = minefield.first_click.value
            x, y = opening_cell(minefield.width, minefield.height, minefield.mine_count, policy)
            return y * minefield.width + x
        choice = self.player.choose(minefield.board())
        self.paths[choice.path] += 1
        self.node_ms += choice.ms
        self.node_cpu_ms += choice.cpu_ms
        return choice.cell
