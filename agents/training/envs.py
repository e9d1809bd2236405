"""The training envs: ``num_envs`` SemiAutoMines boards as one SB3 VecEnv, episodes logged.

``--vec-env dummy`` and ``subproc`` wrap single envs (one ``Monitor`` CSV each);
``native`` is the library's batched env (:mod:`minesweep_env.envs.sb3_vec`:
every board in one process, masks for MaskablePPO included) under one
``VecMonitor``.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from minesweep_env.envs import ENV_ID  # importing minesweep_env registers the env

from .args import Args, env_kwargs


def make_env(kwargs: dict[str, Any], monitor_file: str | None, append: bool = False) -> gym.Env:
    """One env, its episodes logged to ``monitor_file`` (``append``: a resumed
    run adds to its monitor CSVs instead of starting them again).

    A module-level function, so ``partial(make_env, ...)`` pickles by name into
    ``SubprocVecEnv`` workers, which import this module and so register the env.
    """
    # "state" in the monitor CSVs: the learning curve counts wins under any reward.
    return Monitor(
        gym.make(ENV_ID, **kwargs),
        monitor_file,
        info_keywords=("state",),
        override_existing=not append,
    )


def make_native_vec_env(args: Args, monitor_dir: Path | None) -> VecEnv:
    """The batched env under a ``VecMonitor``. The monitor cannot append, so each
    start of a run (a resume) logs to a new ``native<k>.monitor.csv``."""
    from stable_baselines3.common.vec_env import VecMonitor

    from minesweep_env.envs.sb3_vec import SemiAutoMinesSB3VecEnv

    vec = SemiAutoMinesSB3VecEnv(num_envs=args.num_envs, **env_kwargs(args))
    filename = None
    if monitor_dir is not None:
        starts = len(list(monitor_dir.glob("native*.monitor.csv")))
        filename = str(monitor_dir / f"native{starts}")
    monitored = VecMonitor(vec, filename, info_keywords=("state",))
    monitored.seed(args.seed)
    return monitored


def make_vec_env(args: Args, monitor_dir: Path | None) -> VecEnv:
    """``num_envs`` envs, episodes logged, seeded ``seed, seed + 1, ...``."""
    if args.vec_env == "native":
        return make_native_vec_env(args, monitor_dir)
    kwargs, append = env_kwargs(args), bool(args.resume)
    thunks = [
        partial(make_env, kwargs, str(monitor_dir / str(i)) if monitor_dir else None, append)
        for i in range(args.num_envs)
    ]
    vec = SubprocVecEnv(thunks) if args.vec_env == "subproc" else DummyVecEnv(thunks)
    vec.seed(args.seed)
    return vec
