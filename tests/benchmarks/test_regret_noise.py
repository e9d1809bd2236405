"""The regret map's noise calibration: shuffles keep each layout's outcomes, the
verdicts follow the measured rule, and the null's share matches what truly level
candidates show (and falls short of a planted better cell)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

from regret.noise import (  # noqa: E402
    best_other_z,
    calibrate,
    clearly_better,
    judge,
    shuffled,
)
from regret.plot import plot_leads  # noqa: E402
from regret.report import SHUFFLES, noise_table, report  # noqa: E402


def decision(records: list[str], search: int = 0, phase: str = "early", **extra) -> dict:
    """A sampled results line with these candidates' outcome strings (cells 0, 1, ...)."""
    return {
        "game": extra.pop("game", 0),
        "phase": phase,
        "cell": search,
        "candidates": [{"cell": k, "outcomes": r} for k, r in enumerate(records)],
        **extra,
    }


def as_array(records: list[str]) -> np.ndarray:
    values = np.full((len(records), max(map(len, records))), np.nan)
    for k, record in enumerate(records):
        values[k, : len(record)] = [int(c) for c in record]
    return values


def test_a_shuffle_keeps_each_layout_s_outcomes_and_who_was_drawn():
    records = ["1100110011", "10101", "0110011001"]
    values = as_array(records)
    present = ~np.isnan(values)
    stack = shuffled(values, 50, np.random.default_rng(3))
    assert stack.shape == (50, 3, 10)
    assert (~np.isnan(stack) == present).all()  # an undrawn candidate stays undrawn
    for copy in stack:
        for column in range(10):
            drawn = present[:, column]
            assert sorted(copy[drawn, column]) == sorted(values[drawn, column])
    # the shuffles do move outcomes between candidates
    assert not all((np.nan_to_num(copy) == np.nan_to_num(values)).all() for copy in stack)


@pytest.mark.parametrize(
    ("records", "search", "expected"),
    [
        (["1111", "0000"], 0, 0),  # search's choice leads
        (["0101", "0101"], 1, 0),  # a tie goes to search's choice
        (["0101", "0101"], 0, 0),
        (["0" * 30, "1" * 30], 0, 1),  # ahead on every layout: a zero spread counts as none
        (["0" * 30, "1" * 25 + "0" * 5], 0, 2),  # far ahead with a spread: clearly better
        (["0110100110", "0111100110"], 0, 1),  # ahead by one layout of ten: within noise
        (["0" * 30, "1" * 20 + "0" * 10, "1" * 26 + "0" * 4], 0, 2),  # the best decides
    ],
)
def test_verdicts_follow_the_measured_rule(records, search, expected):
    assert judge(as_array(records)[None], search)[0][0] == expected


def test_the_plain_regret_is_the_best_candidate_s_paired_gain_or_nothing():
    stack = np.stack([as_array(["0101", "1111"]), as_array(["1111", "0101"])])
    found, regret = judge(stack, 0)
    assert found.tolist() == [1, 0] and regret.tolist() == [0.5, 0.0]


def level_decisions(count: int, better: float, rng: np.random.Generator) -> list[dict]:
    """Five candidates on 128 common layouts; candidate 1 wins ``better`` more often."""
    rows = []
    for game in range(count):
        chances = rng.uniform(0.2, 0.8, size=128)  # common random numbers: a layout's own odds
        records = []
        for k in range(5):
            wins = rng.random(128) < np.clip(chances + (better if k == 1 else 0.0), 0, 1)
            records.append("".join("1" if w else "0" for w in wins))
        rows.append(decision(records, game=game))
    return rows


def test_the_null_matches_level_candidates_and_not_a_better_one():
    rng = np.random.default_rng(11)
    level = calibrate(level_decisions(300, 0.0, rng), repeats=40, seed=5)
    measured, expected, spread = clearly_better(level)
    assert len(level) == 300 and 0 < expected < 300 and spread > 0
    assert abs(measured - expected) < 4 * spread
    measured_regret = np.array([c.regret for c in level])
    null_regret = sum(c.null_regret for c in level)
    assert abs(measured_regret.sum() - null_regret) < 4 * measured_regret.std() * np.sqrt(300)
    planted = calibrate(level_decisions(300, 0.15, rng), repeats=40, seed=5)
    measured, expected, spread = clearly_better(planted)
    assert measured > expected + 8 * spread
    assert sum(c.regret for c in planted) > 2 * sum(c.null_regret for c in planted)


def test_only_sampled_decisions_of_two_candidates_are_calibrated_and_the_seed_fixes_it():
    rows = [
        decision(["0101", "1100"]),
        decision(["0101"]),  # one candidate: nothing to compare
        decision(["0101", "1100"], exact=True),  # played on every layout: no noise
        decision(["1100", "0101"], search=7),  # search's choice not among the records
    ]
    found = calibrate(rows, repeats=30, seed=2)
    assert [c.row for c in found] == rows[:1]
    assert found[0].null.sum() == pytest.approx(1.0)
    again = calibrate(rows, repeats=30, seed=2)
    assert (again[0].null == found[0].null).all()


def test_the_report_sets_the_measured_verdicts_beside_noise_alone():
    rows = [
        {**row, "phase": phase, "reason": "search", "band": "> 1e12", "place": "corner, frontier"}
        for phase, row in zip(
            ["first guess", "early"] * 10,
            level_decisions(20, 0.0, np.random.default_rng(4)),
            strict=True,
        )
    ]
    for row in rows:
        row.update(verdict="noise", regret=0.0, held_out_gain=0.0, samples=128, rollouts=640)
        row["seconds"] = 1.0
    table = noise_table(calibrate(rows, SHUFFLES))
    assert table is not None
    lines = table.splitlines()
    assert [line.split(" | ")[0] for line in lines[2:]] == ["| first guess", "| early", "| all"]
    assert lines[-1].split(" | ")[1] == "20" and lines[-1].count("|") == 9
    assert "### Against noise alone" in report(rows, 20)
    assert noise_table(calibrate([decision(["01"])])) is None


def test_the_best_other_lead_past_two_errors_is_exactly_the_clearly_better_verdict(tmp_path):
    """The picture's figure and the tables' verdict cut the same decisions."""
    found = calibrate(level_decisions(120, 0.08, np.random.default_rng(9)), repeats=20)
    assert [c.z > 2 for c in found] == [c.measured == 2 for c in found]
    assert {c.null_z.shape for c in found} == {(20,)}
    stack = np.stack([as_array(["0" * 30, "1" * 26 + "0" * 4, "1" * 20 + "0" * 10])])
    assert best_other_z(stack, 0)[0] > 2 and best_other_z(stack, 1)[0] < -2
    plot_leads(found, tmp_path / "leads.png", "planted")
    assert (tmp_path / "leads.png").read_bytes()[:4] == b"\x89PNG"
    assert [p.name for p in tmp_path.iterdir()] == ["leads.png"]
    plot_leads([], tmp_path / "empty.png", "an exact-only run has nothing sampled")
    assert (tmp_path / "empty.png").read_bytes()[:4] == b"\x89PNG"
