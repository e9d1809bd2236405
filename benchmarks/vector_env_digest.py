"""One SHA-256 digest of everything the native vector env and its SB3 adapter return.

A speed change to the batched env must leave every output as it was: run this
script on two trees (``PYTHONPATH=<tree> python benchmarks/vector_env_digest.py``)
and compare the digests. It steps seeded games in every observation mode, both
autoreset modes, every first-click policy, maps, truncation, progress rewards,
``info_probability=False``, a rule set played in Python rounds, partial resets
and ``copy=False``, with a share of (often invalid) random actions, and hashes
every observation, reward, termination, truncation, info key in its order (its
values by dtype, shape and bytes; object arrays and lists by ``repr``) and the
masks. The tests compare the vector env with a sync env board for board; this
digest is the stricter same-as-before check (object types, key order, values
where a sync env has none).

    python benchmarks/vector_env_digest.py            # every case, one line each
    python benchmarks/vector_env_digest.py --steps 60 # shorter
    python benchmarks/vector_env_digest.py --num-threads 2  # the threaded env: the same digests
"""

from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

import minesweep_env  # noqa: F401  (registers the env)

ROOT = Path(__file__).resolve().parent.parent
# Relative to ROOT (main() works from there): the env reports a map by the path it was
# given, so an absolute path would make two checkouts' digests differ.
MAPS = Path("maps") / "suites" / "beginner"

CASES: list[tuple[str, int, dict[str, Any]]] = [
    (name, num_envs, kwargs)
    for board in ("beginner", "expert")
    for name, num_envs, kwargs in [
        (f"{board} safe planes next", 16, {"board": board}),
        (
            f"{board} none planes same",
            16,
            {"board": board, "first_click": "none", "autoreset_mode": AutoresetMode.SAME_STEP},
        ),
        (
            f"{board} zero grid next",
            16,
            {"board": board, "first_click": "zero", "obs_mode": "grid"},
        ),
        (
            f"{board} safe planes+probabilities same",
            8,
            {
                "board": board,
                "obs_mode": "planes+probabilities",
                "autoreset_mode": AutoresetMode.SAME_STEP,
            },
        ),
        (
            f"{board} endoh planes no-probability",
            16,
            {"board": board, "first_click": "endoh", "info_probability": False},
        ),
        (f"{board} copy=False", 16, {"board": board, "copy": False}),
    ]
] + [
    (
        "small progress truncation",
        12,
        {"width": 6, "height": 5, "mines": 6, "reward": "progress", "max_steps": 4},
    ),
    (
        "small progress truncation same",
        12,
        {
            "width": 6,
            "height": 5,
            "mines": 6,
            "reward": "progress",
            "max_steps": 4,
            "first_click": "endoh",
            "autoreset_mode": AutoresetMode.SAME_STEP,
        },
    ),
    ("beginner endoh rule set", 8, {"rule_set": "endoh"}),
    (
        "beginner groups rule set same",
        8,
        {"rule_set": "groups", "autoreset_mode": AutoresetMode.SAME_STEP},
    ),
    ("maps endoh-alt", 8, {"maps": MAPS, "rule_set": "endoh-alt"}),
    ("intermediate 64 boards", 64, {"board": "intermediate"}),
    # Partial resets that play a map and reseed boards between random games.
    ("beginner map and seed resets", 16, {"board": "beginner", "_map_resets": True}),
    (
        "beginner map and seed resets same",
        16,
        {"board": "beginner", "_map_resets": True, "autoreset_mode": AutoresetMode.SAME_STEP},
    ),
]


def feed(digest: Any, value: Any) -> None:
    """Hash ``value`` with its type: arrays by dtype, shape and bytes, the rest by repr."""
    if isinstance(value, dict):
        digest.update(b"dict")
        for key, item in value.items():
            digest.update(repr(key).encode())
            feed(digest, item)
    elif isinstance(value, np.ndarray):
        digest.update(f"{value.dtype}{value.shape}".encode())
        if value.dtype == object:
            digest.update(repr([type(item).__name__ for item in value.tolist()]).encode())
            digest.update(repr(value.tolist()).encode())
        else:
            digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, (list, tuple)):
        digest.update(f"{type(value).__name__}{len(value)}".encode())
        for item in value:
            feed(digest, item)
    else:
        digest.update(f"{type(value).__name__}:{value!r}".encode())


def play_vector(num_envs: int, kwargs: dict[str, Any], steps: int, seed: int) -> str:
    """Digest of a native vector env's outputs over ``steps`` steps of random play."""
    kwargs = dict(kwargs)
    map_resets = kwargs.pop("_map_resets", False)
    env = gym.make_vec(
        "SemiAutoMines-v0", num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )
    digest = hashlib.sha256()
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    feed(digest, (obs, info))
    cells = env.single_action_space.n
    for step in range(steps):
        masks = info["action_mask"]
        scores = rng.random(masks.shape)
        scores[~masks] = -1.0
        actions = scores.argmax(axis=1)
        wild = rng.random(num_envs) < 0.05
        actions[wild] = rng.integers(cells, size=int(wild.sum()))
        result = env.step(actions)
        feed(digest, result)
        feed(digest, env.unwrapped.action_masks())
        info = result[-1]
        if step % 37 == 36:  # a partial reset now and then
            mask = rng.random(num_envs) < 0.3
            mask[0] = True
            options: dict[str, Any] = {"reset_mask": mask}
            reseed = None
            if map_resets:
                options["map"] = str(MAPS / "beginner-002.txt")
                reseed = [
                    int(s) if m and s % 2 else None
                    for s, m in zip(rng.integers(99, size=num_envs), mask, strict=True)
                ]
            obs, info = env.reset(seed=reseed, options=options)
            feed(digest, (obs, info))
    env.close()
    return digest.hexdigest()


def play_sb3(num_envs: int, kwargs: dict[str, Any], steps: int, seed: int) -> str:
    """Digest of the SB3 adapter's outputs (obs, rewards, dones, per-board infos, masks)."""
    from minesweep_env.envs.sb3_vec import SemiAutoMinesSB3VecEnv

    env = SemiAutoMinesSB3VecEnv(num_envs=num_envs, **kwargs)
    env.seed(seed)
    digest = hashlib.sha256()
    rng = np.random.default_rng(seed)
    feed(digest, env.reset())
    feed(digest, env.reset_infos)
    for _ in range(steps):
        masks = env.action_masks()
        scores = rng.random(masks.shape)
        scores[~masks] = -1.0
        actions = scores.argmax(axis=1)
        env.step_async(actions)
        feed(digest, env.step_wait())
        feed(digest, env.reset_infos)
        feed(digest, env.env_method("action_masks"))
    env.close()
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--num-threads", type=int, default=0, help="pass num_threads=K to every env (0: not passed)"
    )
    args = parser.parse_args()
    threads = {"num_threads": args.num_threads} if args.num_threads else {}
    os.chdir(ROOT)
    total = hashlib.sha256()
    for name, num_envs, kwargs in CASES:
        line = play_vector(num_envs, {**kwargs, **threads}, args.steps, args.seed)
        total.update(line.encode())
        print(f"{name:<40} {line[:16]}", flush=True)
    for board in ("beginner", "expert"):
        line = play_sb3(16, {"board": board, **threads}, args.steps, args.seed)
        total.update(line.encode())
        print(f"{'sb3 ' + board:<40} {line[:16]}", flush=True)
    print(f"all {total.hexdigest()}")


if __name__ == "__main__":
    main()
