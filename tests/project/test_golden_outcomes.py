"""Golden outcomes: the same seed still gives the same games.

Protects the promise that speed work changes nothing but the speed. The
golden files were recorded before any speed work, through the public command
line (tests/golden_runs.py lists the commands):

- tests/golden/evaluate.json: ``semiautomines evaluate`` with random, greedy,
  greedy-plain and ppo on beginner, intermediate, expert and the prepared maps,
  rule sets ``endoh`` and ``complete``: per row the games, wins, total guesses,
  mean share of safe cells opened and invalid actions;
- tests/golden/generate.json: the sha256 of every map and ``.start`` file that
  ``semiautomines generate --no-guess --seed 2020`` writes, per board, rule set
  and method.

Each row is its own test, so a failure names the agent, board and rule set.
The default run checks the ``fast`` runs (every board; each IOCCC map and one
map of each suite); ``pytest -m slow`` checks every prepared map. Re-record
(``PYTHONPATH=. python scripts/record_golden.py``) only for a change meant to
change outcomes, and say so in its commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import golden_runs
import pytest

EVALUATE = json.loads(golden_runs.EVALUATE_JSON.read_text())["runs"]
GENERATE = json.loads(golden_runs.GENERATE_JSON.read_text())["runs"]

SAFE_OPENED_TOLERANCE = 1e-12
"""The mean share opened is a float sum; one cell more or less in one game moves
it by at least 1 / (cells x games), far above this."""


def _marks(run: dict[str, Any]) -> list:
    return [pytest.mark.slow] if run["set"] == "slow" else []


EVALUATE_ROWS = [
    pytest.param(number, key, marks=_marks(run), id=f"{run['rule_set']}: {key}")
    for number, run in enumerate(EVALUATE)
    for key in run["rows"]
]
GENERATE_FILES = [
    pytest.param(number, marks=_marks(run), id=golden_runs.run_id(run["argv"]))
    for number, run in enumerate(GENERATE)
]

_played: dict[int, dict[str, dict[str, Any]]] = {}
"""Evaluate runs played so far in this session, by number: one run gives many rows."""


def _play(number: int, request: pytest.FixtureRequest) -> dict[str, dict[str, Any]]:
    """The rows of evaluate run ``number`` (played once per session). A slow run is
    skipped unless asked for with ``-m slow``: this project's slow tests otherwise
    run by default, and every prepared map would double this file's time."""
    expression = request.config.getoption("markexpr") or ""
    if EVALUATE[number]["set"] == "slow" and ("slow" not in expression or "not slow" in expression):
        pytest.skip("the golden rows of every prepared map run with pytest -m slow")
    if number not in _played:
        tmp_path_factory = request.getfixturevalue("tmp_path_factory")
        out = tmp_path_factory.mktemp("golden-evaluate")
        _played[number] = golden_runs.run_evaluate(EVALUATE[number]["argv"], out)
    return _played[number]


@pytest.mark.parametrize(("number", "key"), EVALUATE_ROWS)
def test_evaluate_row_unchanged(number: int, key: str, request: pytest.FixtureRequest) -> None:
    golden = EVALUATE[number]["rows"][key]
    played = _play(number, request).get(key)
    assert played is not None, f"the run no longer has a row {key!r}"
    exact = {name: value for name, value in played.items() if name != "mean_safe_opened"}
    assert exact == {name: value for name, value in golden.items() if name != "mean_safe_opened"}
    assert played["mean_safe_opened"] == pytest.approx(
        golden["mean_safe_opened"], rel=0, abs=SAFE_OPENED_TOLERANCE
    )


@pytest.mark.parametrize(
    "number",
    [
        pytest.param(number, marks=_marks(run), id=golden_runs.run_id(run["argv"]))
        for number, run in enumerate(EVALUATE)
    ],
)
def test_evaluate_run_has_no_new_rows(number: int, request: pytest.FixtureRequest) -> None:
    assert set(_play(number, request)) == set(EVALUATE[number]["rows"])


@pytest.mark.parametrize("number", GENERATE_FILES)
def test_generated_maps_unchanged(number: int, tmp_path: Path) -> None:
    assert (
        golden_runs.run_generate(GENERATE[number]["argv"], tmp_path) == GENERATE[number]["sha256"]
    )


def test_golden_generate_reproduces_the_shipped_no_guess_maps() -> None:
    """The default generate run is the command maps/no-guess/README.md gives, so its
    first maps are the shipped ones: the golden file agrees with the repository."""
    for run in GENERATE:
        argv = run["argv"]
        if "substitution" not in argv or "--method" in argv:
            continue
        board = argv[argv.index("--board") + 1]
        for name, digest in run["sha256"].items():
            shipped = golden_runs.REPO / "maps" / "no-guess" / board / name
            assert golden_runs.sha256_of(shipped) == digest, shipped
