"""Imitation before PPO: behaviour cloning of a teacher, then DAgger rounds.

Why: PPO on ~4 decisions per expert game learns slowly from a win/loss
signal; starting from a strong player's moves leaves PPO the part where it can
do better. Cloning alone has a known flaw: the network only ever saw the
teacher's own positions, and its first mistakes lead it where it has no
examples. DAgger (Ross, Gordon and Bagnell, 2011) closes that gap: the network
plays, the teacher labels every position the network reached, the new
positions join the old ones, and the network is refitted on all of them.

The stages of a run are ``bc`` (the teacher plays ``--imitation-games``
games) and ``dagger1 .. daggerN`` (the network plays ``--dagger-games``
games each). ``imitation/state.json`` records the finished stages and the
positions they labelled (the imitation's "steps" on the learning curve); a
resumed run skips them, and a stage cut short resumes with the chunks already
played (:mod:`.positions`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from minesweep_env.fileio import append_text, write_text

from .args import Args, env_kwargs
from .positions import Chunk, collect_stage, concatenate, load_stage, observations
from .snapshots import save_with_sidecar

STATE = Path("imitation") / "state.json"
"""The record of finished stages, under the run folder."""

LOG_HEADER = "stage,epoch,moves,accuracy,loss\n"
"""``imitation.csv``: per stage and epoch, the share of the teacher's moves matched."""


def stage_names(args: Args) -> list[str]:
    """The imitation stages of a run, in order (none without ``--imitation-games``)."""
    if not args.imitation_games:
        return []
    return ["bc"] + [f"dagger{r}" for r in range(1, args.dagger_rounds + 1)]


def read_state(run_dir: Path) -> dict[str, Any]:
    """The finished stages (``completed``, ``stages``: per stage its figures) and the
    positions labelled so far (``positions``)."""
    path = run_dir / STATE
    if not path.is_file():
        return {"completed": [], "positions": 0, "stages": {}}
    return json.loads(path.read_text())


def imitation_steps(run_dir: Path) -> int:
    """Positions labelled by the finished stages: where PPO's steps start on the curve."""
    return int(read_state(run_dir)["positions"])


CONTEXT_LAYERS = re.compile(r"(pi_|vf_)?features_extractor\.(dilated|context)\..*")
"""Weight names of the trunk's optional context layers (see ``policies.BoardTrunk``;
SB3 keeps the shared trunk under two more names, the same tensors)."""


def load_initial_weights(model: MaskablePPO, path: str) -> None:
    """Copy a weights-only model's weights into ``model``.

    The networks must have the same shape, except that ``model`` may have
    context layers the file lacks: those keep their initial weights, with which
    they pass the features through unchanged, so ``model`` starts by playing
    exactly as the file does.

    :raises ValueError: when any other weight is missing or does not fit.
    """
    from ..model_files import load_policy

    policy, _ = load_policy(Path(path))
    missing, unexpected = model.policy.load_state_dict(policy.state_dict(), strict=False)
    stray = [key for key in missing if not CONTEXT_LAYERS.fullmatch(key)]
    if stray or unexpected:
        raise ValueError(
            f"--init-model {path}: its network does not fit this run's "
            f"(missing {stray[:3]}, unexpected {unexpected[:3]})"
        )


def imitate(
    model: MaskablePPO,
    args: Args,
    run_dir: Path,
    stage_done: Callable[[str, int], None],
) -> int:
    """Run the stages not finished yet; returns the positions labelled in all.

    :param stage_done: called with a stage's name and the positions labelled
        so far, after the stage is fitted and recorded (the caller saves a
        checkpoint and evaluates the snapshot there).
    """
    state = read_state(run_dir)
    for number, stage in enumerate(stage_names(args)):
        if stage in state["completed"]:
            continue
        folder = run_dir / "imitation" / stage
        student = None
        if stage != "bc":
            # The network that plays this round, frozen (and reused if the round resumes).
            student = folder / "student.pt"
            if not student.is_file():
                save_with_sidecar(model, student, args)
        chunk = Chunk(
            env_kwargs=env_kwargs(args),
            teacher=args.teacher,
            student=str(student) if student else None,
            seed=args.seed,
            stage=number,
            first=0,
            count=0,
        )
        games = args.imitation_games if stage == "bc" else args.dagger_games
        data = collect_stage(folder, games, chunk, args.workers, args.progress_bar)
        earlier = [
            load_stage(run_dir / "imitation" / name, state["stages"][name]["games"])
            for name in state["completed"]
        ]
        epochs = args.imitation_epochs if stage == "bc" else args.dagger_epochs
        fit(model, concatenate([*earlier, data]), epochs, args, run_dir, stage)
        state["completed"].append(stage)
        state["positions"] += len(data["labels"])
        state["stages"][stage] = describe(data, games)
        write_text(run_dir / STATE, json.dumps(state, indent=2) + "\n")
        stage_done(stage, state["positions"])
    return int(state["positions"])


