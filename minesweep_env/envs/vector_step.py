"""The vector env's step: actions read, probes played, the step's outputs and autoreset."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from ..compiled import loaded as kernels_loaded
from ..core.cells import COVERED, FLAGGED
from ..core.first_click import FirstClick
from .board_batch import (
    LOST,
    WON,
    Changes,
    StepArrays,
    StepPath,
    batch_kernels,
    step_kernels,
)
from .vector_outputs import VectorOutputs


class VectorStep(VectorOutputs):
    """The layer of :class:`~.vector.SemiAutoMinesVectorEnv` that plays a step: the whole
    step in one compiled call (:meth:`_step_compiled`) when the batch's
    :meth:`~.batch_state.BatchState.step_path` says so and the env's outputs allow it,
    else the actions read and the probes played through the batch (:meth:`_play`);
    then the ``SAME_STEP`` autoreset and the info (:meth:`_step_outputs`)."""

    def _step_outputs(
        self,
        stepping: np.ndarray,
        step_columns: dict[str, np.ndarray],
        rewards: np.ndarray,
        terminated: np.ndarray,
        truncated: np.ndarray,
        compiled: StepArrays | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The end of :meth:`step` once the boards ``stepping`` (a mask) are played: the
        ``SAME_STEP`` autoreset's last observations and new games, then the info.

        ``compiled``: the compiled step's outputs, whose kernel starts the new games."""
        n = self.num_envs
        done = terminated | truncated
        final: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.SAME_STEP and done.any():
            final_obs = np.full(n, None, dtype=object)
            for board in np.flatnonzero(done):
                final_obs[board] = self._observations[board].copy()
            final_info = self._pack({**self._reset_columns(), **step_columns}, done)
            final = {"final_obs": final_obs, "_final_obs": done, "final_info": final_info}
            final["_final_info"] = done.copy()
            restarted = np.flatnonzero(done)
            if compiled is None:
                self._start_games(restarted, {})
                self._show(restarted)
            else:
                self.boards.restart_compiled(restarted, compiled)
                self._new_games_shown(restarted, compiled.seeds[: len(restarted)])
            stepping &= ~done
        infos = self._pack(self._reset_columns(), np.ones(n, dtype=bool))
        infos.update(final)
        if stepping.any():
            infos.update(self._pack(step_columns, stepping))
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self._autoreset = done
        return self._observation_batch(), rewards, terminated, truncated, infos

    def _steps_compiled(self) -> bool:
        """Whether :meth:`_step_compiled` plays this step: the kernels loaded, an observation
        the kernel writes, random games only, every board's rule set played compiled."""
        return (
            self._observation_rows is not None
            and not self.maps
            and self.boards.step_path(self.rule_sets) is StepPath.COMPILED
        )

    def _step_compiled(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`step` in one compiled call (:meth:`BoardBatch.step_compiled`): the same
        outputs, without a numpy pass per output or a Python call per new game."""
        arrays = self._compiled_arrays()
        restarting = self._autoreset
        arrays.begin_step(actions, restarting)
        probability = arrays.probability
        status, count, restarts, changes = self.boards.step_compiled(arrays, self.rule_sets, 0, 0)
        if status == step_kernels().BAD_ACTION:
            raise ValueError(f"actions {actions} are outside Discrete({self.width * self.height})")
        probed = arrays.probed[:count]
        if changes is None:  # paused: the chances and first clicks Python finds, then on
            rest = arrays.rest[:count]
            cells = arrays.probed_cells[:count]
            for board, cell in zip(probed[rest].tolist(), cells[rest].tolist(), strict=True):
                probability[board] = self._chosen_probability(board, cell)
            self.boards.first_clicks_python(probed, cells)
            status, count, restarts, changes = self.boards.step_compiled(
                arrays, self.rule_sets, 1, count
            )
            assert changes is not None  # the second phase plays every probe
        if restarts:
            self._new_games_shown(arrays.restarted[:restarts], arrays.seeds[:restarts])
        # The step's outputs leave as copies: the arrays are the next step's too.
        invalid_action = arrays.invalid.copy()
        opened, flagged = self._changed_cells(invalid_action, probed, changes)
        step_columns = {
            "opened": opened,
            "flagged": flagged,
            "mine_probability": probability.copy(),
            "invalid_action": invalid_action,
        }
        rewards, terminated = arrays.rewards.copy(), arrays.terminated.copy()
        truncated = arrays.truncated.copy()
        return self._step_outputs(~restarting, step_columns, rewards, terminated, truncated, arrays)

    def _play(
        self,
        stepping: np.ndarray,
        actions: np.ndarray,
        rewards: np.ndarray,
        terminated: np.ndarray,
    ) -> tuple[dict[str, np.ndarray], np.ndarray, Changes]:
        """``SemiAutoMinesEnv.step`` on the boards ``stepping``; returns the step-only info,
        the boards probed and the cells the probes changed on them.

        Writes the rewards and terminations of those boards. Every one of them
        is playing: a finished board is reset before it is stepped again.
        """
        n = self.num_envs
        boards = self.boards
        probability = np.zeros(n, dtype=np.float64)
        invalid_action = np.zeros(n, dtype=bool)
        if kernels_loaded() and self.obs_mode != "planes+probabilities":
            probed, probed_cells = self._read_actions_compiled(
                stepping, actions, rewards, probability, invalid_action
            )
        else:
            probed, probed_cells = self._read_actions(
                stepping, actions, rewards, probability, invalid_action
            )

        changes = boards.probe_and_autosolve(probed, probed_cells, self.rule_sets)
        won = boards.state[probed] == WON
        lost = boards.state[probed] == LOST
        terminated[probed] = won | lost
        rewards[probed] = np.where(won, 1.0, np.where(lost, -1.0, 0.0))
        if self.reward_mode == "progress":
            # After the probe: an "endoh" first click may have deleted a mine.
            safe_total = self.width * self.height - boards.mine_count[probed]
            share = changes.opened_counts() / np.maximum(safe_total, 1)
            rewards[probed] += np.where(safe_total > 0, share, 0.0)
        # A loss leaves the view as it was: its probabilities still hold.
        self._stale[probed[~lost]] = True
        opened, flagged = self._changed_cells(invalid_action, probed, changes)
        columns = {
            "opened": opened,
            "flagged": flagged,
            "mine_probability": probability,
            "invalid_action": invalid_action,
        }
        return columns, probed, changes

    def _read_actions_compiled(
        self,
        stepping: np.ndarray,
        actions: np.ndarray,
        rewards: np.ndarray,
        probability: np.ndarray,
        invalid_action: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_read_actions` by the compiled
        :func:`~minesweep_env.envs.board_batch_compiled.read_actions`: actions
        sorted and their chances read in one pass; a chance not at hand there (a board
        whose rounds Python played) board by board (:meth:`_chosen_probability`)."""
        boards = self.boards
        probed = np.empty(len(stepping), dtype=np.int64)
        probed_cells = np.empty(len(stepping), dtype=np.int64)
        rest = np.empty(len(stepping), dtype=bool)
        count = batch_kernels().read_actions(
            boards.kernel_buffers(),
            self.first_click is FirstClick.NONE,
            stepping,
            actions,
            self.steps,
            rewards,
            float(self.invalid_action_reward),
            probed,
            probed_cells,
            probability,
            rest,
            invalid_action,
        )
        probed, probed_cells, rest = probed[:count], probed_cells[:count], rest[:count]
        if not self.info_probability:
            probability[probed] = np.nan
        elif rest.any():
            for board, cell in zip(probed[rest].tolist(), probed_cells[rest].tolist(), strict=True):
                probability[board] = self._chosen_probability(board, cell)
        return probed, probed_cells

    def _read_actions(
        self,
        stepping: np.ndarray,
        actions: np.ndarray,
        rewards: np.ndarray,
        probability: np.ndarray,
        invalid_action: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:func:`~minesweep_env.envs.board_batch_compiled.read_actions` in numpy
        (no kernels loaded, or the probability plane observed): returns the boards probed
        and their cells; writes the steps, the chances, the invalid actions' rewards."""
        n = self.num_envs
        boards = self.boards
        cells = actions[stepping]
        self.steps[stepping] += 1
        shown = boards.view[stepping, cells]
        valid = shown == COVERED
        probed, probed_cells = stepping[valid], cells[valid]
        invalid = stepping[~valid]
        if self.info_probability:
            # Gathered for all boards at once where the answer is at hand: a first probe's
            # chance, the compiled auto-solver's floats of a settled board, or the plane
            # just observed; the rest board by board (:meth:`_chosen_probability`).
            if self.obs_mode == "planes+probabilities":
                planes = self._probabilities.reshape(n, -1)
                probability[probed] = planes[probed, probed_cells]
                rest = np.zeros(len(probed), dtype=bool)
            else:
                first = boards.probes[probed] == 0
                starting = probed[first]
                probability[starting] = self._first_click_probabilities(starting)
                gather = boards.settled[probed] & ~first
                read, read_cells = probed[gather], probed_cells[gather]
                probability[read] = boards.probabilities[read, read_cells]
                rest = ~first & ~gather
            for board, cell in zip(probed[rest].tolist(), probed_cells[rest].tolist(), strict=True):
                probability[board] = self._chosen_probability(board, cell)
        else:
            probability[probed] = np.nan
        # What an invalid action's cell is known to be: a flag is a mine, a number is not.
        probability[invalid] = np.where(shown[~valid] == FLAGGED, 1.0, 0.0)
        rewards[invalid] = self.invalid_action_reward
        invalid_action[invalid] = True
        return probed, probed_cells
