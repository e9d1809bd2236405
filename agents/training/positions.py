"""Labelled positions for imitation: who plays, who labels, and where it is kept.

Behaviour cloning and DAgger differ only in who moves: in cloning the teacher
plays its own games; in a DAgger round the network (the student, a saved
weights-only snapshot played by the ``ppo`` agent) plays, and the teacher only
says what it would have done in every position the student reached. Each
position keeps both: ``labels`` (the teacher's move, the imitation target) and
``played`` (the move made). It also keeps what the targets of the fit may be
built from besides the one move: ``greedy`` (the greedy agent's move, so the
positions where the teacher deviates from greedy can weigh more) and, when the
teacher is the search agent and it weighed candidates, ``candidates`` with
their ``scores`` (so the target can spread over moves of equal or near-equal
worth instead of one of them).

Games are seeded one by one (:func:`game_seed`), so a stage can be cut into
chunks played in any order, in any number of processes, and a chunk played
once is never played again: every finished chunk is saved
(``<stage>/chunk_<k>.npz``, whole or not at all), so a run stopped with Ctrl-C
and resumed plays only the chunks that are missing.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from tqdm import tqdm

from minesweep_env.envs import ENV_ID  # importing minesweep_env registers the env
from minesweep_env.envs.observations import PROBABILITY_PLANE
from minesweep_env.fileio import atomic_write

from .. import make_agent
from ..base import Agent
from ..search import SearchAgent
from ..search.settings import OFFSET, WIDTH

CHUNK_GAMES = 50
"""Games per chunk: the unit of work of a process and of what Ctrl-C can lose."""

FIELDS = (
    "planes",
    "probabilities",
    "masks",
    "labels",
    "played",
    "greedy",
    "candidates",
    "scores",
    "outcomes",
    "games",
)
"""The arrays of a set of positions (see :func:`play_chunk`)."""

CANDIDATES = WIDTH + OFFSET + 2
"""Candidates kept per position: the default search agent's ``width`` cells, the best
off the frontier and those two steps from a number, and two columns more (34: the width of the
saved positions, whose last two columns once held candidates added for a shared
50/50). It was once 9: positions saved with 9 columns are padded when
joined with newer ones (:func:`concatenate`)."""


def game_seed(seed: int, stage: int, game: int) -> int:
    """The env seed of game ``game`` of stage ``stage`` of a run seeded ``seed``.

    Drawn from a ``SeedSequence``, so the games of every stage and run differ
    and none is a game of the evaluation (``semiautomines evaluate`` seeds).
    """
    return int(np.random.SeedSequence([seed, stage, game]).generate_state(1)[0])


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + count - 1`` of a stage, and who plays and labels them."""

    env_kwargs: dict[str, Any]
    teacher: str
    student: str | None
    """A weights-only model path (the network plays), or ``None`` (the teacher plays)."""
    seed: int
    stage: int
    first: int
    count: int


