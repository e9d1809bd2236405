"""The native vector env over several cores: shards of the boards stepped by threads.

:class:`ThreadedVectorEnv` splits its N boards into K contiguous shards, each a
:class:`~minesweep_env.envs.vector.SemiAutoMinesVectorEnv` of its own (its own
:class:`~minesweep_env.envs.board_batch.BoardBatch`, compiled-step arrays and
scratch), and steps them at once on a persistent pool of K - 1 threads plus the
caller's. The compiled whole step
(:func:`~minesweep_env.envs.board_batch_step_compiled.step_boards`) releases
the GIL, and it is most of a step, so the shards' kernels run on different
cores; the Python around each kernel (reading its outputs, packing its info)
takes the GIL in turn. Whatever a shard hands back to Python mid-step (a first
click the policy plays in Python, a chance to find, rounds of a rule set played
in Python, maps and given layouts) it does in its own thread, holding the GIL
as any Python does: slower, never different.

The env is the EnvPool shape in one process, and it gives what a single
``SemiAutoMinesVectorEnv`` of N boards gives, board for board: board i of the
whole is board ``i - offset`` of its shard, seeded with the same seed
(``reset(seed=S)`` seeds board i with ``S + i``), so the observations, rewards,
ends, masks and every ``info`` value (its ``"_key"`` masks, its keys' order) are
the same. ``gymnasium.make_vec("SemiAutoMines-v0", num_envs=N, num_threads=K)``
makes it (:func:`make_vector_env`); ``num_threads=1`` (the default) makes the
plain env, as before.

A rule set handed as an instance is shared by every board (as ``make_vec`` shares
it between sync sub-envs); the shards then take turns rather than threads, since
one Python object would be played from two threads at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.board_spec import as_count
from ..solver.base import RuleSet
from .checks import check_reset_mask, vector_actions
from .vector import SemiAutoMinesVectorEnv

STEP_KEYS = ("opened", "flagged", "mine_probability", "invalid_action")
"""``info`` keys a board reports only on the steps that played it (the vector env's step
columns); the rest come first (every board reports them), and ``"final_obs"`` and
``"final_info"`` between the two groups."""

_FINAL_KEYS = ("final_obs", "final_info")

_NOT_STEPPED: dict[str, Callable[[int], np.ndarray]] = {
    "opened": lambda size: np.full(size, None, dtype=object),
    "flagged": lambda size: np.full(size, None, dtype=object),
    "mine_probability": lambda size: np.zeros(size, dtype=np.float64),
    "invalid_action": lambda size: np.zeros(size, dtype=bool),
}
"""A step column's values on boards the step did not play (restarted), as the vector env
writes them."""

Step = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]


def make_vector_env(
    num_envs: int = 1, num_threads: int = 1, **kwargs: Any
) -> SemiAutoMinesVectorEnv | ThreadedVectorEnv:
    """The vector entry point of ``SemiAutoMines-v0``: the plain
    :class:`SemiAutoMinesVectorEnv` for one thread, else a :class:`ThreadedVectorEnv`."""
    if as_count(num_threads, "num_threads") == 1:
        return SemiAutoMinesVectorEnv(num_envs=num_envs, **kwargs)
    return ThreadedVectorEnv(num_envs=num_envs, num_threads=num_threads, **kwargs)


class ThreadedVectorEnv(VectorEnv):
    """``num_envs`` boards of ``SemiAutoMines-v0`` in ``num_threads`` shards stepped by threads.

    It takes :class:`SemiAutoMinesVectorEnv`'s arguments plus ``num_threads``
    (K, at most ``num_envs``): shard k holds boards ``offsets[k]:offsets[k + 1]``
    (sizes differ by at most one). Its outputs are those of one
    ``SemiAutoMinesVectorEnv`` of ``num_envs`` boards (see the module). The
    shards write their observations and masks into views of this env's
    buffers, so nothing is copied to put them together; ``copy`` is as the
    plain env's. ``env.shards`` are the shard envs (their ``boards`` the
    batches); ``close()`` stops the threads.
    """

    metadata: dict[str, Any] = SemiAutoMinesVectorEnv.metadata

    def __init__(
        self,
        num_envs: int = 1,
        num_threads: int = 2,
        copy: bool = True,
        **kwargs: Any,
    ) -> None:
        num_envs = as_count(num_envs, "num_envs")
        num_threads = as_count(num_threads, "num_threads")
        if num_threads < 1 or num_threads > num_envs:
            raise ValueError(
                f"num_threads must be between 1 and num_envs={num_envs}, got {num_threads}"
            )
        sizes = [len(part) for part in np.array_split(np.arange(num_envs), num_threads)]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        self.shards = [
            SemiAutoMinesVectorEnv(num_envs=size, copy=False, **kwargs) for size in sizes
        ]
        first = self.shards[0]
        self.num_envs, self.num_threads, self.copy = num_envs, num_threads, bool(copy)
        self.width, self.height, self.mines = first.width, first.height, first.mines
        self.maps, self.first_click, self.obs_mode = first.maps, first.first_click, first.obs_mode
        self.autoreset_mode = first.autoreset_mode
        self.metadata = first.metadata
        self.render_mode = None
        self.single_action_space = first.single_action_space
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = first.single_observation_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        space = self.observation_space
        assert space.shape is not None and space.dtype is not None  # a Box has both
        self._observations: np.ndarray = np.zeros(space.shape, space.dtype)
        self._masks = np.ones((num_envs, self.width * self.height), dtype=bool)
        for shard, (start, end) in zip(self.shards, self._slices(), strict=True):
            shard.share_buffers(self._observations[start:end], self._masks[start:end])
        self.rule_sets = [rules for shard in self.shards for rules in shard.rule_sets]
        # One rule set object on every board: played from one thread at a time.
        shared = isinstance(kwargs.get("rule_set"), RuleSet)
        self._pool = None if shared else ThreadPoolExecutor(num_threads - 1, "semiautomines")
        self._started = False

    def _slices(self) -> list[tuple[int, int]]:
        return list(zip(self.offsets[:-1], self.offsets[1:], strict=True))

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """:meth:`SemiAutoMinesVectorEnv.reset` on every shard; a shard none of whose boards
        ``options["reset_mask"]`` names is left as it is (its info columns unmarked)."""
        n = self.num_envs
        if seed is None or isinstance(seed, (int, np.integer)):
            seeds: list[Any] = [
                None if seed is None else int(seed) + start for start, _ in self._slices()
            ]
        else:
            if len(seed) != n:
                raise ValueError(
                    f"If seeds are passed as a list the length must match num_envs={n} "
                    f"but got length={len(seed)}."
                )
            seeds = [list(seed[start:end]) for start, end in self._slices()]
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if reset_mask is not None:
            check_reset_mask(reset_mask, n, self._started)
        calls: list[Callable[[], tuple[np.ndarray, dict[str, Any]]]] = []
        for shard, shard_seed, (start, end) in zip(self.shards, seeds, self._slices(), strict=True):
            shard_options = dict(options)
            if reset_mask is not None:
                part = reset_mask[start:end]
                if not part.any():
                    calls.append(_unchanged(shard))
                    continue
                shard_options["reset_mask"] = part
            calls.append(_reset_call(shard, shard_seed, shard_options))
        infos = [info for _, info in self._run(calls)]
        self._started = True
        return self._observation_batch(), merge_infos(infos, self._sizes())

    def step(self, actions: np.ndarray) -> Step:
        """:meth:`SemiAutoMinesVectorEnv.step` on every shard at once, the outputs joined."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        n, cells = self.num_envs, self.width * self.height
        actions = vector_actions(actions, n)
        if ((actions < 0) | (actions >= cells)).any():  # checked whole: no shard half-stepped
            raise ValueError(f"actions {actions} are outside Discrete({cells})")
        actions = actions.astype(np.int64)
        steps = self._run(
            [
                _step_call(shard, actions[start:end])
                for shard, (start, end) in zip(self.shards, self._slices(), strict=True)
            ]
        )
        rewards = np.concatenate([step[1] for step in steps])
        terminated = np.concatenate([step[2] for step in steps])
        truncated = np.concatenate([step[3] for step in steps])
        infos = merge_infos([step[4] for step in steps], self._sizes())
        return self._observation_batch(), rewards, terminated, truncated, infos

    def _run(self, calls: Sequence[Callable[[], Any]]) -> list[Any]:
        """Every shard's call, the first in this thread and the rest on the pool (one after
        the other without a pool); their results in shard order."""
        if self._pool is None:
            return [call() for call in calls]
        futures = [self._pool.submit(call) for call in calls[1:]]
        first = calls[0]()
        return [first, *(future.result() for future in futures)]

    def _sizes(self) -> list[int]:
        return [shard.num_envs for shard in self.shards]

    def _observation_batch(self) -> np.ndarray:
        return self._observations.copy() if self.copy else self._observations

    def action_masks(self) -> np.ndarray:
        """``bool`` (N, W*H): the valid actions of every board (the shards' rows)."""
        return self._masks.copy()

    def close(self, **kwargs: Any) -> None:
        """Stop the threads."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        self.closed = True


def _reset_call(
    shard: SemiAutoMinesVectorEnv, seed: Any, options: dict[str, Any]
) -> Callable[[], tuple[np.ndarray, dict[str, Any]]]:
    return lambda: shard.reset(seed=seed, options=options or None)


def _step_call(shard: SemiAutoMinesVectorEnv, actions: np.ndarray) -> Callable[[], Step]:
    return lambda: shard.step(actions)


def _unchanged(shard: SemiAutoMinesVectorEnv) -> Callable[[], tuple[np.ndarray, dict[str, Any]]]:
    """A shard a partial reset leaves: its info as the whole env's reset gives its boards."""
    present = np.zeros(shard.num_envs, dtype=bool)
    return lambda: (shard._observations, shard._pack(shard._reset_columns(), present))


