"""JSMinesweeper's probability engine (JavaScript), run live under node.

``jsminesweeper_probability.js`` (next to this file) loads the engine files
from a JSMinesweeper checkout and answers one request per line, so one node
process stays warm and the benchmark can interleave it with ours per position.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np

from minesweep_env import Board

from . import PeerMissing

DRIVER = Path(__file__).with_name("jsminesweeper_probability.js")
HOW = (
    "pass --jsminesweeper DIR, a checkout of https://github.com/DavidNHill/JSMinesweeper "
    "(git clone https://github.com/DavidNHill/JSMinesweeper /tmp/JSMinesweeper), and have "
    "node >= 18 on PATH"
)


class JSMinesweeperEngine:
    """A node process holding JSMinesweeper's engine and the positions to time."""

    def __init__(self, checkout: str | Path | None) -> None:
        if checkout is None:
            raise PeerMissing(f"JSMinesweeper not given: {HOW}")
        engine = Path(checkout) / "Minesweeper/client/solver_probability_engine.js"
        if not engine.is_file():
            raise PeerMissing(f"{engine} not found: {HOW}")
        node = shutil.which("node")
        if node is None:
            raise PeerMissing(f"node not found on PATH: {HOW}")
        self.process = subprocess.Popen(
            [node, str(DRIVER), str(checkout)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()

    def _ask(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the JSMinesweeper driver stopped (run it by hand to see why)")
        return json.loads(line)

    def load(self, boards: list[Board]) -> None:
        """Send the positions once; later requests name them by index."""
        positions = [
            {
                "width": b.width,
                "height": b.height,
                "mines": int(b.total_mines),
                "grid": b.grid.reshape(-1).tolist(),
            }
            for b in boards
        ]
        self._ask({"cmd": "load", "positions": positions})

    def time(self, index: int, repeat: int = 1, full: bool = True) -> list[float]:
        """Wall times in ms of ``repeat`` consecutive calls on position ``index``, timed in node.

        :param full: every covered cell's probability; ``False``: the engine as its solver
            runs it by default, stopping at the first certain safe cell it finds.
        """
        request = {"cmd": "time", "index": index, "repeat": repeat, "full": full}
        return self._ask(request)["ms"]

    def exact(self, index: int, shape: tuple[int, int]) -> np.ndarray:
        """Its exact mine probabilities (integer tallies over the layout count), object (H, W)
        of Fraction, None where not covered."""
        reply = self._ask({"cmd": "probs", "index": index})
        total = int(reply["total"])
        cells = [None if t is None else Fraction(int(t), total) for t in reply["mine_tally"]]
        return np.array(cells, dtype=object).reshape(shape)

    def rounded(self, index: int, shape: tuple[int, int]) -> np.ndarray:
        """Its own float output (it rounds safety to 8 decimals), NaN where not covered."""
        reply = self._ask({"cmd": "rounded", "index": index})
        cells = [np.nan if p is None else p for p in reply["mine_probability"]]
        return np.array(cells, dtype=np.float64).reshape(shape)

    def close(self) -> None:
        """Stop the node process."""
        if self.process.poll() is None:
            self.process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
        self.process.stdin.close()
        self.process.wait(timeout=10)
