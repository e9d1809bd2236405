"""The chain's learning curve: a sidecar's stage counts become a run's curve files and a PNG."""

from __future__ import annotations

import csv
import json

import pytest
from paths import REPO

from semiautomines_agents.evaluation.stats import wilson_interval
from semiautomines_agents.training.chain_curve import RECORD_KEY, main, write_curve_tables

MODELS = REPO / "agents" / "models"


def record(**changes):
    base = {
        "title": "expert: the chain",
        "points": [
            {"stage": "start", "steps": 0, "wins": 70, "games": 200},
            {"stage": "bc", "steps": 4000, "wins": 81, "games": 200},
            {"stage": "dagger", "steps": 6000, "wins": 84, "games": 200},
        ],
        "baselines": [
            {"agent": "greedy", "wins": 78, "games": 200},
            {"agent": "search", "wins": 88, "games": 200},
        ],
    }
    return base | changes


def read(path):
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_tables_carry_each_point_with_its_wilson_interval(tmp_path):
    write_curve_tables(record(), tmp_path)
    rows = read(tmp_path / "eval.csv")
    assert [(r["timesteps"], r["phase"]) for r in rows] == [
        ("0", "start"),
        ("4000", "bc"),
        ("6000", "dagger"),
    ]
    low, high = wilson_interval(81, 200)
    assert float(rows[1]["win_rate"]) == pytest.approx(0.405)
    assert (float(rows[1]["ci_low"]), float(rows[1]["ci_high"])) == pytest.approx((low, high))
    baselines = read(tmp_path / "eval_baselines.csv")
    assert [(b["agent"], float(b["win_rate"])) for b in baselines] == [
        ("greedy", pytest.approx(0.39)),
        ("search", pytest.approx(0.44)),
    ]


def point(stage, steps, wins, games):
    return {"stage": stage, "steps": steps, "wins": wins, "games": games}


@pytest.mark.parametrize(
    "points, message",
    [
        ([point("a", 5, 1, 9), point("b", 4, 1, 9)], "backwards"),
        ([point("a", 0, 1, 9), point("b", 4, 1, 8)], "8 games"),
        ([point("a", 0, 10, 9)], "wins"),
        ([], "no points"),
    ],
)
def test_a_record_that_is_not_one_curve_is_refused(tmp_path, points, message):
    with pytest.raises(ValueError, match=message):
        write_curve_tables(record(points=points), tmp_path)


def test_the_command_draws_a_png_from_a_sidecar_and_refuses_one_without_a_record(tmp_path):
    sidecar, out = tmp_path / "m.json", tmp_path / "curve.png"
    sidecar.write_text(json.dumps({"format": "x", RECORD_KEY: record()}))
    assert main([str(sidecar), str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    sidecar.write_text(json.dumps({"format": "x"}))
    assert main([str(sidecar), str(tmp_path / "none.png")]) == 2
    assert not (tmp_path / "none.png").exists()


def test_the_shipped_expert_model_keeps_its_chain_record(tmp_path):
    """The shipped curve is drawn from this record: one set of games, in training order,
    with greedy and search as the reference lines."""
    curve = json.loads((MODELS / "ppo_expert.json").read_text())[RECORD_KEY]
    write_curve_tables(curve, tmp_path)
    assert [b["agent"] for b in curve["baselines"]] == ["greedy", "search"]
    assert len(read(tmp_path / "eval.csv")) == len(curve["points"]) >= 4
