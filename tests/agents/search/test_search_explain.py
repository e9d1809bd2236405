"""``semiautomines guess`` explains its choice and never contradicts itself: the deciding
quantity, why the advised cell beats the safest one, true chances without a mine total,
and the same verdict as ``probabilities`` on an impossible position."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from positions import undecided_positions
from test_search_agent import EXPERT_POSITION

from minesweep_env import Board
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search.explain import explain, score_name

CLI = Path(sys.executable).parent / "semiautomines"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def _chances(report: dict) -> list[float]:
    values = [report["probability"], report["safest"]["probability"]]
    for c in report["candidates"]:
        values += [c["probability"], c["progress"], c["survival"]]
    return values


@pytest.mark.parametrize("header", ["30 16 99", "30 16"])
def test_guess_reports_true_chances_with_and_without_the_total(tmp_path, header):
    position = tmp_path / "board.txt"
    position.write_text(EXPERT_POSITION.replace("30 16 99", header, 1))
    done = _cli("guess", str(position), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert all(0.0 <= v <= 1.0 for v in _chances(report)), report
    assert report["safest"]["probability"] <= report["probability"]
    best = max(c["score"] for c in report["candidates"])
    chosen = [c for c in report["candidates"] if (c["x"], c["y"]) == (report["x"], report["y"])]
    assert chosen and chosen[0]["score"] == best  # the table backs the advice
    # The deciding quantity: the survival, unless another candidate survives better and
    # the score (survival x factor + bonus) decided, as on this position.
    if any(c["survival"] > chosen[0]["survival"] for c in report["candidates"]):
        assert report["decided_by"] == score_name(2) and report["value"] == best
    else:
        assert report["decided_by"] == "two-move survival"
    looks_better = [
        c
        for c in report["candidates"]
        if c is not chosen[0]
        and (c["probability"] < report["probability"] or c["survival"] > chosen[0]["survival"])
    ]
    assert (report["why"] is not None) == bool(
        looks_better
        or chosen[0]["score"] in [c["score"] for c in report["candidates"] if c is not chosen[0]]
    )
    text = _cli("guess", str(position), cwd=tmp_path).stdout
    assert text.startswith(f"probe ({report['x']}, {report['y']}): {report['decided_by']}, mine ")
    assert f"{report['decided_by']}: {report['value']:.4f}" in text
    assert ("why this cell: " in text) == (report["why"] is not None)


def test_guess_without_a_total_says_how_it_counts():
    done = subprocess.run(
        [sys.executable, "-m", "minesweep_env.cli.main", "guess", "--help"],
        capture_output=True,
        text=True,
    )
    assert "any\nmine count" in done.stdout or "any mine count" in done.stdout


def test_guess_gives_the_verdict_probabilities_gives_on_an_impossible_position(tmp_path):
    position = tmp_path / "board.txt"
    position.write_text("3 1\n!1!\n")
    verdicts = [
        _cli(command, str(position), cwd=tmp_path) for command in ("probabilities", "guess")
    ]
    assert [v.returncode for v in verdicts] == [2, 2]
    for verdict in verdicts:
        lines = verdict.stderr.strip().splitlines()
        assert len(lines) == 1 and "inconsistent position" in lines[0], verdict.stderr
    assert verdicts[0].stderr.split("error: ")[1] == verdicts[1].stderr.split("error: ")[1]


def test_guess_never_advises_a_certain_mine(tmp_path):
    """Every covered cell a proven mine (the game is won): nothing to guess, said in one
    line, instead of advising to probe a mine."""
    position = tmp_path / "board.txt"
    position.write_text("2 1 1\n1?\n")
    verdict = _cli("guess", str(position), cwd=tmp_path)
    assert verdict.returncode == 2 and not verdict.stdout
    lines = verdict.stderr.strip().splitlines()
    assert len(lines) == 1 and "every covered cell is a mine" in lines[0], verdict.stderr


@pytest.mark.parametrize("total", [True, False])
def test_a_search_advice_that_is_not_the_safest_cell_says_why(total):
    """On small random positions: the advised candidate has the best score, and a sentence
    comes with it whenever a safer candidate (or one with a higher survival) exists."""
    agent = SearchAgent(endgame_layouts=0)  # small positions: the search step, not the endgame
    checked = 0
    for found in undecided_positions(40, tries_per_position=20, flag_share=0.3):
        board = found if total else Board(found.grid.copy(), None)
        weights = count_position(board, any_count=True)
        advice = agent.advise(board)
        if advice.reason != "search" or not advice.candidates:
            continue
        explanation = explain(agent, board, weights, advice)
        chosen = next(a for a in advice.candidates if a.cell == advice.cell)
        assert 0.0 <= chosen.survival <= 1.0
        assert agent.score(chosen) == max(agent.score(a) for a in advice.candidates)
        better_looking = [
            a for a in advice.candidates if a.safety > chosen.safety or a.survival > chosen.survival
        ]
        if better_looking or explanation.safest != advice.cell:
            assert explanation.why, (advice, explanation)
        checked += 1
    assert checked >= 5