def describe(data: dict[str, np.ndarray], games: int) -> dict[str, float]:
    """A stage's figures: games, positions, the share of positions where the move
    played was the teacher's (1 in cloning), and the win rate of those games."""
    first_of_game = np.unique(data["games"], return_index=True)[1]
    return {
        "games": games,
        "positions": len(data["labels"]),
        "agreement": round(float((data["played"] == data["labels"]).mean()), 4),
        "win_rate": round(float((data["outcomes"][first_of_game] > 0).mean()), 4),
    }


def targets(
    data: dict[str, np.ndarray], index: np.ndarray, cells: int, temperature: float
) -> np.ndarray:
    """The fit's target distribution over the cells of positions ``index`` (B, cells).

    The teacher's move (one-hot), or, with ``temperature > 0`` where the search
    teacher weighed candidates, a softmax over their scores divided by
    ``temperature`` (the other cells get nothing). Why: search's candidates
    often differ in its score by less than its own rounding of the look-ahead
    matters, and some tie exactly; a one-hot target punishes the network as
    much for the second best of two near-equal cells as for a risky cell, and
    says nothing about which cells are bad.
    """
    target = np.zeros((len(index), cells), dtype=np.float32)
    target[np.arange(len(index)), data["labels"][index]] = 1.0
    if temperature <= 0:
        return target
    for row, position in enumerate(index):
        weighed = data["candidates"][position] >= 0
        if weighed.sum() < 2:
            continue
        scores = data["scores"][position][weighed].astype(np.float64)
        spread = np.exp((scores - scores.max()) / temperature)
        target[row] = 0.0
        np.add.at(
            target[row],
            data["candidates"][position][weighed].astype(np.int64),
            spread / spread.sum(),
        )
    return target


def position_weights(data: dict[str, np.ndarray], index: np.ndarray, weight: float) -> np.ndarray:
    """Per position, ``weight`` where the teacher's move is not greedy's, else 1."""
    deviates = data["labels"][index] != data["greedy"][index]
    return np.where(deviates, weight, 1.0).astype(np.float32)


def parameter_groups(policy: th.nn.Module, args: Args) -> list[dict[str, Any]]:
    """The fit's Adam groups: the prior's scale at ``--prior-lr`` and the trunk's
    context layers at ``--context-lr`` (each when set), the rest at ``--imitation-lr``.

    Why: the scale ``k`` of the prior ``-k * p(mine)`` is one number of size ~20,
    while Adam moves every parameter by about its learning rate per step: at
    ``--imitation-lr`` a whole fit moves ``k`` by a fraction of a unit, so it
    stays where the model started although a larger ``k`` (fewer risky cells
    chosen) fits the teacher better. New context layers start at zero inside a
    network that already fits: at the rate that fine-tunes the rest, a short fit
    leaves them near zero.
    """
    prior = policy.mlp_extractor.prior_scale
    named = [(name, p) for name, p in policy.named_parameters() if p.requires_grad]
    groups: list[dict[str, Any]] = []
    if args.prior_lr and prior.requires_grad:  # a fixed k (--fixed-prior-scale) stays
        groups.append({"params": [prior], "lr": args.prior_lr})
        named = [(name, p) for name, p in named if p is not prior]
    if args.context_lr:
        context = [p for name, p in named if CONTEXT_LAYERS.fullmatch(name)]
        if context:
            groups.append({"params": context, "lr": args.context_lr})
            named = [(name, p) for name, p in named if not CONTEXT_LAYERS.fullmatch(name)]
    return [{"params": [p for _, p in named]}, *groups]


def fix_prior_scale(policy: th.nn.Module, scale: float) -> None:
    """Set the prior's scale ``k`` to ``scale`` and take it out of every fit.

    Why: ``k`` decides how much safer a cell must be before the network's own
    preference loses to it. The cross-entropy fit does not push it up (a larger
    ``k`` improves the top move, not the likelihood of the teacher's moves), yet
    a larger ``k`` plays better (``docs/experiments/ppo.md``). With
    ``k`` fixed there, the network's head is fitted under the prior it plays with.
    """
    prior = policy.mlp_extractor.prior_scale
    with th.no_grad():
        prior.fill_(scale)
    prior.requires_grad_(False)


