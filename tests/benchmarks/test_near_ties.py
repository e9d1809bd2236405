"""Near ties at search's look-ahead guesses: the runner-up's gap and the command's table."""

from __future__ import annotations

import sys

import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import near_ties  # noqa: E402
from guess_log import GuessLogger, log_games  # noqa: E402

from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.search.lookahead import Assessment  # noqa: E402


def test_near_ties_measure_the_runner_up_against_the_best_score(tmp_path, capsys):

    agent = make_agent("search")
    best = Assessment(cell=0, safety=0.9, progress=0.0, survival=0.80)
    close = Assessment(cell=1, safety=0.9, progress=0.0, survival=0.798)
    far = Assessment(cell=2, safety=0.9, progress=0.0, survival=0.50)
    assert near_ties.runner_up_gap(agent, (far, best, close)) == pytest.approx(0.0025)
    assert near_ties.runner_up_gap(agent, (best,)) == 1.0
    assert "| 0.5% | 1 | 50.0% |" in near_ties.table([0.0025, 0.3])
    log = tmp_path / "guesses.jsonl"
    log_games("intermediate", "safe", range(6), 0, GuessLogger(make_agent("search")), log)
    assert near_ties.main(["--guesses", str(log), "--no-progress"]) == 0
    assert "look-ahead guesses of" in capsys.readouterr().out
