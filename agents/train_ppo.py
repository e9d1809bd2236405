"""Train a MaskablePPO agent on SemiAutoMines-v0, top to bottom in one file.

In the CleanRL style: the :class:`Args` dataclass below lists every
hyper-parameter with its default and one line of help; then come the env
set-up, the model, the training loop (SB3's, with callbacks for checkpoints,
periodic evaluation and the learning curve) and the logging.

Run it as ``python -m agents.train_ppo --help`` or ``semiautomines train --help``.
Example (the shipped model's command is in ``agents/models/README.md``)::

    semiautomines train --board beginner --total-timesteps 200000 \\
        --save-model agents/models/ppo_beginner.zip

What a run leaves in ``runs/<run-name>/`` (git-ignored): TensorBoard logs
(``tensorboard --logdir runs``), ``checkpoints/`` (resume with ``--resume``),
``monitor/`` (one CSV per env: every training episode), ``eval.csv`` (periodic
deterministic evaluation through the project's harness, with ``evaluated/``,
the snapshots it played), ``learning_curve.png``, ``final.zip`` and ``args.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ENV_ID = "SemiAutoMines-v0"


def _arg(default: Any, help: str) -> Any:  # noqa: A002  (the argparse word)
    """A dataclass field whose one-line help becomes its ``--flag`` help."""
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    """Every setting of a training run; each becomes a ``--kebab-case`` flag."""

    # Run
    run_name: str = _arg("", "name of the run folder under --runs-dir (default: board, seed, time)")
    runs_dir: str = _arg("runs", "where TensorBoard logs, checkpoints and curves go")
    seed: int = _arg(1, "seed of the envs, the network's initial weights and the sampling")
    torch_threads: int = _arg(1, "torch CPU threads (1 is fastest for this small net and batch)")
    progress_bar: bool = _arg(True, "show a tqdm progress bar")
    # Env
    board: str = _arg("beginner", "beginner, intermediate, expert, or WxHxM such as 8x8x10")
    rule_set: str = _arg("complete", "the auto-solver's rule set (complete: every move is a guess)")
    first_click: str = _arg("safe", "first-click policy of the env")
    obs_mode: str = _arg(
        "planes+probabilities", "planes, or planes+probabilities (adds exact mine probabilities)"
    )
    reward: str = _arg("", "env reward scheme ('' = the env's default, +1 win / -1 loss)")
    num_envs: int = _arg(8, "parallel envs collecting experience")
    vec_env: str = _arg(
        "dummy", "dummy (one process; fastest on an idle 2-core machine) or subproc (one per env)"
    )
    # PPO
    total_timesteps: int = _arg(200_000, "env steps (guesses) to train for, in total over resumes")
    learning_rate: float = _arg(1e-4, "Adam step size")
    anneal_lr: bool = _arg(True, "decay the learning rate linearly to 0 over the run")
    n_steps: int = _arg(128, "steps per env per rollout (rollout = n_steps * num_envs)")
    batch_size: int = _arg(256, "minibatch size of the PPO update")
    n_epochs: int = _arg(4, "passes over each rollout")
    gamma: float = _arg(1.0, "discount (episodes are a few guesses; 1 = maximise the win rate)")
    gae_lambda: float = _arg(0.95, "GAE lambda")
    clip_range: float = _arg(0.2, "PPO policy clip")
    ent_coef: float = _arg(0.001, "entropy bonus")
    vf_coef: float = _arg(0.5, "value loss weight")
    max_grad_norm: float = _arg(0.5, "gradient clipping")
    target_kl: float = _arg(0.03, "stop an update's epochs early past this KL (0 = never)")
    # Network (agents/policies.py)
    channels: int = _arg(32, "width of every convolution")
    blocks: int = _arg(3, "residual blocks (receptive field 3 + 4 * blocks cells)")
    value_hidden: int = _arg(64, "hidden units of the value head")
    prior_scale: float = _arg(20.0, "initial k of the prior logit -k * p(mine)")
    # Imitation warm start (before PPO)
    imitation_games: int = _arg(
        0, "first fit the policy to greedy's moves in this many games (0 = off; shipped: 20000)"
    )
    imitation_epochs: int = _arg(10, "passes over the imitation data")
    imitation_lr: float = _arg(1e-3, "Adam step size of the imitation phase")
    # Evaluation, checkpoints, output
    eval_freq: int = _arg(20_000, "evaluate every this many env steps (0 = never)")
    eval_games: int = _arg(500, "games per periodic evaluation (same seeded layouts each time)")
    eval_seed: int = _arg(10_000, "seed of the evaluation games (apart from training seeds)")
    eval_baselines: bool = _arg(True, "also play random and greedy once on those games (curve)")
    checkpoint_freq: int = _arg(20_000, "save a checkpoint every this many env steps (0 = never)")
    resume: str = _arg("", "checkpoint .zip to continue from (its weights and step count)")
    save_model: str = _arg("", "also save the final model here (e.g. agents/models/x.zip)")
    force: bool = _arg(False, "allow --save-model to overwrite an existing file")


# ---------------------------------------------------------------- arguments
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per :class:`Args` field; booleans get ``--x/--no-x``."""
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{f.metadata['help']} (default: {f.default!r})"
        if f.type in (bool, "bool"):
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=f.default, help=help_text
            )
        else:
            kind = {"int": int, "float": float, "str": str}[str(f.type)]
            parser.add_argument(flag, type=kind, default=f.default, help=help_text)


