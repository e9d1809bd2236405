"""Masked PPO for SemiAutoMines in one file, to read top to bottom and to fork.

CleanRL's layout: a dataclass of arguments, the env, the network, the loop
(GAE, clipped objective, value loss, entropy bonus), TensorBoard logging,
periodic checkpoints and a final evaluation. It needs torch, gymnasium and the
env (``pip install 'semiautomines[train]'``), nothing of the project's training
package. The env is the native batched one: ``gymnasium.make_vec`` with
``vectorization_mode="vector_entry_point"`` steps every board in one process.

Every step is a guess: the env's auto-solver has already made every certain
move, so an episode is a handful of decisions and the reward is +1 for a win,
-1 for a loss. Invalid cells (open or flagged) are masked out of the policy:
their logits are set to a large negative number before the softmax.

    python examples/cleanrl_masked_ppo.py --board beginner --total-timesteps 200000
    tensorboard --logdir runs
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn
from torch.utils.tensorboard import SummaryWriter

import minesweep_env  # noqa: F401  (registers SemiAutoMines-v0)

MASKED_LOGIT = -1e8
"""The logit of an invalid cell: its probability is 0 to float precision."""


@dataclass
class Args:
    """Every setting of a run; each field is a ``--kebab-case`` flag."""

    exp_name: str = "cleanrl_masked_ppo"
    """the run's name (its folder under --runs-dir)"""
    runs_dir: str = "runs"
    """where TensorBoard logs, checkpoints and the final result go"""
    seed: int = 1
    """seed of the envs, the network's weights and the sampling"""
    torch_threads: int = 1
    """torch CPU threads (1 is fastest for this small network)"""
    env_id: str = "SemiAutoMines-v0"
    """the Gymnasium id"""
    board: str = "beginner"
    """beginner, intermediate or expert"""
    obs_mode: str = "planes"
    """planes, or planes+probabilities (adds the exact mine probability of every cell)"""
    total_timesteps: int = 200_000
    """env steps (guesses) in total"""
    learning_rate: float = 2.5e-4
    """Adam step size (annealed linearly to 0)"""
    num_envs: int = 16
    """boards played at once"""
    num_steps: int = 64
    """steps per board per rollout"""
    gamma: float = 1.0
    """discount (a game is a few guesses: 1 maximises the win rate)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    num_minibatches: int = 4
    """minibatches per rollout"""
    update_epochs: int = 4
    """passes over each rollout"""
    clip_coef: float = 0.2
    """PPO clip"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight (the value loss is half the squared error, as in CleanRL: SB3's
    is the whole squared error, so SB3's vf_coef 0.5 is 1.0 here)"""
    target_kl: float = 0.0
    """stop a rollout's update once a minibatch's approximate KL passes 1.5 x this, as
    SB3 does (0: never stop early)"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    channels: int = 32
    """width of every convolution"""
    checkpoint_every: int = 50_000
    """save the weights every this many env steps (and at the end)"""
    eval_games: int = 500
    """games of the final evaluation (greedy actions, seeds apart from training's)"""


def parse_args(argv: list[str] | None = None) -> Args:
    """One flag per field of :class:`Args`, its docstring-less help the field's default."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        kind = {"int": int, "float": float, "str": str}[str(field.type)]
        parser.add_argument(
            flag, type=kind, default=field.default, help=f"(default {field.default})"
        )
    return Args(**vars(parser.parse_args(argv)))


def make_envs(args: Args, num_envs: int) -> gym.vector.VectorEnv:
    """The native batched env; a finished board restarts in the same step."""
    return gym.make_vec(
        args.env_id,
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        board=args.board,
        obs_mode=args.obs_mode,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )


class Agent(nn.Module):
    """A fully convolutional policy (one logit per cell) and a pooled value head."""

    def __init__(self, planes: int, channels: int):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
        )
        self.policy = nn.Conv2d(channels, 1, 1)
        self.value = nn.Sequential(nn.Linear(channels, 64), nn.ReLU(), nn.Linear(64, 1))

    def features(self, obs: torch.Tensor) -> torch.Tensor:
        return self.trunk(obs.float())

    def get_value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.value(self.features(obs).mean(dim=(2, 3))).squeeze(-1)

    def get_action_and_value(
        self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        features = self.features(obs)
        logits = self.policy(features).flatten(1)
        logits = torch.where(mask, logits, torch.full_like(logits, MASKED_LOGIT))
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        value = self.value(features.mean(dim=(2, 3))).squeeze(-1)
        return action, dist.log_prob(action), dist.entropy(), value


def evaluate(agent: Agent, args: Args, games: int, seed: int) -> float:
    """Win rate of the most probable valid cell, over ``games`` games."""
    envs = make_envs(args, min(games, 64))
    obs, info = envs.reset(seed=seed)
    wins = finished = 0
    while finished < games:
        with torch.no_grad():
            mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
            logits = agent.policy(agent.features(torch.as_tensor(obs))).flatten(1)
            action = torch.where(mask, logits, torch.full_like(logits, MASKED_LOGIT)).argmax(1)
        obs, reward, terminated, truncated, info = envs.step(action.numpy())
        done = terminated | truncated
        wins += int((reward[done] > 0).sum())
        finished += int(done.sum())
    envs.close()
    return wins / finished


def train(args: Args) -> dict:
    """Train, log, checkpoint and evaluate; returns the final result (also final.json)."""
    run_dir = Path(args.runs_dir) / args.exp_name
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    writer = SummaryWriter(str(run_dir))
    writer.add_text("args", json.dumps(dataclasses.asdict(args), indent=1))
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)

    envs = make_envs(args, args.num_envs)
    planes, height, width = envs.single_observation_space.shape
    cells = height * width
    agent = Agent(planes, args.channels)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    iterations = max(1, args.total_timesteps // batch_size)
    obs_buf = torch.zeros((args.num_steps, args.num_envs, planes, height, width))
    mask_buf = torch.zeros((args.num_steps, args.num_envs, cells), dtype=torch.bool)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    obs, info = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs)
    next_mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
    next_done = torch.zeros(args.num_envs)
    global_step, next_checkpoint, start = 0, args.checkpoint_every, time.time()
    cpu_start = time.process_time()  # this process's CPU: a speed per core, even on a busy machine
    wins = games = 0
    losses: dict[str, float] = {}
    for iteration in range(1, iterations + 1):
        lr = args.learning_rate * (1.0 - (iteration - 1.0) / iterations)
        optimizer.param_groups[0]["lr"] = lr
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs_buf[step], mask_buf[step], dones[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            actions[step], logprobs[step], values[step] = action, logprob, value
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            done = terminated | truncated
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)
            next_mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
            next_done = torch.as_tensor(done, dtype=torch.float32)
            wins += int((reward[done] > 0).sum())
            games += int(done.sum())

        # Generalised advantage estimation (a finished game's next value is 0).
        with torch.no_grad():
            next_value = agent.get_value(next_obs)
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                not_done = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * not_done - values[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + values

        b_obs = obs_buf.reshape((-1, planes, height, width))
        b_mask, b_actions = mask_buf.reshape((-1, cells)), actions.reshape(-1)
        b_logprobs, b_adv = logprobs.reshape(-1), advantages.reshape(-1)
        b_returns, b_values = returns.reshape(-1), values.reshape(-1)
        clipfracs = []
        stop_update = False
        for _ in range(args.update_epochs):
            if stop_update:
                break
            order = torch.randperm(batch_size)
            for begin in range(0, batch_size, minibatch_size):
                mb = order[begin : begin + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_mask[mb], b_actions[mb]
                )
                log_ratio = newlogprob - b_logprobs[mb]
                ratio = log_ratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - log_ratio).mean().item()
                if args.target_kl > 0 and approx_kl > 1.5 * args.target_kl:
                    stop_update = True  # this minibatch is not applied, as in SB3
                    break
                clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
                adv = b_adv[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                entropy_loss = entropy.mean()
                loss = pg_loss - args.ent_coef * entropy_loss + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        variance = b_returns.var()
        explained = (
            math.nan if variance == 0 else float(1 - (b_returns - b_values).var() / variance)
        )
        losses = {
            "loss": loss.item(),
            "policy_loss": pg_loss.item(),
            "value_loss": v_loss.item(),
            "entropy": entropy_loss.item(),
        }
        for name, value in losses.items():
            writer.add_scalar(f"losses/{name}", value, global_step)
        writer.add_scalar("losses/clipfrac", float(np.mean(clipfracs)), global_step)
        writer.add_scalar("losses/explained_variance", explained, global_step)
        writer.add_scalar("charts/learning_rate", lr, global_step)
        writer.add_scalar("charts/win_rate", wins / max(games, 1), global_step)
        writer.add_scalar("charts/SPS", global_step / (time.time() - start), global_step)
        print(f"step {global_step}: win rate {wins / max(games, 1):.3f} over {games} games")
        wins = games = 0
        if global_step >= next_checkpoint or iteration == iterations:
            torch.save(agent.state_dict(), run_dir / "checkpoints" / f"step_{global_step}.pt")
            next_checkpoint += args.checkpoint_every

    envs.close()
    win_rate = evaluate(agent, args, args.eval_games, seed=args.seed + 1_000_000)
    writer.add_scalar("eval/win_rate", win_rate, global_step)
    writer.close()
    result = {
        "global_step": global_step,
        "eval_games": args.eval_games,
        "eval_win_rate": win_rate,
        "steps_per_second": global_step / (time.time() - start),
        "steps_per_cpu_second": global_step / (time.process_time() - cpu_start),
        **losses,
    }
    (run_dir / "final.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    train(parse_args())
