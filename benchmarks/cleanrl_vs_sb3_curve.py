"""Does the single-file trainer learn what the SB3 path learns? Its curve beside theirs.

``examples/cleanrl_masked_ppo.py`` is the trainer people fork; the from-scratch
curves (``python -m semiautomines_agents.training.from_scratch``) are the
reference, trained through stable-baselines3. This trains the single file from
scratch on beginner (``planes``) for the same seeds and budget, with the SB3
path's PPO settings (learning rate, rollout, minibatch, epochs, entropy bonus),
then plays every checkpoint on the from-scratch curves' own evaluation games:
the same 1,000 seeded games (seed 10,000, rule set ``complete``, safe first
click), through the evaluation harness, greedy masked actions. The table puts
the two curves side by side, each as its seeds' mean and band (lowest to
highest), and says whether the single file's mean lies within the SB3 band.

    python -m semiautomines_agents.training.from_scratch --runs-dir runs/scratch \
        --boards beginner --obs-modes planes
    python benchmarks/cleanrl_vs_sb3_curve.py --runs-dir runs/scratch

Resumable: a seed whose run finished is not trained again, and checkpoints
already evaluated are read from ``cleanrl_eval.csv`` in the runs folder.
"""

from __future__ import annotations

import argparse
import csv
import functools
import importlib.util
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import numpy as np
import torch

from semiautomines_agents.evaluation import Settings, board_target, evaluate
from semiautomines_agents.third_party import PolicyAgent, register_agent, unregister_agent
from semiautomines_agents.training.from_scratch import EVAL_GAMES, EVAL_SEED

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "cleanrl_masked_ppo.py"
SB3_SETTINGS = [
    "--learning-rate", "1e-4",
    "--num-envs", "16",
    "--num-steps", "128",
    "--num-minibatches", "8",
    "--update-epochs", "4",
    "--ent-coef", "0.001",
    "--gamma", "1.0",
    "--gae-lambda", "0.95",
    "--clip-coef", "0.2",
    "--vf-coef", "1.0",
    "--target-kl", "0.03",
    "--max-grad-norm", "0.5",
    "--channels", "32",
]  # fmt: skip
"""The from-scratch runs' PPO settings (``from_scratch.scratch_args``), as the example's flags:
16 boards x 128 steps per rollout, minibatches of 256, 4 epochs. SB3's value loss is the
whole squared error and the example's half of it, so SB3's ``vf_coef`` 0.5 is 1.0 here;
SB3 stops an update at 1.5 x ``target_kl`` 0.03, and so does the example with the flag."""
EVAL_KEYS = ("run", "seed", "timesteps", "games", "win_rate")


def load_example() -> ModuleType:
    """The single-file trainer as a module (for its network class)."""
    spec = importlib.util.spec_from_file_location("cleanrl_masked_ppo", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def train_seed(runs_dir: Path, seed: int, budget: int, every: int) -> Path:
    """One run of the example, unless it has finished already; its folder."""
    name = f"cleanrl_beginner_planes_s{seed}"
    run_dir = runs_dir / name
    if (run_dir / "final.json").is_file():
        return run_dir
    command = [
        sys.executable, str(EXAMPLE), "--exp-name", name, "--runs-dir", str(runs_dir),
        "--seed", str(seed), "--board", "beginner", "--obs-mode", "planes",
        "--total-timesteps", str(budget), "--checkpoint-every", str(every),
        "--eval-games", "100", *SB3_SETTINGS,
    ]  # fmt: skip
    print(f"training {name}: {' '.join(command[1:])}", file=sys.stderr, flush=True)
    begin = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"  {time.perf_counter() - begin:.0f} s", file=sys.stderr, flush=True)
    return run_dir


def checkpoints(example: ModuleType, run_dir: Path, seed: int) -> dict[int, dict]:
    """Weights by env steps; step 0 is the seed's initial network, rebuilt as the
    example builds it (seeded, then constructed)."""
    found = {
        int(path.stem.removeprefix("step_")): torch.load(path, weights_only=True)
        for path in (run_dir / "checkpoints").glob("step_*.pt")
    }
    torch.manual_seed(seed)
    found[0] = example.Agent(planes_of("planes"), 32).state_dict()
    return dict(sorted(found.items()))