def args_from_namespace(namespace: argparse.Namespace) -> Args:
    return Args(**{f.name: getattr(namespace, f.name) for f in dataclasses.fields(Args)})


def validate(args: Args) -> None:
    """Reject settings that cannot work, with one line each (ValueError)."""
    positive = ("num_envs", "total_timesteps", "n_steps", "batch_size", "n_epochs", "eval_games")
    for name in positive:
        if getattr(args, name) <= 0:
            raise ValueError(
                f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}"
            )
    if args.vec_env not in ("dummy", "subproc"):
        raise ValueError(f"--vec-env must be dummy or subproc, got {args.vec_env!r}")
    if args.obs_mode == "grid":
        raise ValueError("--obs-mode grid has no channel axis; the conv policy needs planes")
    if args.resume and not Path(args.resume).is_file():
        raise ValueError(f"--resume: no checkpoint at {args.resume}")
    if args.save_model and Path(args.save_model).exists() and not args.force:
        raise ValueError(f"--save-model: {args.save_model} exists (use --force to replace it)")
    kwargs = env_kwargs(args)  # raises on a bad board
    import gymnasium as gym

    import minesweep_env  # noqa: F401  (registers the env)

    try:  # the env itself judges rule set, first click, obs mode and reward names
        gym.make(ENV_ID, disable_env_checker=True, **kwargs).close()
    except (ValueError, KeyError) as error:
        raise ValueError(f"bad env settings: {error}") from None


def board_kwargs(board: str) -> dict[str, Any]:
    """``--board`` as env keyword arguments: a standard name or ``WxHxM``."""
    from minesweep_env import STANDARD_BOARDS

    if board in STANDARD_BOARDS:
        return {"board": board}
    try:
        width, height, mines = (int(part) for part in board.lower().split("x"))
    except ValueError:
        known = ", ".join(STANDARD_BOARDS)
        raise ValueError(f"--board must be one of {known} or WxHxM, got {board!r}") from None
    if width < 1 or height < 1 or not 0 <= mines < width * height:
        raise ValueError(
            f"--board {board}: need width and height >= 1 and 0 <= mines < width * height"
        )
    return {"width": width, "height": height, "mines": mines}


# ---------------------------------------------------------------- env set-up
def env_kwargs(args: Args) -> dict[str, Any]:
    """Keyword arguments of ``gymnasium.make`` for this run's env."""
    kwargs = {
        **board_kwargs(args.board),
        "rule_set": args.rule_set,
        "first_click": args.first_click,
        "obs_mode": args.obs_mode,
        "info_probability": False,  # the per-step p(chosen cell) is not used here; skip its cost
    }
    if args.reward:
        kwargs["reward"] = args.reward
    return kwargs


def _make_env(kwargs: dict[str, Any], monitor_file: str | None, append: bool = False):
    """A picklable env factory for the vectorised envs (``append``: a resumed run
    adds to its monitor CSVs instead of starting them again)."""

    def thunk():
        import gymnasium as gym
        from stable_baselines3.common.monitor import Monitor

        import minesweep_env  # noqa: F401  (registers the env)

        # "state" in the monitor CSVs: the learning curve counts wins under any reward.
        return Monitor(
            gym.make(ENV_ID, **kwargs),
            monitor_file,
            info_keywords=("state",),
            override_existing=not append,
        )

    return thunk


