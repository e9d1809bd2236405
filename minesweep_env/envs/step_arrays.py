"""The vector env's arrays a compiled step reads and writes beside the batch's own."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from ..core.first_click import FirstClick


@cache
def step_kernels() -> ModuleType:
    """The vector env's whole-step kernels (:mod:`.board_batch_step_compiled`), imported
    once they are wanted (importing them imports numba); held, since an import
    statement costs microseconds on every step."""
    from . import board_batch_step_compiled as kernels

    return kernels


class StepArrays:
    """The vector env's arrays a compiled step reads and writes beside the batch's own
    (:func:`~minesweep_env.envs.board_batch_step_compiled.step_boards` says how): its
    settings, its kept buffers, and the arrays of the step under way (``actions``,
    ``restarting``, ``rewards``, ``terminated``, ``truncated``, ``probability``,
    ``invalid``: filled in place by :meth:`begin_step`, read back after it).

    Every array is made here once and handed to the kernels as one object,
    :attr:`buffers` (a :class:`~.board_batch_step_compiled.StepBuffers` over these same
    arrays), so a step passes two objects, not dozens of arrays. Made only once the
    kernels are loaded (building :attr:`buffers` imports numba).

    ``words`` holds each board's generator (``PCG64``) as four uint64 words where
    ``in_words`` says so; the env moves a generator between its words and its
    ``numpy`` object (:meth:`SemiAutoMinesVectorEnv._board_rng`).
    """

    def __init__(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        steps: np.ndarray,
        stale: np.ndarray,
        *,
        mine_count: int,
        invalid_reward: float,
        first_click: FirstClick,
        info_probability: bool,
        progress: bool,
        planes: bool,
        max_steps: int,
    ) -> None:
        num_boards = len(steps)
        self.observations, self.masks, self.steps, self.stale = observations, masks, steps, stale
        self.mine_count, self.invalid_reward, self.max_steps = mine_count, invalid_reward, max_steps
        self.first_none = first_click is FirstClick.NONE
        self.first_python = first_click is not FirstClick.NONE  # where a policy may draw
        self.info_probability, self.progress, self.planes = info_probability, progress, planes
        # The step under way (begin_step fills them; the env copies its outputs out).
        self.actions = np.zeros(num_boards, np.int64)
        self.restarting = np.zeros(num_boards, dtype=bool)
        self.rewards = np.zeros(num_boards, dtype=np.float64)
        self.probability = np.zeros(num_boards, dtype=np.float64)
        self.terminated = np.zeros(num_boards, dtype=bool)
        self.truncated = np.zeros(num_boards, dtype=bool)
        self.invalid = np.zeros(num_boards, dtype=bool)
        # The step's lists, written by the kernels.
        self.probed = np.zeros(num_boards, np.int64)
        self.probed_cells = np.zeros(num_boards, np.int64)
        self.stepping = np.zeros(num_boards, np.int64)
        self.restarted = np.zeros(num_boards, np.int64)
        self.seeds = np.zeros(num_boards, np.int64)
        self.opened_ends = np.zeros(num_boards, np.int64)
        self.flagged_ends = np.zeros(num_boards, np.int64)
        self.rest = np.zeros(num_boards, dtype=bool)
        self.deferred = np.zeros(num_boards, dtype=bool)
        self.moved = np.zeros(num_boards, dtype=bool)
        self.words = np.zeros((num_boards, 4), np.uint64)
        self.in_words = np.zeros(num_boards, dtype=bool)
        kernels = step_kernels()
        fields = {name: getattr(self, name) for name, _ in kernels.STEP_FIELDS}
        self.buffers: Any = kernels.step_buffers(**fields)

    def begin_step(self, actions: np.ndarray, restarting: np.ndarray) -> None:
        """A new step: ``actions`` (any integer dtype, cast as ``astype(np.int64)``) and
        ``restarting`` copied in, the step's outputs cleared."""
        np.copyto(self.actions, actions, casting="unsafe")
        np.copyto(self.restarting, restarting)
        for outputs in (self.rewards, self.probability):
            outputs.fill(0.0)
        for flags in (self.terminated, self.truncated, self.invalid):
            flags.fill(False)
