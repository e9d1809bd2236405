"""Relabelling saved positions with another teacher (``training.relabel``), and sets of
positions saved under different candidate widths."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from tiny_policy import tiny_cell_policy  # noqa: E402

from semiautomines_agents.model_files import save_policy  # noqa: E402
from semiautomines_agents.search.agent import SearchAgent  # noqa: E402
from semiautomines_agents.training import positions, relabel  # noqa: E402
from semiautomines_agents.training.imitation import targets  # noqa: E402
from semiautomines_agents.training.positions import Chunk  # noqa: E402

BOARD = "6x6x6"
KWARGS = {"width": 6, "height": 6, "mines": 6, "obs_mode": "planes+probabilities"}


@pytest.fixture
def student(tmp_path) -> Path:
    """A small untrained network with a preference of its own, to play the games."""
    policy = tiny_cell_policy(6, seed=3, prior_scale=0.0)
    with th.no_grad():
        policy.mlp_extractor.actor.weight.normal_()
    path = tmp_path / "student.pt"
    save_policy(policy, path, obs_mode="planes+probabilities")
    return path


def chunk(student: Path, teacher: str) -> Chunk:
    return Chunk(
        env_kwargs={**KWARGS, "info_probability": False},
        teacher=teacher,
        student=str(student),
        seed=5,
        stage=1,
        first=0,
        count=15,
    )


def test_relabelling_gives_what_the_new_teacher_would_have_said_while_the_games_were_played(
    tmp_path, student
):
    old = positions.play_chunk(chunk(student, "greedy"))
    positions.save_chunk(tmp_path / "old" / "chunk_0.npz", old)
    source, target = str(tmp_path / "old"), str(tmp_path / "new")
    relabel.main([source, target, "--seed", "5", "--stage", "1", "--board", BOARD])
    with np.load(tmp_path / "new" / "chunk_0.npz") as saved:
        new = {name: saved[name] for name in positions.FIELDS}
    # Labelled by search while the student played the same games: the same positions.
    direct = positions.play_chunk(chunk(student, "search"))
    for name in positions.FIELDS:
        np.testing.assert_array_equal(new[name], direct[name], err_msg=name)
    assert (new["labels"] != old["labels"]).any()  # the teachers differ somewhere
    assert (new["candidates"] >= 0).sum(axis=1).max() >= 2  # and search's scores came along


def test_relabelling_with_another_seed_than_the_games_were_played_with_is_refused(student):
    data = positions.play_chunk(chunk(student, "greedy"))
    with pytest.raises(ValueError, match="left the saved positions"):
        positions.relabel(data, dataclasses.replace(chunk(student, "search"), seed=6))


def test_the_kept_candidates_cover_every_cell_the_default_search_can_weigh():
    agent = SearchAgent()
    widest = agent.width + agent.offset
    assert positions.CANDIDATES >= widest > 9
    assert positions.CANDIDATES == 34  # the columns of positions saved so far


def test_positions_saved_with_fewer_candidate_columns_join_with_padding():
    def part(width: int, cells: list[int], scores: list[float]) -> dict[str, np.ndarray]:
        candidates = np.full((1, width), -1, dtype=np.int16)
        scored = np.full((1, width), np.nan, dtype=np.float32)
        candidates[0, : len(cells)], scored[0, : len(cells)] = cells, scores
        return {
            **{name: np.zeros((1, 2), np.float32) for name in positions.FIELDS},
            "masks": np.ones((1, 4), bool),
            "labels": np.array([cells[0]]),
            "candidates": candidates,
            "scores": scored,
        }

    narrow, wide = part(3, [1, 2], [0.5, 0.5]), part(5, [3, 0, 2], [0.9, 0.1, 0.8])
    joined = positions.concatenate([narrow, wide])
    assert joined["candidates"].shape == (2, 5)
    np.testing.assert_array_equal(joined["candidates"][0], [1, 2, -1, -1, -1])
    assert np.isnan(joined["scores"][0, 2:]).all()
    soft = targets(joined, np.arange(2), 4, temperature=0.01)
    np.testing.assert_allclose(soft[0], [0, 0.5, 0.5, 0], atol=1e-6)  # padding weighs nothing
    assert soft[1].argmax() == 3 and soft[1, 1] == 0
