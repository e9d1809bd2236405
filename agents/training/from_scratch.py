"""Learning curves of MaskablePPO from scratch: no imitation, no prior, no teacher.

One run per (board, observation mode, seed), each a plain ``train_ppo`` run
(:func:`~.train_ppo.train`) with ``--teacher none --imitation-games 0
--prior-scale 0`` and random initial weights, for a fixed budget of env steps
(:data:`BUDGETS`). At every checkpoint the snapshot plays the same
``--eval-games`` seeded evaluation games through the harness (``eval.csv`` of
the run); random, greedy and search play those games once per board (the
horizontal lines). Everything is gathered into ``curves.csv`` (one row per run
and checkpoint) and ``baselines.csv`` under ``--runs-dir``, with ``speeds.csv`` (each run's wall
time, CPU time and env steps per CPU second, from its ``timing.json``); plot them with
``python -m semiautomines_agents.training.from_scratch_plot``.

Resumable: a run that was stopped (Ctrl-C, SIGTERM, a kill) continues from its
newest checkpoint when the command is started again, and finished runs are
skipped. The checkpoints are stable-baselines3 zips this command wrote itself,
loaded as ``--resume --trust-model`` does.

    python -m semiautomines_agents.training.from_scratch --runs-dir runs/scratch

runs every board, mode and seed at the default budget (see ``docs/research.md``
for the wall time it takes).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import fcntl
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from minesweep_env.cli.stopping import sigterm_as_interrupt
from minesweep_env.fileio import atomic_write

from ..evaluation import Settings, board_target, evaluate
from .args import NO_TEACHER, Args
from .snapshots import TRUSTED_ZIP_SUFFIX, checkpoint_steps

BOARDS = ("beginner", "intermediate")
OBS_MODES = ("planes", "planes+probabilities")
SEEDS = (1, 2, 3)
BUDGETS = {"beginner": 300_000, "intermediate": 300_000}
"""Env steps (guesses) per run, by board: the curves' right end. One core trains about
290 env steps per CPU second on beginner and 107 on intermediate, either observation
mode, evaluations included (``speeds.csv`` of 20,000-step runs): about 17 and 47 CPU
minutes per run. Beginner's curve is flat from about 50,000 steps on, so the budget
buys the plateau, not the climb."""
EVAL_EVERY = 50_000
"""Env steps between checkpoints, each evaluated: 21 points per curve."""
EVAL_GAMES = 1000
"""Evaluation games per point (+-3 points at 95% at worst); the same games every time."""
EVAL_SEED = 10_000
"""Seed of the evaluation games, apart from the training seeds."""
BASELINES = ("random", "greedy", "search")
"""The horizontal lines: played once per board on the evaluation games."""
CURVE_KEYS = ("board", "obs_mode", "seed", "timesteps", "wall_s", "win_rate", "ci_low", "ci_high")
"""Columns of curves.csv."""


SPEED_KEYS = ("board", "obs_mode", "seed", "timesteps", "wall_s", "cpu_s", "steps_per_cpu_s")
"""Columns of speeds.csv: one row per run whose every training segment was timed."""
TIMING_NAME = "timing.json"
"""A run's training segments (one per command that trained it), each timed."""

LOCK_NAME = ".training.lock"
"""The file in a run's folder that the command training it holds locked."""


def run_name(board: str, obs_mode: str, seed: int) -> str:
    return f"scratch_{board}_{obs_mode.replace('+', '_')}_s{seed}"


def scratch_args(
    board: str,
    obs_mode: str,
    seed: int,
    runs_dir: Path,
    budget: int | None = None,
    eval_every: int = EVAL_EVERY,
    eval_games: int = EVAL_GAMES,
    num_envs: int = 16,
) -> Args:
    """The training settings of one run: the shipped models' PPO settings, nothing
    learnt from anyone (no teacher, no imitation, no DAgger, no initial model, no prior)."""
    return Args(
        run_name=run_name(board, obs_mode, seed),
        runs_dir=str(runs_dir),
        seed=seed,
        progress_bar=False,
        board=board,
        obs_mode=obs_mode,
        num_envs=num_envs,
        vec_env="native",
        total_timesteps=budget or BUDGETS.get(board, max(BUDGETS.values())),
        teacher=NO_TEACHER,
        imitation_games=0,
        dagger_rounds=0,
        init_model="",
        prior_scale=0.0,
        eval_freq=eval_every,
        eval_games=eval_games,
        eval_seed=EVAL_SEED,
        eval_baselines=False,  # the lines are played once per board, not once per run
        checkpoint_freq=eval_every,
    )


