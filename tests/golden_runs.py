"""The golden runs: which CLI commands fix the game outcomes, and how to read their results.

Shared by ``scripts/record_golden.py`` (writes ``tests/golden/*.json``) and
``tests/project/test_golden_outcomes.py`` (re-runs them and compares). Everything goes
through the public command line, ``minesweep_env.cli.main.main([...])``, so the
golden figures hold whatever the code behind the commands becomes.

Each run has a set: ``fast`` runs are checked by the default test run (small
game counts, about 25 s on 2 cores), the ``slow`` runs (every prepared map:
each map once for a deterministic agent, a whole pass over each suite for the
others) only under ``pytest -m slow``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from minesweep_env.cli.main import main

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden"
EVALUATE_JSON = GOLDEN / "evaluate.json"
GENERATE_JSON = GOLDEN / "generate.json"

AGENTS = "random,greedy,greedy-plain,ppo"
RULE_SETS = ("endoh", "complete")
EVALUATE_SEED = 0
"""The run seed of every evaluate run (the command's default)."""
GENERATE_SEED = 2020
"""The seed the shipped ``maps/no-guess/`` suites were made with."""

FAST_MAPS = [
    "maps/ioccc",
    *(
        f"maps/{kind}/{board}/{board}-000.txt"
        for kind in ("no-guess", "suites")
        for board in ("beginner", "intermediate", "expert")
    ),
]
"""Every IOCCC map, and the first map of each no-guess and random suite (a
single file is its own row; a no-guess map keeps its fixed start)."""

EVALUATE_RUNS: list[tuple[str, str, list[str]]] = [
    (rule_set, speed, ["--rule-set", rule_set, *where])
    for rule_set in RULE_SETS
    for speed, where in (
        ("fast", ["--boards", "beginner", "--maps", "none", "--games", "200"]),
        ("fast", ["--boards", "intermediate", "--maps", "none", "--games", "80"]),
        ("fast", ["--boards", "expert", "--maps", "none", "--games", "24"]),
        ("fast", ["--boards", "none", "--maps", *FAST_MAPS, "--games", "10"]),
        ("slow", ["--boards", "none", "--maps", "maps", "--games", "20"]),
    )
]
"""(rule set, set, options of ``semiautomines evaluate`` besides agents, seed and output)."""

GENERATE_RUNS: list[tuple[str, list[str]]] = [
    *(
        ("fast", ["--board", board, "--rule-set", rule_set, "--count", "8"])
        for board in ("beginner", "intermediate", "expert")
        for rule_set in ("substitution", "endoh", "complete")
    ),
    *(
        ("fast", ["--board", board, "--rule-set", "complete", "--method", "repair", "--count", "4"])
        for board in ("beginner", "intermediate", "expert")
    ),
]
"""(set, options of ``semiautomines generate --no-guess`` besides seed and output)."""

GOLDEN_PPO_MODEL = "agents/models/ppo_beginner.pt"
"""The model the golden ``ppo`` rows were recorded with, named so that changing the
``ppo`` agent's default model is not read as a change of outcomes."""

ROW_FIGURES = ("games", "wins", "guesses", "mean_safe_opened", "invalid_actions")
"""What a golden evaluate row holds: the outcome of its games (not their speed)."""


@contextlib.contextmanager
def _in_repo() -> Iterator[None]:
    """Run from the repository root, so map rows are named ``maps/...`` wherever
    the caller stands."""
    before = os.getcwd()
    os.chdir(REPO)
    try:
        yield
    finally:
        os.chdir(before)


def _cli(argv: list[str]) -> str:
    """Run ``semiautomines ARGV`` in this process; its standard output."""
    out = io.StringIO()
    with _in_repo(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(argv)
    if status != 0:
        raise RuntimeError(f"semiautomines {' '.join(argv)} exited with {status}")
    return out.getvalue()


def evaluate_argv(options: list[str]) -> list[str]:
    return ["evaluate", "--agents", AGENTS, "--seed", str(EVALUATE_SEED), *options]


def run_evaluate(argv: list[str], out: Path) -> dict[str, dict[str, Any]]:
    """Play one golden evaluate run (``argv`` from :func:`evaluate_argv`) in one
    process, writing into ``out``; its rows by ``"agent board"``.

    Guesses are stored as the total over the games (the mean times the games is
    an integer); the share of safe cells opened stays the report's mean.
    """
    _cli([*argv, "--model", GOLDEN_PPO_MODEL, "--workers", "1", "--no-progress", "--out", str(out)])
    (folder,) = Path(out).glob("run-*")
    rows = {}
    for row in json.loads((folder / "results.json").read_text()):
        figures = {key: row[key] for key in ROW_FIGURES if key in row}
        figures["guesses"] = round(row["mean_guesses"] * row["games"])
        rows[f"{row['agent']} {row['board']}"] = figures
    return rows


def generate_argv(options: list[str]) -> list[str]:
    return ["generate", "--no-guess", "--seed", str(GENERATE_SEED), *options]


def run_generate(argv: list[str], out: Path) -> dict[str, str]:
    """Generate one golden set of no-guess maps (``argv`` from :func:`generate_argv`)
    into ``out``; the sha256 of each file written (maps and ``.start`` files), by name."""
    _cli([*argv, "--out", str(out)])
    return {path.name: sha256_of(path) for path in sorted(Path(out).iterdir())}


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_id(argv: list[str]) -> str:
    """A readable name for a run: its command line after the subcommand and seed."""
    return " ".join(argv[argv.index("--seed") + 2 :])
