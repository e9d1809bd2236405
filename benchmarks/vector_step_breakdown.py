"""Where a game's time goes in the native vector env: the compiled step against the Python.

Plays a random masked agent (as ``env_speed.py``'s vector rows) on ``num_envs``
boards of ``SemiAutoMinesVectorEnv`` for some CPU seconds and times, in CPU
seconds of this process, the compiled whole step
(:func:`~minesweep_env.solver.probability.step_kernels.step_boards`), the
Python pieces of :meth:`SemiAutoMinesVectorEnv.step` around it, and the agent's
own work, each as microseconds per game. Why: the threaded env
(:mod:`minesweep_env.envs.threaded`) runs the compiled step of its shards at once
with the GIL released, while the Python around it runs one thread at a time, so
the split bounds what threads can give.

    python benchmarks/vector_step_breakdown.py --board expert --seconds 10
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np
from env_speed import Timers  # the sibling script (benchmarks/ is on the path)

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.envs import vector
from minesweep_env.envs.board_batch import step_kernels

PIECES: list[tuple[str, Any, str]] = [
    ("compiled step_boards (probe kernel + rest)", "kernel", "step_boards"),
    ("BoardBatch.step_compiled around it", vector.BoardBatch, "step_compiled"),
    ("env._compiled_arrays", vector.SemiAutoMinesVectorEnv, "_compiled_arrays"),
    (
        "env._new_games_shown (rule sets reset, seeds)",
        vector.SemiAutoMinesVectorEnv,
        "_new_games_shown",
    ),
    ("env._changed_cells (opened/flagged lists)", vector.SemiAutoMinesVectorEnv, "_changed_cells"),
    ("env._step_outputs (info packing)", vector.SemiAutoMinesVectorEnv, "_step_outputs"),
    ("env.step (all of it)", vector.SemiAutoMinesVectorEnv, "step"),
]
"""The timed functions: a name, the owner (class or ``"kernel"``) and the attribute."""

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="expert")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds of play")
    args = parser.parse_args()
    envs = gym.make_vec(
        "SemiAutoMines-v0", num_envs=args.num_envs, board=args.board, rule_set="complete"
    )
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    kernels = step_kernels()
    timers = Timers()
    seconds = timers.seconds
    originals = []
    for name, owner, attribute in PIECES:
        target = kernels if owner == "kernel" else owner
        originals.append((target, attribute, getattr(target, attribute)))
        setattr(target, attribute, timers.wrap(name, getattr(target, attribute)))
    games = steps = 0
    envs.step(np.asarray(info["action_mask"]).argmax(axis=1))  # kernels loaded, untimed
    start = time.process_time()
    try:
        while time.process_time() - start < args.seconds:
            t = time.process_time()
            masks = info["action_mask"]
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            seconds["agent (random masked choice)"] += time.process_time() - t
            _, _, terminated, truncated, info = envs.step(actions)
            games += int(np.count_nonzero(terminated | truncated))
            steps += 1
    finally:
        for target, attribute, function in originals:
            setattr(target, attribute, function)
    total = time.process_time() - start
    print(
        f"{args.board}, {args.num_envs} boards, rule set complete, random masked agent: "
        f"{games} games in {steps} batched steps, {total:.1f} CPU s, "
        f"{games / total:.0f} games/s per CPU s"
    )
    print(f"{'piece':<50}{'us/game':>10}{'share':>8}")
    for name, _, _ in PIECES:
        print(f"{name:<50}{1e6 * seconds[name] / games:>10.1f}{seconds[name] / total:>8.1%}")
    name = "agent (random masked choice)"
    print(f"{name:<50}{1e6 * seconds[name] / games:>10.1f}{seconds[name] / total:>8.1%}")
    rest = total - seconds["env.step (all of it)"] - seconds[name]
    print(f"{'loop and timers':<50}{1e6 * rest / games:>10.1f}{rest / total:>8.1%}")
    print(
        "(nested: step_boards is inside BoardBatch.step_compiled, which is inside env.step, "
        "as are the env pieces)"
    )


if __name__ == "__main__":
    main()