def _rank(key: str) -> int:
    name = key.lstrip("_")
    return 2 if name in STEP_KEYS else 1 if name in _FINAL_KEYS else 0


def merge_infos(infos: Sequence[dict[str, Any]], sizes: Sequence[int]) -> dict[str, Any]:
    """The shards' vector infos as one env's: every key's values joined in board order,
    with the values a single env has where a shard did not report the key.

    A shard leaves out a step column when none of its boards was stepped: its
    boards then have the values of a board restarted by ``NEXT_STEP``
    (:data:`_NOT_STEPPED`), or, when they all ended in a ``SAME_STEP`` autoreset,
    those of its ``final_info``. A shard leaves out ``final_obs``/``final_info`` when
    none of its boards ended: ``None`` per board, and its own columns, unmarked.
    """
    keys = list(infos[0])
    if all(list(info) == keys for info in infos[1:]):  # the usual step: joined as they are
        return {
            key: merge_infos([info[key] for info in infos], sizes)
            if key == "final_info"
            else np.concatenate([info[key] for info in infos])
            for key in keys
        }
    for info in infos[1:]:
        keys += [key for key in info if key not in keys]
    keys.sort(key=_rank)  # stable: the order within each group stays
    merged: dict[str, Any] = {}
    for key in keys:
        if key.startswith("_"):
            continue
        parts, present = [], []
        for info, size in zip(infos, sizes, strict=True):
            if key in info:
                parts.append(info[key])
                present.append(info[f"_{key}"])
                continue
            present.append(np.zeros(size, dtype=bool))
            if key == "final_obs":
                parts.append(np.full(size, None, dtype=object))
            elif key == "final_info":
                columns = [name for name in info if not name.startswith("_") and _rank(name) != 1]
                unmarked = {}
                for name in columns:
                    unmarked[name] = info[name]
                    unmarked[f"_{name}"] = np.zeros(size, dtype=bool)
                parts.append(unmarked)
            elif "final_info" in info and key in info["final_info"]:
                parts.append(info["final_info"][key])
            else:
                parts.append(_NOT_STEPPED[key](size))
        if key == "final_info":
            merged[key] = merge_infos(parts, sizes)
        else:
            merged[key] = np.concatenate(parts)
        merged[f"_{key}"] = np.concatenate(present)
    return merged
