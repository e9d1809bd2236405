"""The vector env's outputs: observations, masks, mine probabilities and the info columns."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compiled import loaded as kernels_loaded
from ..core.cells import COVERED
from ..core.first_click import FirstClick
from .board_batch import (
    PLAYING,
    WON,
    Changes,
)
from .observations import PLANE_CODES, PROBABILITY_PLANE
from .semi_auto_mines import view_kernels
from .vector_games import VectorGames
from .vector_info import STATE_NAMES, changed_cells, pack_infos

_CODES = PLANE_CODES[:, None, None]


def covered_planes(height: int, width: int) -> np.ndarray:
    """A new game's one-hot planes (every cell covered), uint8 (1, planes, H, W)."""
    covered = np.full((1, height, width), COVERED, np.int8)
    return np.equal(covered, _CODES).astype(np.uint8)


class VectorOutputs(VectorGames):
    """The layer of :class:`~.vector.SemiAutoMinesVectorEnv` that writes what the env
    shows: observations and masks (written cell by cell where a kernel can, else
    encoded again), the chance of each probe, and the info columns."""

    def _changed_cells(
        self, invalid: np.ndarray, probed: np.ndarray, changes: Changes
    ) -> tuple[np.ndarray, np.ndarray]:
        """``info["opened"]`` and ``info["flagged"]`` (:func:`.vector_info.changed_cells`)."""
        return changed_cells(self._coordinates, self.num_envs, invalid, probed, changes)

    def _chosen_probability(self, board: int, cell: int) -> float:
        """Mine probability of ``cell`` on ``board``'s position before the move (as the env's)."""
        if self.obs_mode == "planes+probabilities":
            return float(self._probabilities[board].flat[cell])  # the plane just observed
        if self.boards.probes[board] == 0:
            return self._first_click_probability(board)
        if self.boards.settled[board]:  # the compiled auto-solver's full count of this position
            return float(self.boards.probabilities[board, cell])
        return self._planes[board].probability(self.boards.board(board), cell)

    def _first_click_probability(self, board: int) -> float:
        """:meth:`_first_click_probabilities` of one board."""
        return float(self._first_click_probabilities(np.array([board]))[0])

    def _first_click_probabilities(self, boards: np.ndarray) -> np.ndarray:
        """The chance each of ``boards``' first probe loses: zero unless the policy is
        ``none``, else its mines over its cells (two exact integers divided once)."""
        if self.first_click is not FirstClick.NONE:
            return np.zeros(len(boards), dtype=np.float64)
        return self.boards.mine_count[boards] / (self.width * self.height)

    def _probability_plane(self, board: int) -> np.ndarray:
        """``SemiAutoMinesEnv._current_probabilities`` of one board, (H, W) float64."""
        view = self.boards.view[board].reshape(self.height, self.width)
        if self.boards.state[board] == WON:
            return (view < 0).astype(np.float64)  # every covered cell left is a mine
        if self.boards.probes[board] == 0:
            return np.full(view.shape, self._first_click_probability(board), dtype=np.float64)
        return self._planes[board](self.boards.board(board))

    def _verdicts(self) -> np.ndarray:
        """The env's verdict per board: the batched game's state (won, lost or playing)."""
        return self.boards.state

    def _show(
        self,
        restarted: np.ndarray,
        probed: np.ndarray | None = None,
        changes: Changes | None = None,
    ) -> None:
        """Masks and observations after a step: boards ``restarted`` all covered, and on the
        boards ``probed`` the cells ``changes`` lists (the rest of the batch is as it was).

        In ``"planes"`` mode with the kernels loaded only those cells are written
        (:func:`~minesweep_env.envs.observations_compiled.show_changes`); else every
        board is encoded again.
        """
        if self.obs_mode != "planes" or not kernels_loaded():
            self._update_masks()
            self._encode()
            return
        if len(restarted):
            self._observations[restarted] = self._covered_planes
            self._masks[restarted] = True
        if changes is not None and probed is not None and len(probed):
            view_kernels().show_changes(
                self.boards.view,
                self._observations,
                self._masks,
                self.boards.state,
                PLAYING,
                np.ascontiguousarray(probed, dtype=np.int64),
                changes.opened,
                changes.opened_ends,
                changes.flagged,
                changes.flagged_ends,
            )

    def _update_masks(self) -> None:
        np.equal(self.boards.view, COVERED, out=self._masks)
        self._masks[self._verdicts() != PLAYING] = True

    def _encode(self) -> None:
        """The observations of every board, written into the preallocated buffer."""
        shape = (self.num_envs, self.height, self.width)
        view = self.boards.view.reshape(shape)
        out = self._observations
        if self.obs_mode == "planes":
            np.equal(view[:, None], _CODES, out=out.view(bool))
        elif self.obs_mode == "grid":
            out[:] = view
        else:
            for board in np.flatnonzero(self._stale):
                self._probabilities[board] = self._probability_plane(int(board))
            self._stale[:] = False
            np.equal(view[:, None], _CODES, out=out[:, :PROBABILITY_PLANE], casting="unsafe")
            out[:, PROBABILITY_PLANE] = self._probabilities

    def _observation_batch(self) -> np.ndarray:
        return self._observations.copy() if self.copy else self._observations

    def _reset_columns(self) -> dict[str, np.ndarray]:
        """The info every board reports on reset and step, one array per key."""
        return {
            "action_mask": self._masks.copy(),
            "guesses": self.boards.guesses.copy(),
            "state": STATE_NAMES[self._verdicts()],
            "map": self.map_path.copy(),
            "start": self.map_start.copy(),
            "layout_seed": self.layout_seed.copy(),
        }

    @staticmethod
    def _pack(columns: dict[str, np.ndarray], present: np.ndarray) -> dict[str, Any]:
        """Gymnasium's vector info (:func:`.vector_info.pack_infos`)."""
        return pack_infos(columns, present)
