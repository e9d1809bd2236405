"""Mine probabilities computed off the input loop, so a hard position never freezes play.

The engine (:func:`minesweep_env.mine_probabilities`) is imported lazily: the
game runs without it, and only the overlay and hints need it. Results are
tagged with the version of the position they belong to; a stale one is dropped.
A daemon thread is used so quitting never waits for a computation.

An :data:`Advisor` (the ``h`` key's adviser, e.g. the agents package's search
agent, found by the command line) runs in the same thread after the engine,
so its look-ahead never freezes play either.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from ..core.board import Board
from ..errors import InconsistentBoardError


def _engine():
    import minesweep_env

    engine = getattr(minesweep_env, "mine_probabilities", None)
    if engine is None:
        raise ImportError("the probability engine is not available")
    return engine


Advisor = Callable[[Board], int | None]
"""A player's advice on a position: the flat index (``y * width + x``) of the
covered cell to probe, or ``None`` for no advice."""


class ProbabilityWorker:
    """At most one computation at a time, for the newest position asked about.

    :param advisor: also computes its advice on every position (see :meth:`advice`).
    """

    def __init__(self, advisor: Advisor | None = None) -> None:
        self.advisor = advisor
        self._lock = threading.Lock()
        self._results: dict[int, np.ndarray] = {}
        self._advice: dict[int, int | None] = {}
        self._advice_error: dict[int, str] = {}
        self._running: int | None = None
        self._wanted: tuple[int, Board] | None = None
        self.error: str | None = None
        self.error_version: int | None = None
        self._generation = 0

    def forget(self) -> None:
        """Drop everything (a new game starts its versions again)."""
        with self._lock:
            self._results.clear()
            self._advice.clear()
            self._advice_error.clear()
            self._wanted = None
            self.error = None
            self.error_version = None
            self._generation += 1

    def result(self, version: int) -> np.ndarray | None:
        with self._lock:
            return self._results.get(version)

    def advice(self, version: int) -> int | None:
        """The advisor's cell for this position, once its probabilities are in;
        ``None`` without an advisor, before, or when the advisor gave none or failed."""
        with self._lock:
            return self._advice.get(version)

    def advice_error(self, version: int) -> str | None:
        """Why the advisor gave no cell for this position, as one line, when it failed
        (the hint then falls back to the safest cell and says so)."""
        with self._lock:
            return self._advice_error.get(version)

    def request(self, version: int, board: Board) -> None:
        """Compute for this position unless it is done, running, or failed already."""
        with self._lock:
            if version in self._results or self.error_version == version:
                return
            if self._running == version:
                return
            self._wanted = (version, board)
            if self._running is not None:
                return
            self._start_locked()

    def _start_locked(self) -> None:
        assert self._wanted is not None
        version, board = self._wanted
        self._wanted = None
        self._running = version
        generation = self._generation
        thread = threading.Thread(
            target=self._compute, args=(version, board, generation), daemon=True
        )
        thread.start()

    def _compute(self, version: int, board: Board, generation: int) -> None:
        result: np.ndarray | None = None
        advice: int | None = None
        advice_error: str | None = None
        error: str | None = None
        try:
            result = np.asarray(_engine()(board), dtype=float)
            if self.advisor is not None:
                advice, advice_error = self._advise(board)
        except ImportError as exc:
            error = str(exc)
        except InconsistentBoardError:
            error = "your flags contradict the numbers"
        except Exception as exc:  # the game must outlive an engine bug
            error = f"probability engine failed: {exc}"
        with self._lock:
            self._running = None
            if generation == self._generation:
                if result is not None:
                    self._results = {version: result}
                    self._advice = {version: advice}
                    self._advice_error = {} if advice_error is None else {version: advice_error}
                else:
                    self.error, self.error_version = error, version
            if self._wanted is not None:
                self._start_locked()

    def _advise(self, board: Board) -> tuple[int | None, str | None]:
        """The advisor's cell and ``None``, or ``None`` and one line saying why it failed
        (the hint falls back to the safest cell and shows that line: a broken adviser
        must not end the game, nor fail unseen)."""
        assert self.advisor is not None
        try:
            return self.advisor(board), None
        except Exception as exc:  # shown with the hint, never swallowed
            return None, f"{type(exc).__name__}: {exc}".splitlines()[0]