MIRROR_CHOICES: tuple[tuple[int, ...], ...] = ((), (-1,), (-2,), (-2, -1))
"""``--mirror``: a batch is fitted as it is, or mirrored left-right, top-bottom or both."""


def mirrored(
    obs: th.Tensor, masks: th.Tensor, target: th.Tensor, labels: th.Tensor, axes: tuple[int, ...]
) -> tuple[th.Tensor, th.Tensor, th.Tensor, th.Tensor]:
    """A batch of positions (B, C, H, W) seen in a mirror that reverses ``axes`` of the
    board, with their masks, targets and labels (per cell, flattened) moved alike.

    Why: the game has no preferred direction, yet a network fitted to a teacher that
    breaks exact ties in board order learns direction-bound habits (``python -m
    semiautomines_agents.training.symmetry``); mirrored batches teach it that a
    mirrored position is the same position.
    """
    if not axes:
        return obs, masks, target, labels
    height, width = obs.shape[-2:]

    def per_cell(values: th.Tensor) -> th.Tensor:
        return values.reshape(-1, height, width).flip(axes).reshape(values.shape)

    rows, columns = labels // width, labels % width
    if -2 in axes:
        rows = height - 1 - rows
    if -1 in axes:
        columns = width - 1 - columns
    return obs.flip(axes), per_cell(masks), per_cell(target), rows * width + columns


def fit(
    model: MaskablePPO,
    data: dict[str, np.ndarray],
    epochs: int,
    args: Args,
    run_dir: Path,
    stage: str,
) -> None:
    """Fit the actor to the teacher's targets (cross-entropy, weighted per position:
    :func:`targets`, :func:`position_weights`) and the critic to the games'
    outcomes (mean squared error), ``epochs`` passes over ``data``.

    Logs the share of the teacher's moves matched per epoch to ``imitation.csv``
    and to TensorBoard (``imitation/accuracy``).
    """
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = th.optim.Adam(parameter_groups(policy, args), lr=args.imitation_lr)
    rng = np.random.default_rng([args.seed, len(stage), sum(map(ord, stage))])
    count = len(data["labels"])
    cells = data["masks"].shape[1]
    writer = SummaryWriter(str(run_dir / "tb" / f"imitation_{stage}"))
    log_path = run_dir / "imitation.csv"
    if not log_path.is_file():
        write_text(log_path, LOG_HEADER)
    for epoch in tqdm(
        range(epochs), desc=f"{stage}: fit", unit="epoch", disable=not args.progress_bar
    ):
        matched = total_loss = 0.0
        for batch in np.array_split(rng.permutation(count), max(1, count // args.batch_size)):
            obs = th.as_tensor(observations(data, batch))
            labels = th.as_tensor(data["labels"][batch])
            masks = th.as_tensor(data["masks"][batch])
            target = th.as_tensor(targets(data, batch, cells, args.soft_targets))
            if args.mirror:
                axes = MIRROR_CHOICES[int(rng.integers(len(MIRROR_CHOICES)))]
                obs, masks, target, labels = mirrored(obs, masks, target, labels, axes)
            log_p, values = policy.log_probabilities_and_values(obs, masks)
            # Masked cells have huge negative logits and no target: leave them out, not 0 * -inf.
            cross_entropy = -th.where(target > 0, target * log_p, th.zeros_like(log_p)).sum(1)
            weight = th.as_tensor(position_weights(data, batch, args.deviation_weight))
            outcomes = th.as_tensor(data["outcomes"][batch])
            policy_loss = (weight * cross_entropy).sum() / weight.sum()
            value_loss = th.nn.functional.mse_loss(values, outcomes)
            loss = policy_loss + args.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
            optimizer.step()
            matched += (log_p.argmax(dim=1) == labels).sum().item()
            total_loss += loss.item() * len(batch)
        writer.add_scalar("imitation/accuracy", matched / count, epoch)
        writer.add_scalar("imitation/loss", total_loss / count, epoch)
        append_text(
            log_path, f"{stage},{epoch},{count},{matched / count:.4f},{total_loss / count:.4f}\n"
        )
    writer.close()
    policy.set_training_mode(False)