def play_chunk(chunk: Chunk) -> dict[str, np.ndarray]:
    """Play ``chunk``'s games; every position with the teacher's label.

    Returns ``planes`` (uint8, the one-hot planes), ``probabilities`` (float32,
    the mine-probability plane; empty in ``planes`` mode), ``masks``,
    ``labels`` (the teacher's move), ``played`` (the move made), ``greedy``
    (the greedy agent's move), ``candidates`` and ``scores`` (the search
    teacher's weighed cells and their scores, padded with -1 and NaN; all
    padding for any other teacher or move), ``outcomes`` (+1 won / -1 lost,
    per position, of the game it is in) and ``games`` (the game number of each
    position).
    """
    env = gym.make(ENV_ID, disable_env_checker=True, **chunk.env_kwargs)
    teacher = make_agent(chunk.teacher)
    greedy = make_agent("greedy")
    student = make_agent("ppo", model=chunk.student) if chunk.student else None
    rows: dict[str, list] = {name: [] for name in FIELDS}
    for game in range(chunk.first, chunk.first + chunk.count):
        obs, info = env.reset(seed=game_seed(chunk.seed, chunk.stage, game))
        teacher.reset()
        greedy.reset()
        if student is not None:
            student.reset()
        start, done = len(rows["labels"]), False
        while not done:
            mask = info["action_mask"]
            position = env.unwrapped.game
            label, candidates, scores = teacher_move(teacher, obs, mask, position)
            move = label if student is None else student.act(obs, mask, position)
            rows["greedy"].append(greedy.act(obs, mask, position))
            rows["candidates"].append(candidates)
            rows["scores"].append(scores)
            rows["planes"].append(np.asarray(obs[:PROBABILITY_PLANE], dtype=np.uint8))
            if obs.shape[0] > PROBABILITY_PLANE:
                rows["probabilities"].append(np.asarray(obs[PROBABILITY_PLANE], np.float32))
            rows["masks"].append(np.asarray(mask, dtype=bool))
            rows["labels"].append(label)
            rows["played"].append(move)
            obs, _, terminated, truncated, info = env.step(move)
            done = terminated or truncated
        count = len(rows["labels"]) - start
        rows["outcomes"] += [1.0 if info["state"] == "won" else -1.0] * count
        rows["games"] += [game] * count
    env.close()
    return _stack(rows)


def relabel(data: dict[str, np.ndarray], chunk: Chunk) -> dict[str, np.ndarray]:
    """``data`` (positions of ``chunk``'s games) with the labels of ``chunk.teacher``.

    Why: when the teacher gets stronger, the positions already played are worth
    labelling again; replaying each game's recorded moves (``played``) reaches the
    same positions without the player that made them. ``labels``, ``candidates``
    and ``scores`` are the new teacher's; everything else is kept.

    :raises ValueError: when a replayed position is not the one saved (another
        env, seed or stage than the one the positions were played with).
    """
    env = gym.make(ENV_ID, disable_env_checker=True, **chunk.env_kwargs)
    teacher = make_agent(chunk.teacher)
    labels, candidates, scores = [], [], []
    for game in np.unique(data["games"]):
        obs, info = env.reset(seed=game_seed(chunk.seed, chunk.stage, int(game)))
        teacher.reset()
        for row in np.flatnonzero(data["games"] == game):
            if not np.array_equal(obs[:PROBABILITY_PLANE], data["planes"][row]):
                raise ValueError(f"game {game}: the replay left the saved positions")
            label, weighed, scored = teacher_move(
                teacher, obs, info["action_mask"], env.unwrapped.game
            )
            labels.append(label)
            candidates.append(weighed)
            scores.append(scored)
            obs, _, _, _, info = env.step(int(data["played"][row]))
    env.close()
    return {
        **data,
        "labels": np.array(labels, dtype=np.int64),
        "candidates": np.stack(candidates),
        "scores": np.stack(scores),
    }


def teacher_move(teacher: Agent, obs, mask, game) -> tuple[int, np.ndarray, np.ndarray]:
    """The teacher's move in ``game``'s position, and the candidates it weighed with
    their scores (padded to :data:`CANDIDATES` with -1 and NaN).

    The search agent's move past the first click is its :meth:`~SearchAgent.advise`
    (what its ``act`` plays), which also says what it weighed; any other teacher
    only moves.
    """
    candidates = np.full(CANDIDATES, -1, dtype=np.int16)
    scores = np.full(CANDIDATES, np.nan, dtype=np.float32)
    minefield = game.minefield
    if not isinstance(teacher, SearchAgent) or minefield.probes == 0:
        return teacher.act(obs, mask, game), candidates, scores
    board = minefield.board()
    valid = np.asarray(mask, dtype=bool).reshape(-1)
    advice = teacher.advise(board, valid, game.rule_set.known_weights(board))
    for slot, assessment in enumerate(advice.candidates[:CANDIDATES]):
        candidates[slot] = assessment.cell
        scores[slot] = teacher.score(assessment)
    return advice.cell, candidates, scores


