"""``python -m semiautomines_agents.training.symmetry``: does a model choose the same cell
when it sees the board mirrored?

Why ask: Minesweeper has no preferred direction, so the best move of a mirrored
position is the mirror of the best move. A convolutional network is not made that
way (its 3x3 kernels need not be symmetric); it is only as mirror-consistent as its
training taught it, and a network imitating a teacher that breaks exact ties by
board order may learn direction-bound habits. This measures them: it plays games
with the model and, at every guess, asks the model again on the position mirrored
left-right, top-bottom and both (the half-turn), maps each answer back, and counts
how often it is a cell the model itself rates best on the plain view (within
:data:`TIE`; so a mirror-consistent network scores 1 even where it breaks ties by
order). ``docs/experiments/ppo.md`` uses it to explain why
averaging the four views at play time costs the shipped model about a point.

    python -m semiautomines_agents.training.symmetry --games 40 --seed 0
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch as th

from ..policies import CellPolicy

MIRRORS: dict[str, tuple[int, ...]] = {
    "left-right": (-1,),
    "top-bottom": (-2,),
    "half-turn": (-2, -1),
}
"""The board's mirror images every rectangular board has, as the axes they reverse."""

TIE = 1e-4
"""Two logits closer than this count as the same rating."""


def cell_logits(
    policy: CellPolicy, observation: np.ndarray, axes: tuple[int, ...] = ()
) -> th.Tensor:
    """The policy's logit of every cell (H, W) for ``observation`` (C, H, W) seen mirrored
    along ``axes``, mapped back to the plain board's cells."""
    planes = th.as_tensor(np.asarray(observation, dtype=np.float32))[None]
    if axes:
        planes = planes.flip(axes)
    with th.inference_mode():
        logits = policy.cell_logits(planes).reshape(planes.shape[-2:])
    return logits.flip(axes) if axes else logits


@dataclass
class Agreement:
    """How often each mirrored view's choice is one the plain view rates best."""

    positions: int = 0
    agreeing: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MIRRORS, 0))

    def shares(self) -> dict[str, float]:
        return {name: count / max(self.positions, 1) for name, count in self.agreeing.items()}


def measure(policy: CellPolicy, make_env: Callable, games: int, seed: int) -> Agreement:
    """Play ``games`` games with ``policy``'s plain choices (env seeds ``seed``, ``seed + 1``,
    ...) and compare, at every guess, the mirrored views' choices with the plain one."""
    env = make_env()
    result = Agreement()
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            valid = th.as_tensor(np.asarray(env.unwrapped.action_masks(), dtype=bool))
            valid = valid.reshape(observation.shape[-2:])
            plain = th.where(valid, cell_logits(policy, observation), -th.inf)
            best = plain.max()
            for name, axes in MIRRORS.items():
                mirrored = th.where(valid, cell_logits(policy, observation, axes), -th.inf)
                chosen = plain.flatten()[int(mirrored.flatten().argmax())]
                result.agreeing[name] += int(best - chosen <= TIE)
            result.positions += 1
            action = int(plain.flatten().argmax())
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
    env.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m semiautomines_agents.training.symmetry",
        description="How often a model's choice on a mirrored board is its own best cell.",
    )
    parser.add_argument("--model", type=Path, default=None, help="weights file (default: shipped)")
    parser.add_argument("--board", default="expert")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import gymnasium

    import minesweep_env  # noqa: F401  (registers the env)

    from ..ppo import ModelNotFoundError, PPOAgent

    try:
        agent = PPOAgent(args.model)  # weights files only: a zip is refused, not unpickled
    except ModelNotFoundError as error:
        parser.error(str(error))
    policy = agent.policy
    if not isinstance(policy, CellPolicy):
        parser.error(f"{agent.model_path}: not a per-cell network")

    def make_env():
        return gymnasium.make("SemiAutoMines-v0", board=args.board, obs_mode=agent.obs_mode)

    result = measure(policy, make_env, args.games, args.seed)
    print(f"{agent.describe()}, {args.board}, {args.games} games, {result.positions} guesses")
    for name, share in result.shares().items():
        print(f"  {name:<11} view picks a cell the plain view rates best: {share:6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