def make_vec_env(args: Args, monitor_dir: Path | None):
    """``num_envs`` Monitor-wrapped envs, seeded ``seed, seed + 1, ...``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    kwargs = env_kwargs(args)
    thunks = [
        _make_env(kwargs, str(monitor_dir / str(i)) if monitor_dir else None, bool(args.resume))
        for i in range(args.num_envs)
    ]
    vec = SubprocVecEnv(thunks) if args.vec_env == "subproc" else DummyVecEnv(thunks)
    vec.seed(args.seed)
    return vec


# ---------------------------------------------------------------- model
def make_model(args: Args, env, tensorboard_log: str | None):
    """A fresh MaskablePPO with the per-cell convolutional policy, or the resumed one."""
    from sb3_contrib import MaskablePPO

    from agents.policies import CellPolicy

    if args.resume:
        return MaskablePPO.load(args.resume, env=env, device="cpu", tensorboard_log=tensorboard_log)

    def learning_rate(progress_remaining: float) -> float:
        return args.learning_rate * (progress_remaining if args.anneal_lr else 1.0)

    return MaskablePPO(
        CellPolicy,
        env,
        learning_rate=learning_rate,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        target_kl=args.target_kl or None,
        policy_kwargs={
            "features_extractor_kwargs": {"channels": args.channels, "blocks": args.blocks},
            "value_hidden": args.value_hidden,
            "prior_scale": args.prior_scale,
        },
        tensorboard_log=tensorboard_log,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )


# ---------------------------------------------------------------- imitation warm start
def collect_greedy_games(args: Args) -> dict[str, np.ndarray]:
    """Observations, masks and moves of the greedy baseline, and each game's outcome.

    Games come from one seeded stream (``reset(seed=seed + 1_000_000)``, then
    plain resets), apart from the evaluation seeds.
    """
    import gymnasium as gym
    from tqdm import tqdm

    import minesweep_env  # noqa: F401
    from agents.greedy import GreedyAgent

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


def imitate_greedy(model, args: Args, run_dir: Path) -> None:
    """Behaviour cloning: fit the actor to greedy's moves and the critic to its outcomes.

    Why: PPO on ~2 decisions per game learns slowly from a win/loss signal;
    starting from the baseline's play (lowest probability, its tie-break and
    its corner opening) leaves PPO the part where it can do better. Logs the
    share of moves the policy matches per epoch to ``imitation.csv`` and to
    TensorBoard (``imitation/accuracy``).
    """
    import torch as th
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    data = collect_greedy_games(args)
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = th.optim.Adam(policy.parameters(), lr=args.imitation_lr)
    rng = np.random.default_rng(args.seed)
    count = len(data["actions"])
    writer = SummaryWriter(str(run_dir / "tb" / "imitation"))
    log_path = run_dir / "imitation.csv"
    log_path.write_text("epoch,moves,accuracy,loss\n")
    for epoch in tqdm(
        range(args.imitation_epochs), desc="imitation", unit="epoch", disable=not args.progress_bar
    ):
        matched = total_loss = 0.0
        for batch in np.array_split(rng.permutation(count), max(1, count // args.batch_size)):
            obs = th.as_tensor(data["observations"][batch])
            actions = th.as_tensor(data["actions"][batch])
            distribution = policy.get_distribution(obs, data["masks"][batch])
            values = policy.predict_values(obs).flatten()
            loss = -distribution.log_prob(
                actions
            ).mean() + args.vf_coef * th.nn.functional.mse_loss(
                values, th.as_tensor(data["outcomes"][batch])
            )
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
            optimizer.step()
            matched += (distribution.mode() == actions).sum().item()
            total_loss += loss.item() * len(batch)
        writer.add_scalar("imitation/accuracy", matched / count, epoch)
        writer.add_scalar("imitation/loss", total_loss / count, epoch)
        with log_path.open("a") as log:
            log.write(f"{epoch},{count},{matched / count:.4f},{total_loss / count:.4f}\n")
    writer.close()
    policy.set_training_mode(False)


# ---------------------------------------------------------------- evaluation
def evaluate_baselines(args: Args, run_dir: Path) -> None:
    """Random and greedy on the evaluation games, once, to ``eval_baselines.csv``:
    the reference lines of the learning curve (same layouts as every PPO point)."""
    from agents.evaluation.harness import evaluate
    from agents.evaluation.play import Settings
    from agents.evaluation.targets import board_target

    settings = Settings(rule_set=args.rule_set, first_click=args.first_click, seed=args.eval_seed)
    run = evaluate(
        ["random", "greedy"],
        [board_target(args.board)],
        settings,
        args.eval_games,
        progress=False,
    )
    with (run_dir / "eval_baselines.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["agent", "games", "win_rate", "ci_low", "ci_high"])
        for row in run.rows:
            writer.writerow([row[k] for k in ("agent", "games", "win_rate", "ci_low", "ci_high")])


def save_with_sidecar(model, path: Path, args: Args) -> None:
    """Save ``model`` and, beside it, ``<name>.json``: how to rebuild its env.

    The ``ppo`` agent reads ``env_kwargs.obs_mode`` there to give the model the
    observation it was trained on.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    meta = {
        "env_id": ENV_ID,
        "env_kwargs": env_kwargs(args),
        "timesteps": int(model.num_timesteps),
        "args": dataclasses.asdict(args),
    }
    path.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")


