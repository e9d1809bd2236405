"""``substitution`` verdicts against petersohn/mine-solver's, on the recorded reference maps.

The cases in ``tests/reference/mine_solver/cases*.jsonl`` were made by running
the public tool (petersohn/mine-solver at 19ecd2b) on random maps with
``tests/reference/mine_solver/make_reference.py``; the tool is not needed here.
"""

from __future__ import annotations

import json

import pytest
from paths import TESTS

from minesweep_env import MineLayout
from minesweep_env.generation import is_solvable

REFERENCE = TESTS / "reference" / "mine_solver"
CASES = [
    json.loads(line)
    for name in ("cases.jsonl", "cases_large.jsonl")  # up to 14x10, up to 30x16
    for line in (REFERENCE / name).read_text().splitlines()
]


def test_reference_cases_cover_both_verdicts() -> None:
    verdicts = [case["verdict"] for case in CASES if not case["start_on_mine"]]
    assert len(CASES) >= 500
    assert verdicts.count("solvable") >= 150
    assert verdicts.count("not solvable") >= 150


def test_substitution_agrees_with_the_seed_004_tool_on_every_reference_map() -> None:
    disagreements = []
    for number, case in enumerate(CASES, start=1):
        layout = MineLayout.from_rows(case["rows"])
        verdict = is_solvable(layout, tuple(case["start"]), "substitution")
        ours = "solvable" if verdict.solvable else "not solvable"
        if ours != case["verdict"]:
            disagreements.append(f"line {number}: tool {case['verdict']}, ours {ours}")
    assert not disagreements, f"{len(disagreements)} of {len(CASES)}: {disagreements[:5]}"


@pytest.mark.parametrize("case", [c for c in CASES if c["start_on_mine"]][:10])
def test_a_start_on_a_mine_is_not_solvable_with_nothing_opened(case: dict) -> None:
    layout = MineLayout.from_rows(case["rows"])
    verdict = is_solvable(layout, tuple(case["start"]), "substitution")
    assert case["message"] == "Stepped on mine"
    assert not verdict.solvable and verdict.start_on_mine
    assert verdict.covered_safe == layout.width * layout.height - layout.mine_count


def test_complete_solves_everything_the_tool_solves() -> None:
    """The exact rule set is at least as strong as petersohn/mine-solver."""
    for case in CASES:
        if case["verdict"] == "solvable":
            layout = MineLayout.from_rows(case["rows"])
            assert is_solvable(layout, tuple(case["start"]), "complete").solvable, case


def test_substitution_stops_where_the_tool_stops() -> None:
    """On maps the tool cannot solve, the same cells are left covered (opened sets equal)."""
    differences = []
    stuck = [c for c in CASES if c["verdict"] == "not solvable" and not c["start_on_mine"]]
    for case in stuck:
        layout = MineLayout.from_rows(case["rows"])
        verdict = is_solvable(layout, tuple(case["start"]), "substitution")
        ours = ["".join("o" if v >= 0 else "c" for v in row) for row in verdict.board.grid]
        tool = ["".join("c" if ch in ",X" else "o" for ch in row) for row in case["board"]]
        if ours != tool:
            differences.append(case["rows"])
    assert len(stuck) >= 300
    assert not differences, f"{len(differences)} of {len(stuck)} differ, first: {differences[0]}"