def newest_checkpoint(run_dir: Path) -> Path | None:
    """The newest saved state of a run (a checkpoint, or what a stop saved), if any."""
    saved = list((run_dir / "checkpoints").glob(f"*{TRUSTED_ZIP_SUFFIX}"))
    saved += list(run_dir.glob(f"final{TRUSTED_ZIP_SUFFIX}"))
    return max(saved, key=lambda path: path.stat().st_mtime, default=None)


def evaluated_steps(run_dir: Path) -> int:
    """The most env steps a run has an evaluation for (0: none yet)."""
    return max((int(row["timesteps"]) for row in _eval_rows(run_dir)), default=0)


def _eval_rows(run_dir: Path) -> list[dict[str, str]]:
    path = run_dir / "eval.csv"
    if not path.is_file():
        return []
    with open(path, newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["phase"] == "ppo"]


@contextlib.contextmanager
def run_lock(run_dir: Path) -> Iterator[bool]:
    """Hold ``run_dir``'s lock while training it; yields whether this process got it.

    Two commands sharing a runs folder (one per board, say) could otherwise both take up
    the same run, and the one stopped last would write its ``final`` files over the
    other's. The lock is an OS file lock, so a killed command leaves none behind.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir / LOCK_NAME, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def train_one(args: Args) -> str:
    """Train one run to its budget, resuming it if it was stopped; what was done, in words."""
    run_dir = Path(args.runs_dir) / args.run_name
    with run_lock(run_dir) as ours:
        if not ours:
            return "skipped: another command is training it"
        return _train_locked(args, run_dir)


def _train_locked(args: Args, run_dir: Path) -> str:
    from .train_ppo import train  # torch and SB3: loaded only when a run trains

    if evaluated_steps(run_dir) >= args.total_timesteps:
        return "done already"
    checkpoint = newest_checkpoint(run_dir)
    if checkpoint is not None:
        args = replace(args, resume=str(checkpoint), trust_model=True)  # this command's own file
    steps_before = trained_steps(run_dir)
    begin, begin_cpu = time.perf_counter(), time.process_time()
    try:
        train(args, reraise_interrupt=True)
    finally:  # a stopped segment counts too: its steps are in the checkpoint it saved
        seconds = time.perf_counter() - begin
        record_segment(run_dir, steps_before, seconds, time.process_time() - begin_cpu)
    return f"trained in {seconds:.0f} s" + (
        f" (resumed from {checkpoint.name})" if checkpoint else ""
    )


def trained_steps(run_dir: Path) -> int:
    """Env steps the newest saved state of a run holds (0: none), read from its name."""
    checkpoint = newest_checkpoint(run_dir)
    if checkpoint is None:
        return 0
    steps = checkpoint_steps(checkpoint)
    return evaluated_steps(run_dir) if steps is None else steps  # final: its last evaluation


def record_segment(run_dir: Path, steps_before: int, wall_s: float, cpu_s: float) -> None:
    """Add one training segment to the run's ``timing.json``.

    CPU seconds are this process's own (torch runs one thread, the env steps in the
    same process), so env steps per CPU second is a per-core speed that holds even
    when other jobs share the machine, which wall time does not.
    """
    path = run_dir / TIMING_NAME
    segments = json.loads(path.read_text())["segments"] if path.is_file() else []
    segments.append(
        {
            "from_steps": steps_before,
            "to_steps": trained_steps(run_dir),
            "wall_s": round(wall_s, 1),
            "cpu_s": round(cpu_s, 1),
        }
    )
    with atomic_write(path) as handle:
        json.dump({"segments": segments}, handle, indent=1)


def run_speed(run_dir: Path) -> tuple[int, float, float] | None:
    """Steps, wall and CPU seconds of a run, when its segments cover it from step 0."""
    path = run_dir / TIMING_NAME
    if not path.is_file():
        return None
    segments = json.loads(path.read_text())["segments"]
    if not segments or segments[0]["from_steps"] != 0:
        return None  # trained in part before timing was kept: no honest total
    steps = max(segment["to_steps"] for segment in segments)
    wall = sum(segment["wall_s"] for segment in segments)
    return steps, wall, sum(segment["cpu_s"] for segment in segments)


def play_baselines(board: str, runs_dir: Path, eval_games: int, workers: int) -> None:
    """Random, greedy and search on the evaluation games of ``board``, once."""
    path = runs_dir / f"baselines_{board}.csv"
    if path.is_file():
        return
    settings = Settings(rule_set="complete", first_click="safe", seed=EVAL_SEED)
    run = evaluate(list(BASELINES), [board_target(board)], settings, eval_games, workers, False)
    with atomic_write(path, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["board", "agent", "games", "win_rate", "ci_low", "ci_high"])
        for row in run.rows:
            writer.writerow(
                [board, *(row[k] for k in ("agent", "games", "win_rate", "ci_low", "ci_high"))]
            )


def gather(runs_dir: Path) -> Path:
    """curves.csv (one row per run and checkpoint) and baselines.csv, from every run
    and board under ``runs_dir`` so far: several commands (one per board, say, to use
    more cores) may share the folder."""
    rows, speeds = [], []
    for run_dir in sorted(runs_dir.glob("scratch_*")):
        if not (run_dir / "args.json").is_file():
            continue
        args = json.loads((run_dir / "args.json").read_text())
        speed = run_speed(run_dir)
        if speed is not None and speed[2] > 0:
            steps, wall, cpu = speed
            run = [args["board"], args["obs_mode"], args["seed"], steps]
            speeds.append(run + [f"{wall:.1f}", f"{cpu:.1f}", f"{steps / cpu:.1f}"])
        points: dict[int, dict[str, str]] = {}
        for row in _eval_rows(run_dir):
            points[int(row["timesteps"])] = row  # a resumed run may evaluate a step twice
        for steps in sorted(points):
            row = points[steps]
            rows.append(
                [args["board"], args["obs_mode"], args["seed"], steps]
                + [row[key] for key in ("wall_s", "win_rate", "ci_low", "ci_high")]
            )
    curves = runs_dir / "curves.csv"
    with atomic_write(curves, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CURVE_KEYS)
        writer.writerows(rows)
    with atomic_write(runs_dir / "speeds.csv", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(SPEED_KEYS)
        writer.writerows(speeds)
    lines = []
    for path in sorted(runs_dir.glob("baselines_*.csv")):
        lines += path.read_text().splitlines()[1:]
    header = "board,agent,games,win_rate,ci_low,ci_high"
    with atomic_write(runs_dir / "baselines.csv") as handle:
        handle.write("\n".join([header, *lines]) + "\n")
    return curves


def _tuple(text: str, kind: type = str) -> tuple:
    return tuple(kind(item.strip()) for item in text.split(",") if item.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m semiautomines_agents.training.from_scratch",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--runs-dir", default="runs/scratch", help="where runs and curves go")
    parser.add_argument("--boards", default=",".join(BOARDS))
    parser.add_argument("--obs-modes", default=",".join(OBS_MODES))
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="env steps per run (default: 300,000 on both boards)",
    )
    parser.add_argument(
        "--eval-every", type=int, default=EVAL_EVERY, help="env steps between evaluated checkpoints"
    )
    parser.add_argument("--eval-games", type=int, default=EVAL_GAMES, help="games per evaluation")
    parser.add_argument("--num-envs", type=int, default=16, help="boards stepped at once per run")
    parser.add_argument("--workers", type=int, default=1, help="processes for the baselines' games")
    options = parser.parse_args(argv)
    try:
        boards, modes = _tuple(options.boards), _tuple(options.obs_modes)
        seeds = _tuple(options.seeds, int)
    except ValueError:
        print(f"{parser.prog}: error: --seeds: whole numbers, comma-separated", file=sys.stderr)
        return 2
    for mode in modes:
        if mode not in OBS_MODES:
            print(
                f"{parser.prog}: error: --obs-modes: {mode!r} is not one of {', '.join(OBS_MODES)}",
                file=sys.stderr,
            )
            return 2
    for name in ("budget", "eval_every", "eval_games", "num_envs", "workers"):
        if getattr(options, name) is not None and getattr(options, name) <= 0:
            print(
                f"{parser.prog}: error: --{name.replace('_', '-')} must be positive",
                file=sys.stderr,
            )
            return 2
    runs_dir = Path(options.runs_dir)
    runs_dir.mkdir(parents=True, exist_ok=True)
    plan = [(b, m, s) for b in boards for m in modes for s in seeds]
    try:
        with sigterm_as_interrupt():
            for board in boards:
                play_baselines(board, runs_dir, options.eval_games, options.workers)
            for number, (board, mode, seed) in enumerate(plan, start=1):
                args = scratch_args(
                    board,
                    mode,
                    seed,
                    runs_dir,
                    options.budget,
                    options.eval_every,
                    options.eval_games,
                    options.num_envs,
                )
                print(f"[{number}/{len(plan)}] {args.run_name}: ", end="", flush=True)
                print(train_one(args), flush=True)
                gather(runs_dir)
    except KeyboardInterrupt:
        gather(runs_dir)
        print("stopped: run the same command again to continue", file=sys.stderr)
        return 130
    print(f"curves: {gather(runs_dir)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