def evaluate_snapshot(model, args: Args, run_dir: Path) -> dict[str, float]:
    """Deterministic play of ``eval_games`` games through the project's harness.

    The model is saved to ``evaluated/ppo_<steps>_steps.zip`` and evaluated as
    the ``ppo`` agent, exactly as ``semiautomines evaluate --agents ppo --model
    PATH --seed EVAL_SEED`` would: the same seeded layouts on every call, so
    the points of the curve are paired comparisons.
    """
    from agents.evaluation.harness import evaluate
    from agents.evaluation.play import Settings
    from agents.evaluation.targets import board_target

    snapshot = run_dir / "evaluated" / f"ppo_{model.num_timesteps}_steps.zip"
    save_with_sidecar(model, snapshot, args)
    settings = Settings(
        rule_set=args.rule_set,
        first_click=args.first_click,
        seed=args.eval_seed,
        model=str(snapshot),
    )
    run = evaluate(["ppo"], [board_target(args.board)], settings, args.eval_games, progress=False)
    if run.error or not run.rows:
        raise RuntimeError(f"evaluation of {snapshot} failed: {run.error}")
    row = run.rows[0]
    keys = ("win_rate", "ci_low", "ci_high", "mean_guesses", "mean_safe_opened", "invalid_actions")
    return {key: row[key] for key in keys}


