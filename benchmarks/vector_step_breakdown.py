"""Where a game's time goes in the native vector env: the compiled step against the Python.

Plays a random masked agent (as ``env_speed.py``'s vector rows) on ``num_envs``
boards of ``SemiAutoMinesVectorEnv`` for some CPU seconds and times, in CPU
seconds of this process, the compiled whole step
(:func:`~minesweep_env.envs.board_batch_step_compiled.step_boards`), the
Python pieces of :meth:`SemiAutoMinesVectorEnv.step` around it, and the agent's
own work, each as microseconds per game. Why: the threaded env
(:mod:`minesweep_env.envs.threaded`) runs the compiled step of its shards at once
with the GIL released, while the Python around it runs one thread at a time, so
the split bounds what threads can give.

With ``--sync`` the same agent also plays ``make_vec(..., vectorization_mode="sync")``
on as many boards, in blocks alternating with the native env's (``--rounds``), and
the script prints the bound the compiled step sets on the native env's lead: the
games/s ratio to ``sync`` that a native env whose Python and agent cost nothing
would reach (``sync`` per game over the compiled step per game), and how much faster
the compiled step would have to be for a ratio of 5 with the present Python around it on
both sides (``sync`` runs the same auto-solver, so a faster step speeds it too).

    python benchmarks/vector_step_breakdown.py --board expert --seconds 10
    python benchmarks/vector_step_breakdown.py --board expert --seconds 10 --sync --rounds 5
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np
from env_speed import Timers, VectorRandomGames  # sibling script (benchmarks/ is on the path)

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
    parser.add_argument("--sync", action="store_true", help="also time sync and print the bound")
    parser.add_argument("--rounds", type=int, default=1, help="blocks each side plays, alternated")
    args = parser.parse_args()
    sync = VectorRandomGames(args.board, args.num_envs, "sync") if args.sync else None
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
    games = steps = sync_games = 0
    total = sync_seconds = 0.0
    envs.step(np.asarray(info["action_mask"]).argmax(axis=1))  # kernels loaded, untimed
    seconds.clear()
    block = args.seconds / args.rounds
    try:
        for _ in range(args.rounds):
            start = time.process_time()
            while time.process_time() - start < block:
                t = time.process_time()
                masks = info["action_mask"]
                actions = (rng.random(masks.shape) * masks).argmax(axis=1)
                seconds["agent (random masked choice)"] += time.process_time() - t
                _, _, terminated, truncated, info = envs.step(actions)
                games += int(np.count_nonzero(terminated | truncated))
                steps += 1
            total += time.process_time() - start
            if sync is not None:
                start = time.process_time()
                sync_games += sync.play(block)[0]
                sync_seconds += time.process_time() - start
    finally:
        for target, attribute, function in originals:
            setattr(target, attribute, function)
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
    if sync is not None:
        print_bound(total / games, seconds[PIECES[0][0]] / games, sync_seconds / sync_games)


def print_bound(native: float, kernel: float, sync: float) -> None:
    """The native env's lead over ``sync`` now, its bound, and the step needed for 5x.

    All three are CPU seconds per game. With the compiled step ``kernel`` shared by
    both sides (``sync``'s own auto-solver assumed to cost the same per game), a step
    of ``k`` seconds gives ``(k + sync - kernel) / (k + native - kernel)``; solved for
    a ratio of 5.
    """
    print(
        f"sync: {1e6 * sync:.1f} us/game; native: {1e6 * native:.1f} us/game, "
        f"{sync / native:.2f}x sync"
    )
    print(
        f"bound with no Python and no agent on the native side: sync / compiled step = "
        f"{sync / kernel:.2f}x"
    )
    step_for_five = ((sync - kernel) - 5 * (native - kernel)) / 4
    if step_for_five <= 0:
        print("5x sync: out of reach even with a compiled step that costs nothing")
    elif step_for_five >= kernel:
        print("5x sync: reached with today's compiled step")
    else:
        print(
            f"5x sync with today's Python on both sides needs the compiled step at "
            f"{1e6 * step_for_five:.1f} us/game: {kernel / step_for_five:.1f}x faster"
        )


if __name__ == "__main__":
    main()
