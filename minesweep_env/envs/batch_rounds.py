"""The auto-solver's rounds over the batch: the step's Python and per-round compiled paths.

:class:`BatchRounds` plays probes and then the auto-solver on many boards at once,
following :class:`minesweep_env.core.minefield.Minefield` and
:func:`minesweep_env.solver.autosolve.autosolve` rule for rule: each round asks
every board still making progress for its rule set's proof, then flags and opens
for all of them. On :attr:`~.batch_state.StepPath.PYTHON` the floods are
:func:`.batch_flood.open_cells` and every proof is Python's; on
:attr:`~.batch_state.StepPath.ROUNDS` the floods and, for the boards whose rule set
is ``complete``, every round run compiled, all boards in one call
(:mod:`minesweep_env.solver.rules.complete_play_compiled`). These paths are the
reference the whole-step compiled path (:mod:`.board_batch`) is tested against.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.cells import COVERED, FLAGGED
from ..core.minefield import WinRule
from ..solver.base import RuleSet
from .batch_flood import open_cells
from .batch_state import LOST, PLAYING, WON, BatchState, StepPath, complete_paths


class BatchRounds(BatchState):
    """:class:`~.batch_state.BatchState` with probes and the auto-solver's rounds."""

    def probe(self, boards: np.ndarray, cells: np.ndarray) -> None:
        """The players' guesses: probe ``cells[k]`` on ``boards[k]``, then let the solver play.

        Every board must be playing and every cell covered (the env checks);
        a board appears at most once.
        """
        self._first_clicks(boards, cells)
        self.settled[boards] = False
        self.probes[boards] += 1
        self.guesses[boards] += 1
        hit = self.mines[boards, cells]
        self.state[boards[hit]] = LOST
        self._open(boards[~hit], cells[~hit])
        self._update_won(boards[~hit])

    def autosolve(self, boards: np.ndarray, rule_sets: Sequence[RuleSet]) -> None:
        """Play out every proof of ``rule_sets[b]`` on each board b of ``boards``.

        :func:`minesweep_env.solver.autosolve.autosolve` on many boards: each
        round asks every board still making progress for its proof, flags the
        proven mines and opens the proven safe cells of all of them at once,
        until no board's rule set proves anything new or its game ended.
        Rule sets are sound and env games have no hand-made flags, so no proof
        names a mine safe (the one way ``Minefield.open_safe`` loses).
        """
        active = boards[self.state[boards] == PLAYING]
        if len(active) and self.step_path(rule_sets) is not StepPath.PYTHON:
            batched = self.plays_compiled(rule_sets)[active]
            if batched.any():
                deferred = self._play_out_compiled(active[batched])
                active = np.sort(np.concatenate([active[~batched], deferred]))
        self._play_rounds(active, rule_sets)

    def _play_rounds(self, active: np.ndarray, rule_sets: Sequence[RuleSet]) -> None:
        """The auto-solver's rounds on the playing boards ``active``, proof by proof in
        Python (:meth:`autosolve` after whatever was played compiled)."""
        while len(active):
            mine_boards: list[int] = []
            mine_cells: list[int] = []
            safe_boards: list[int] = []
            safe_cells: list[int] = []
            for board in active.tolist():
                proof = rule_sets[board].prove(self.board(board))
                mine_boards += [board] * len(proof.mines)
                mine_cells += proof.mines
                safe_boards += [board] * len(proof.safe)
                safe_cells += proof.safe
            flag_boards = np.array(mine_boards, dtype=np.int64)
            flag_cells = np.array(mine_cells, dtype=np.int64)
            new = self.view[flag_boards, flag_cells] == COVERED
            self.view[flag_boards[new], flag_cells[new]] = FLAGGED
            progress = np.zeros(self.num_boards, dtype=bool)
            progress[flag_boards[new]] = True
            opened = self._open(
                np.array(safe_boards, dtype=np.int64), np.array(safe_cells, dtype=np.int64)
            )
            progress |= opened > 0
            self._update_won(active)
            active = active[progress[active] & (self.state[active] == PLAYING)]

    def _play_out_compiled(self, boards: np.ndarray) -> np.ndarray:
        """``complete``'s auto-solver on ``boards`` in one compiled call; returns the boards
        left to play round by round (a round the compiled proof hands back).

        Where a full count settled a board, its probabilities are kept in
        :attr:`probabilities` (``info["mine_probability"]`` of the next step reads
        them there, the same floats a single env's rule set hands out).
        """
        from ..solver.rules.complete_proof_compiled import DEFER, FULL

        compiled = complete_paths()
        assert compiled is not None  # StepPath.ROUNDS or COMPILED: the kernels are loaded
        boards = np.ascontiguousarray(boards, dtype=np.int64)
        status = np.empty(len(boards), dtype=np.int8)
        won = np.zeros(len(boards), dtype=bool)
        probabilities = np.empty((len(boards), self.width * self.height))
        compiled.play_out_many(
            self.view,
            self.mines.view(np.int8),
            self.numbers,
            boards,
            self.mine_count,
            self.win_rule is WinRule.NOTHING_COVERED,
            self.safe_left,
            self.height,
            self.width,
            probabilities,
            status,
            won,
        )
        self._update_won(boards)
        settled = (status == FULL) & ~won
        self.probabilities[boards[settled]] = probabilities[settled]
        self.settled[boards] = settled
        return boards[status == DEFER]

    def _open(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Open ``cells[k]`` on ``boards[k]`` with their floods; returns the count per board."""
        compiled = complete_paths()
        if compiled is None:  # StepPath.PYTHON
            opened = open_cells(self.view, self.numbers, self._neighbours, boards, cells)
        else:
            opened = np.zeros(self.num_boards, dtype=np.int64)
            compiled.open_many(
                self.view,
                self.numbers,
                np.ascontiguousarray(boards, dtype=np.int64),
                np.ascontiguousarray(cells, dtype=np.int64),
                self.height,
                self.width,
                opened,
            )
        self.safe_left -= opened
        return opened

    def _update_won(self, boards: np.ndarray) -> None:
        """Mark as won the boards the win rule calls won (``Minefield._update_won``)."""
        won = (self.state[boards] == PLAYING) & (self.safe_left[boards] == 0)
        if self.win_rule is WinRule.NOTHING_COVERED:
            won &= ~(self.view[boards] == COVERED).any(axis=1)
        self.state[boards[won]] = WON