def make_callbacks(args: Args, run_dir: Path):
    """Checkpoints, periodic evaluation (to TensorBoard and eval.csv), progress bar."""
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

    class PeriodicEvaluation(BaseCallback):
        """Every ``eval_freq`` env steps: deterministic win rate on fixed seeded games."""

        def __init__(self) -> None:
            super().__init__()
            self.next_eval = 0
            self.last_eval = -1
            self.path = run_dir / "eval.csv"

        def _on_training_start(self) -> None:
            self.next_eval = self.num_timesteps  # also evaluate the starting point
            self._evaluate_if_due()

        def _on_step(self) -> bool:
            self._evaluate_if_due()
            return True

        def _on_training_end(self) -> None:
            self.next_eval = self.num_timesteps
            self._evaluate_if_due()

        def _evaluate_if_due(self) -> None:
            if not args.eval_freq or self.num_timesteps < self.next_eval:
                return
            if self.num_timesteps == self.last_eval:
                return
            self.last_eval = self.num_timesteps
            self.next_eval = self.num_timesteps + args.eval_freq
            result = evaluate_snapshot(self.model, args, run_dir)
            for key, value in result.items():
                self.logger.record(f"eval/{key}", value)
            self.logger.dump(self.num_timesteps)
            new = not self.path.exists()
            with self.path.open("a", newline="") as handle:
                writer = csv.writer(handle)
                if new:
                    writer.writerow(["timesteps", "wall_s", *result])
                writer.writerow(
                    [self.num_timesteps, round(time.time() - started, 1), *result.values()]
                )

    class ProbeStats(BaseCallback):
        """Log the learnt prior scale k: how strongly the policy follows p(mine)."""

        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:
            heads = self.model.policy.mlp_extractor
            self.logger.record("policy/prior_scale", float(heads.prior_scale.detach()))

    class ProgressBar(BaseCallback):
        """A tqdm bar over env steps (SB3's own bar needs the extra ``rich`` package)."""

        def _on_training_start(self) -> None:
            from tqdm import tqdm

            self.bar = tqdm(
                total=args.total_timesteps,
                initial=self.num_timesteps,
                unit="step",
                desc="training",
                smoothing=0.05,
            )

        def _on_step(self) -> bool:
            self.bar.update(self.num_timesteps - self.bar.n)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    started = time.time()
    callbacks: list[BaseCallback] = [PeriodicEvaluation(), ProbeStats()]
    if args.progress_bar:
        callbacks.append(ProgressBar())
    if args.checkpoint_freq:
        callbacks.append(
            CheckpointCallback(
                save_freq=max(1, args.checkpoint_freq // args.num_envs),
                save_path=str(run_dir / "checkpoints"),
                name_prefix="ppo",
            )
        )
    return callbacks


# ---------------------------------------------------------------- learning curve
def plot_learning_curve(run_dir: Path, out: Path, title: str) -> None:
    """Training win rate (rolling, from the monitor CSVs) and the periodic evaluations."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    episodes = []
    for path in sorted((run_dir / "monitor").glob("*.monitor.csv")):
        with path.open() as handle:
            handle.readline()  # the JSON header line
            for row in csv.DictReader(handle):
                episodes.append((float(row["t"]), row["state"], int(row["l"])))
    fig, ax = plt.subplots(figsize=(7, 4))
    if episodes:
        episodes.sort()
        steps = np.cumsum([length for _, _, length in episodes])
        won = np.array([state == "won" for _, state, _ in episodes], dtype=float)
        window = max(1, min(2000, len(won) // 20))
        rolling = np.convolve(won, np.ones(window) / window, mode="valid")
        ax.plot(
            steps[window - 1 :],
            rolling,
            lw=1,
            alpha=0.7,
            label=f"training (sampled actions, mean of {window} games)",
        )
    eval_path = run_dir / "eval.csv"
    if eval_path.exists():
        with eval_path.open() as handle:
            rows = list(csv.DictReader(handle))
        steps = [int(r["timesteps"]) for r in rows]
        if rows and "ci_low" in rows[0]:
            ax.fill_between(
                steps,
                [float(r["ci_low"]) for r in rows],
                [float(r["ci_high"]) for r in rows],
                alpha=0.2,
                color="C1",
                label="95% Wilson interval",
            )
        ax.plot(
            steps,
            [float(r["win_rate"]) for r in rows],
            "o-",
            color="C1",
            label="evaluation (deterministic, same games each time)",
        )
    baselines_path = run_dir / "eval_baselines.csv"
    if baselines_path.exists():
        with baselines_path.open() as handle:
            for k, row in enumerate(csv.DictReader(handle)):
                ax.axhline(
                    float(row["win_rate"]),
                    ls="--",
                    lw=1,
                    color=f"C{k + 2}",
                    label=f"{row['agent']} on the evaluation games ({float(row['win_rate']):.1%})",
                )
    ax.set_xlabel("env steps (guesses)")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


# ---------------------------------------------------------------- main
def train(args: Args) -> Path:
    """Run the training described by ``args``; returns the run folder."""
    import torch

    validate(args)
    torch.set_num_threads(args.torch_threads)
    name = args.run_name or f"{args.board}_s{args.seed}_{time.strftime('%Y%m%d-%H%M%S')}"
    run_dir = Path(args.runs_dir) / name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "monitor").mkdir(exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2) + "\n")

    env = make_vec_env(args, run_dir / "monitor")
    model = make_model(args, env, str(run_dir / "tb"))
    if args.imitation_games and not args.resume:
        imitate_greedy(model, args, run_dir)
    if args.eval_freq and args.eval_baselines and not (run_dir / "eval_baselines.csv").exists():
        evaluate_baselines(args, run_dir)
    callbacks = make_callbacks(args, run_dir)
    remaining = max(0, args.total_timesteps - model.num_timesteps)
    try:
        model.learn(
            total_timesteps=remaining,
            callback=callbacks,
            tb_log_name="ppo",
            reset_num_timesteps=not args.resume,
        )
    except KeyboardInterrupt:  # stopping early is normal: keep what was learnt
        print(f"interrupted at {model.num_timesteps} steps; saving", file=sys.stderr)
    finally:
        model.save(run_dir / "final.zip")
        with contextlib.suppress(BrokenPipeError, EOFError):  # envs already stopped by Ctrl-C
            env.close()
        plot_learning_curve(run_dir, run_dir / "learning_curve.png", f"MaskablePPO, {args.board}")
    if args.save_model:
        out = Path(args.save_model)
        save_with_sidecar(model, out, args)
        shutil.copyfile(run_dir / "learning_curve.png", out.with_name(out.stem + "_curve.png"))
    return run_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="train_ppo",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    add_arguments(parser)
    args = args_from_namespace(parser.parse_args(argv))
    try:
        validate(args)
    except ValueError as error:
        print(f"train_ppo: error: {error}", file=sys.stderr)
        return 2
    run_dir = train(args)
    print(f"run folder: {run_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
