"""The advice report names the quantity that decided it: the survival when the advised
cell survives best, else the score with its terms, whose value is the advised cell's."""

from __future__ import annotations

from positions import undecided_positions

from minesweep_env import Board
from minesweep_env.solver.probability import count_position
from semiautomines_agents import SearchAgent
from semiautomines_agents.search.advice_report import position_advice
from semiautomines_agents.search.agent import Advice
from semiautomines_agents.search.explain import explain, score_name, survival_name
from semiautomines_agents.search.lookahead import Assessment


def test_the_report_names_the_score_when_another_cell_survives_better():
    agent = SearchAgent(endgame_layouts=0)
    seen = set()
    for board in undecided_positions(40, tries_per_position=20, flag_share=0.3):
        report = position_advice(agent, board)
        if report["reason"] != "search":
            continue
        chosen = next(
            c for c in report["candidates"] if (c["x"], c["y"]) == (report["x"], report["y"])
        )
        survives_better = any(c["survival"] > chosen["survival"] for c in report["candidates"])
        if survives_better:
            assert report["decided_by"] == score_name(agent.depth)
            assert report["value"] == chosen["score"]
            assert report["why"]
        else:
            assert report["decided_by"] == survival_name(agent.depth)
            assert report["value"] == chosen["survival"]
        seen.add(survives_better)
    assert seen == {False, True}


def test_the_issue_case_shows_the_score_that_ranked_the_cells():
    """Advised at mine 0.32 with two-move survival 0.674 over a cell at 0.11 that survives
    0.777: the report says the score decided, and why, with the factors."""
    board = Board.from_rows(["1??", "???"], total_mines=2)
    weights = count_position(board, any_count=True)
    agent = SearchAgent()
    advised = Assessment(cell=1, safety=0.68, progress=0.5, survival=0.674, numbers=3, factor=1.0)
    safest = Assessment(cell=2, safety=0.89, progress=0.5, survival=0.777, numbers=3, factor=0.8)
    advice = Advice(1, "search", 0.68, (advised, safest))
    explanation = explain(agent, board, weights, advice)
    assert explanation.decided_by == score_name(agent.depth)
    assert explanation.value == agent.score(advised) > agent.score(safest)
    assert "0.6740 x 1.0000 against 0.7770 x 0.8000" in (explanation.why or "")