def _stack(rows: dict[str, list]) -> dict[str, np.ndarray]:
    dtypes = {
        "labels": np.int64,
        "played": np.int64,
        "greedy": np.int64,
        "outcomes": np.float32,
        "games": np.int64,
    }
    out = {}
    for name in FIELDS:
        if name in dtypes or not rows[name]:
            out[name] = np.array(rows[name], dtype=dtypes.get(name, np.float32))
        else:
            out[name] = np.stack(rows[name])
    return out


def concatenate(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One set of positions out of several (chunks, stages); candidate lists of
    different widths (saved under another :data:`CANDIDATES`) are padded to the widest."""
    parts = [part for part in parts if len(part["labels"])]
    if not parts:
        raise ValueError("no positions")
    width = max(part["candidates"].shape[1] for part in parts)
    parts = [_widen(part, width) for part in parts]
    return {name: np.concatenate([part[name] for part in parts]) for name in FIELDS}


def _widen(part: dict[str, np.ndarray], width: int) -> dict[str, np.ndarray]:
    """``part`` with its candidates and scores padded (-1, NaN) to ``width`` columns."""
    pad = width - part["candidates"].shape[1]
    if not pad:
        return part
    return {
        **part,
        "candidates": np.pad(part["candidates"], ((0, 0), (0, pad)), constant_values=-1),
        "scores": np.pad(part["scores"], ((0, 0), (0, pad)), constant_values=np.nan),
    }


def observations(data: dict[str, np.ndarray], index: np.ndarray) -> np.ndarray:
    """The env observations (float32) of positions ``index``, as the env gave them."""
    planes = data["planes"][index].astype(np.float32)
    if not len(data["probabilities"]):
        return planes
    return np.concatenate([planes, data["probabilities"][index][:, None]], axis=1)


def save_chunk(path: Path, data: dict[str, np.ndarray]) -> None:
    """Write ``data`` to ``path`` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as handle:
        np.savez(handle, **data)


def load_stage(folder: Path, games: int) -> dict[str, np.ndarray]:
    """The saved chunks of games ``0 .. games - 1`` of a stage, in game order (a
    resumed run asked for fewer games than the first start ignores the rest)."""
    parts = []
    for first in range(0, games, CHUNK_GAMES):
        with np.load(folder / f"chunk_{first}.npz") as saved:
            parts.append({name: saved[name] for name in FIELDS})
    return concatenate(parts)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which saves what is done and stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import torch

    torch.set_num_threads(1)


def _results(chunks: list[Chunk], workers: int) -> Iterator[tuple[Chunk, dict[str, np.ndarray]]]:
    # No pool when one worker will do, or when nothing is left to play (a stage whose
    # every chunk was played before a stop: a pool of 0 processes is an error).
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield chunk, play_chunk(chunk)
        return
    # spawn: a forked child of a process that has used torch's thread pool can hang.
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(workers, len(chunks)), initializer=_ignore_sigint) as pool:
        try:
            yield from zip(chunks, pool.imap(play_chunk, chunks), strict=True)
        finally:
            pool.terminate()


def collect_stage(
    folder: Path,
    games: int,
    chunk: Chunk,
    workers: int = 1,
    progress: bool = True,
) -> dict[str, np.ndarray]:
    """Play (or load) games ``0 .. games - 1`` of a stage; returns its positions.

    :param chunk: the template of every chunk (``first`` and ``count`` are set here).
    :param folder: where the chunks are kept; chunks found there are not played again.
    """
    todo = [
        dataclasses.replace(chunk, first=first, count=min(CHUNK_GAMES, games - first))
        for first in range(0, games, CHUNK_GAMES)
        if not (folder / f"chunk_{first}.npz").is_file()
    ]
    label = "teacher" if chunk.student is None else "student"
    with tqdm(
        total=games,
        initial=games - sum(c.count for c in todo),
        desc=f"{folder.name}: {label} games",
        unit="game",
        disable=not progress,
    ) as bar:
        for done, data in _results(todo, workers):
            save_chunk(folder / f"chunk_{done.first}.npz", data)
            bar.update(done.count)
    return load_stage(folder, games)
