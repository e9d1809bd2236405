"""A stable-baselines3 ``VecEnv`` over the native vector env, with masks for MaskablePPO.

Importing this module imports stable-baselines3; nothing in the library
imports this module, so the library itself does not need SB3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from .threaded import make_vector_env


class SemiAutoMinesSB3VecEnv(VecEnv):
    """``num_envs`` boards of ``SemiAutoMines-v0`` as one SB3 ``VecEnv``, in one process.

    It wraps :class:`~minesweep_env.envs.vector.SemiAutoMinesVectorEnv` (made
    with the keyword arguments of ``gymnasium.make("SemiAutoMines-v0", ...)``;
    with ``num_threads=K``, a :class:`~minesweep_env.envs.threaded.ThreadedVectorEnv`
    stepping K shards of the boards on K threads, the same outputs)
    and speaks SB3's dialect: ``step`` returns ``dones`` and a list of info
    dicts, a finished board is reset in the step that finished it, with
    ``info["terminal_observation"]`` and ``info["TimeLimit.truncated"]`` as in
    ``DummyVecEnv``, and ``seed(s)`` seeds board i with ``s + i`` at the next
    ``reset``, so a run seeded alike plays the same games as a ``DummyVecEnv``
    of single envs.

    **Masks.** ``action_masks()`` gives ``bool`` (N, W*H). sb3-contrib's
    MaskablePPO does not call it directly: ``get_action_masks(env)`` stacks
    ``env.env_method("action_masks")`` (one row per board) and
    ``is_masking_supported`` asks ``env.has_attr("action_masks")``; both are
    answered here, also through ``VecEnvWrapper`` s such as ``VecMonitor``.

    **Route for** ``agents/train_ppo.py``: its ``make_vec_env`` builds a
    ``DummyVecEnv``/``SubprocVecEnv`` of ``Monitor``-wrapped single envs.
    With this class instead::

        from stable_baselines3.common.vec_env import VecMonitor
        from minesweep_env.envs.sb3_vec import SemiAutoMinesSB3VecEnv

        vec = SemiAutoMinesSB3VecEnv(num_envs=args.num_envs, **env_kwargs(args))
        vec = VecMonitor(vec, str(monitor_dir / "all"), info_keywords=("state",))
        vec.seed(args.seed)

    ``VecMonitor`` writes one ``all.monitor.csv`` for every board (the
    ``r, l, t, state`` columns the learning curve reads from
    ``monitor/*.monitor.csv``); it cannot append, so a resumed run starts a
    new file name. ``MaskablePPO(CellPolicy, vec, ...)`` then trains on it
    unchanged. One process steps every board: the per-board auto-solvers are
    the cost; ``num_threads=K`` spreads them over K cores in this process
    (shards of the boards on threads, the same games), and spreading them over
    processes (``SubprocVecEnv``) is the other way to use several cores.

    Per-board attributes and methods (``get_attr``, ``env_method``): every
    board shares the vector env's settings, so ``get_attr(name)`` repeats the
    vector env's attribute per board; ``env_method`` knows ``action_masks``.
    """

    def __init__(self, num_envs: int = 1, **env_kwargs: Any) -> None:
        self.venv = make_vector_env(
            num_envs=num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **env_kwargs
        )
        super().__init__(
            num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> VecEnvObs:
        options = self._options[0]
        if any(board_options != options for board_options in self._options):
            raise ValueError("every board is reset with the same options here")
        obs, infos = self.venv.reset(seed=list(self._seeds), options=options or None)
        self.reset_infos = _board_infos(infos, range(self.num_envs))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        board_infos = _board_infos(infos, range(self.num_envs))
        finished = np.flatnonzero(dones)
        if len(finished):
            final_infos = _board_infos(infos["final_info"], finished)
            for board, final_info in zip(finished.tolist(), final_infos, strict=True):
                self.reset_infos[board] = board_infos[board]
                final_info["terminal_observation"] = infos["final_obs"][board]
                board_infos[board] = final_info
        cut_short = (truncated & ~terminated).tolist()
        for info, flag in zip(board_infos, cut_short, strict=True):
            info["TimeLimit.truncated"] = flag
        return obs, rewards.astype(np.float32), dones, board_infos

    def action_masks(self) -> np.ndarray:
        """``bool`` (N, W*H): the valid actions of every board."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError("the boards share their settings: set an attribute on all of them")
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(
                f"the boards have no method {method_name!r} of their own; "
                "call it on the vector env (.venv)"
            )
        masks = self.venv.action_masks()
        return [masks[board] for board in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


def _board_infos(infos: dict[str, Any], boards: Sequence[int] | np.ndarray) -> list[dict]:
    """Gymnasium's batched info as SB3's list: board b's dict holds the keys it reports.

    Each value is what ``infos[key][b]`` gives (a numpy scalar, an object, a row view).
    For every board the dicts are built column by column (a key's values for all boards
    in one C-level pass, each board's dict zipped in C), not with two numpy indexings
    per key and board: half the time with the env's ten keys.
    """
    keys = [key for key in infos if not key.startswith("_") and not key.startswith("final_")]
    if not keys:
        return [{} for _ in boards]
    if not (isinstance(boards, range) and boards == range(len(infos[f"_{keys[0]}"]))):
        # A few boards (the finished ones): indexing each costs less than whole columns.
        return [
            {key: infos[key][board] for key in keys if infos[f"_{key}"][board]} for board in boards
        ]
    columns = [list(infos[key]) for key in keys]
    present = [infos[f"_{key}"].tolist() for key in keys]
    dicts = [dict(zip(keys, row, strict=True)) for row in zip(*columns, strict=True)]
    for key, here in zip(keys, present, strict=True):
        if not all(here):
            for info, reports in zip(dicts, here, strict=True):
                if not reports:
                    del info[key]
    return dicts