@functools.cache
def planes_of(obs_mode: str) -> int:
    """How many planes the beginner observation has, asked of the env itself."""
    import gymnasium as gym

    import minesweep_env  # noqa: F401  (registers the env)

    env = gym.make("SemiAutoMines-v0", board="beginner", obs_mode=obs_mode)
    planes = int(env.observation_space.shape[0])
    env.close()
    return planes


def win_rate(example: ModuleType, weights: dict) -> tuple[int, float]:
    """The network's greedy masked action on the from-scratch curves' evaluation games."""
    network = example.Agent(planes_of("planes"), 32)
    network.load_state_dict(weights)
    network.eval()

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            features = network.features(torch.as_tensor(observation)[None])
            logits = network.policy(features).flatten()
        logits[~torch.as_tensor(mask)] = example.MASKED_LOGIT
        return int(logits.argmax())

    name = "cleanrl-checkpoint"
    register_agent(name, lambda: PolicyAgent(policy, name, "planes", deterministic=True))
    try:
        settings = Settings(rule_set="complete", first_click="safe", seed=EVAL_SEED)
        run = evaluate([name], [board_target("beginner")], settings, EVAL_GAMES, 1, False)
    finally:
        unregister_agent(name)
    row = run.rows[0]
    return int(row["games"]), float(row["win_rate"])


def evaluated(path: Path) -> dict[tuple[int, int], float]:
    """(seed, steps) -> win rate, from earlier runs of this script."""
    if not path.is_file():
        return {}
    with open(path, newline="") as handle:
        return {
            (int(r["seed"]), int(r["timesteps"])): float(r["win_rate"])
            for r in csv.DictReader(handle)
        }


def sb3_curve(runs_dir: Path) -> dict[int, list[float]]:
    """Env steps -> the SB3 seeds' win rates (beginner, planes), from curves.csv."""
    curve: dict[int, list[float]] = defaultdict(list)
    if not (runs_dir / "curves.csv").is_file():
        return curve
    with open(runs_dir / "curves.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["board"] == "beginner" and row["obs_mode"] == "planes":
                curve[int(row["timesteps"])].append(float(row["win_rate"]))
    return curve


def table(ours: dict[int, list[float]], theirs: dict[int, list[float]], every: int) -> str:
    """Markdown: one row per checkpoint, the single file's steps matched to SB3's nearest."""
    lines = [
        "| env steps (SB3 / single file) | SB3 mean [band] | single file mean [band] "
        "| single file within SB3 band? |",
        "|---|---|---|---|",
    ]
    for steps in sorted(ours):
        nearest = min(theirs, key=lambda s: abs(s - steps), default=None)
        if nearest is None or abs(nearest - steps) > every // 2:
            continue
        a, b = theirs[nearest], ours[steps]
        within = min(a) <= float(np.mean(b)) <= max(a)
        lines.append(
            f"| {nearest:,} / {steps:,} | {100 * np.mean(a):.1f}% [{100 * min(a):.1f}-"
            f"{100 * max(a):.1f}] ({len(a)} seeds) | {100 * np.mean(b):.1f}% "
            f"[{100 * min(b):.1f}-{100 * max(b):.1f}] ({len(b)} seeds) | "
            f"{'yes' if within else 'no'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs-dir", default="runs/scratch", help="the from-scratch runs' folder")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--budget", type=int, default=300_000, help="env steps per run")
    parser.add_argument("--every", type=int, default=50_000, help="env steps between checkpoints")
    parser.add_argument("--out", help="also write the table here (markdown)")
    options = parser.parse_args(argv)
    runs_dir = Path(options.runs_dir)
    seeds = [int(s) for s in options.seeds.split(",")]
    example = load_example()
    cache = runs_dir / "cleanrl_eval.csv"
    known = evaluated(cache)
    if not cache.is_file():
        cache.write_text(",".join(EVAL_KEYS) + "\n")
    ours: dict[int, list[float]] = defaultdict(list)
    for seed in seeds:
        run_dir = train_seed(runs_dir, seed, options.budget, options.every)
        for steps, weights in checkpoints(example, run_dir, seed).items():
            if (seed, steps) not in known:
                games, rate = win_rate(example, weights)
                known[seed, steps] = rate
                with open(cache, "a") as handle:
                    handle.write(f"{run_dir.name},{seed},{steps},{games},{rate}\n")
                print(f"  seed {seed}, {steps:,} steps: {100 * rate:.1f}%", file=sys.stderr)
            ours[steps].append(known[seed, steps])
    text = table(ours, sb3_curve(runs_dir), options.every)
    print(text)
    if options.out:
        Path(options.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
