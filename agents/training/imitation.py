"""Imitation warm start: fit a fresh policy to the greedy baseline before PPO.

Why: PPO on ~2 decisions per game learns slowly from a win/loss signal;
starting from the baseline's play (lowest probability, its tie-break and its
corner opening) leaves PPO the part where it can do better.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from minesweep_env.envs import ENV_ID  # importing minesweep_env registers the env
from minesweep_env.fileio import append_text, write_text

from ..greedy import GreedyAgent
from .args import Args, env_kwargs


def collect_greedy_games(args: Args) -> dict[str, np.ndarray]:
    """Observations, masks and moves of the greedy baseline, and each game's outcome.

    Games come from one seeded stream (``reset(seed=seed + 1_000_000)``, then
    plain resets), apart from the evaluation seeds.
    """
    env = gym.make(ENV_ID, disable_env_checker=True, **env_kwargs(args))
    teacher = GreedyAgent()
    observations, masks, actions, outcomes = [], [], [], []
    obs, info = env.reset(seed=args.seed + 1_000_000)
    for _ in tqdm(
        range(args.imitation_games), desc="greedy games", unit="game", disable=not args.progress_bar
    ):
        teacher.reset()
        start, done = len(actions), False
        while not done:
            action = teacher.act(obs, info["action_mask"], env.unwrapped.game)
            observations.append(obs)
            masks.append(info["action_mask"])
            actions.append(action)
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        outcomes += [1.0 if info["state"] == "won" else -1.0] * (len(actions) - start)
        obs, info = env.reset()
    env.close()
    return {
        "observations": np.stack(observations),
        "masks": np.stack(masks),
        "actions": np.array(actions),
        "outcomes": np.array(outcomes, dtype=np.float32),
    }


def imitate_greedy(model: MaskablePPO, args: Args, run_dir: Path) -> None:
    """Behaviour cloning: fit the actor to greedy's moves and the critic to its outcomes.

    Logs the share of moves the policy matches per epoch to ``imitation.csv``
    and to TensorBoard (``imitation/accuracy``).
    """
    data = collect_greedy_games(args)
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = th.optim.Adam(policy.parameters(), lr=args.imitation_lr)
    rng = np.random.default_rng(args.seed)
    count = len(data["actions"])
    writer = SummaryWriter(str(run_dir / "tb" / "imitation"))
    log_path = run_dir / "imitation.csv"
    write_text(log_path, "epoch,moves,accuracy,loss\n")
    for epoch in tqdm(
        range(args.imitation_epochs), desc="imitation", unit="epoch", disable=not args.progress_bar
    ):
        matched = total_loss = 0.0
        for batch in np.array_split(rng.permutation(count), max(1, count // args.batch_size)):
            obs = th.as_tensor(data["observations"][batch])
            actions = th.as_tensor(data["actions"][batch])
            distribution = policy.get_distribution(obs, data["masks"][batch])
            values = policy.predict_values(obs).flatten()
            outcomes = th.as_tensor(data["outcomes"][batch])
            policy_loss = -distribution.log_prob(actions).mean()
            value_loss = th.nn.functional.mse_loss(values, outcomes)
            loss = policy_loss + args.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
            optimizer.step()
            matched += (distribution.mode() == actions).sum().item()
            total_loss += loss.item() * len(batch)
        writer.add_scalar("imitation/accuracy", matched / count, epoch)
        writer.add_scalar("imitation/loss", total_loss / count, epoch)
        append_text(log_path, f"{epoch},{count},{matched / count:.4f},{total_loss / count:.4f}\n")
    writer.close()
    policy.set_training_mode(False)
