"""Tie-breaks gated on a regret map: the ties, the rules' gains, the cross-fitted ridge and
what half the layouts say is there to be had."""

from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import tie_breaks  # noqa: E402
from guess_log import GuessLogger, log_games  # noqa: E402
from regret.decisions import complete_games, read_decisions  # noqa: E402
from regret.exact import safety  # noqa: E402
from regret.tie_break import (  # noqa: E402
    FEATURES,
    Tie,
    figures,
    fit,
    half_best_gain,
    learned_choices,
    near_ties,
    table,
)
from regret.value_break import cell_values, value_choices  # noqa: E402

from minesweep_env.solver.probability import count_position  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.search.lookahead import Assessment  # noqa: E402


def tie(key: str, game: int, gains: dict[int, float], rows: list[list[float]] | None = None) -> Tie:
    """A tie of ``gains``' cells (the first search's, gain 0) with the given figures."""
    cells = tuple(gains)
    rows = rows or [[0.0] * len(FEATURES) for _ in cells]
    return Tie(
        key=key,
        game=game,
        search=cells[0],
        cells=cells,
        gains=gains,
        halves=None,
        figures={c: np.array(r, dtype=float) for c, r in zip(cells, rows, strict=True)},
        assessments={c: Assessment(cell=c, safety=0.8, progress=0.0, survival=0.5) for c in cells},
        jsminesweeper=None,
    )


def test_the_share_to_be_had_takes_the_best_of_the_even_layouts_at_its_odd_ones():
    halves = {3: (0.50, 0.40), 7: (0.60, 0.45), 9: (0.55, 0.90)}
    even_best = Tie("k", 0, 3, (3, 7, 9), {3: 0.0, 7: 0.05, 9: 0.2}, halves, {}, {}, None)
    # 7 wins the even half; it is credited with its odd half against search's
    assert half_best_gain(even_best) == pytest.approx(0.05)
    exact = tie("e", 0, {3: 0.0, 7: 0.02, 9: -0.1})
    assert half_best_gain(exact) == pytest.approx(0.02)


def test_the_ridge_learns_a_planted_rule_and_applies_it_to_unseen_games():
    """Gains that follow the safety difference: the cross-fitted choice is the safer
    cell in every game, though each game's model never saw that game."""
    rng = random.Random(0)
    ties = []
    for game in range(60):
        rows = [[0.0] * len(FEATURES) for _ in range(3)]
        rows[1][0] = rng.uniform(-0.05, 0.05)
        rows[2][0] = -rows[1][0]  # mirrored: no intercept to learn
        gains = {10: 0.0, 11: 0.5 * rows[1][0], 12: 0.5 * rows[2][0]}
        ties.append(tie(f"g{game}", game, gains, rows))
    model = fit(ties)
    assert model.weights[0] > 0 and abs(model.weights[1:]).max() < 1e-9
    choices = learned_choices(ties)
    for t in ties:
        best = max(t.cells, key=lambda c: t.gains[c])
        assert choices[t.key] == best


def test_the_table_credits_each_rule_with_its_measured_gain_per_game():
    safer = [[0.9] + [0.0] * (len(FEATURES) - 1), [0.95] + [0.0] * (len(FEATURES) - 1)]
    ties = [tie("a", 0, {1: 0.0, 2: 0.04}, safer), tie("b", 1, {5: 0.0, 6: -0.02}, safer)]
    for t in ties:
        t.assessments[t.cells[1]] = Assessment(
            cell=t.cells[1], safety=0.95, progress=0, survival=0.5
        )
    text = table(ties, games=4)
    # the safest rule moves both decisions: (+0.04 - 0.02) / 4 games = +0.5 points per game
    assert "| the safest | 2 | +1.00 | +0.50 ±" in text
    assert "| JSMinesweeper's cell | 0 |" in text
    assert "| best of half the layouts (there to be had, at least) | 2 |" in text


def test_complete_games_stop_at_the_first_game_with_a_decision_unmeasured(tmp_path):
    log = tmp_path / "guesses.jsonl"
    log_games("intermediate", "safe", range(8), 0, GuessLogger(make_agent("search")), log)
    decisions, games = read_decisions(log)
    rows = [{"key": d.key} for d in decisions]
    assert complete_games(rows, decisions, games) == len(games)
    gap = decisions[len(decisions) // 2]
    missing = [r for r in rows if r["key"] != gap.key]
    assert complete_games(missing, decisions, games) == games.index(gap.game)


@pytest.fixture(scope="module")
def mapped(tmp_path_factory):
    """An intermediate guess log, and a regret map of it whose candidates are every cell
    search weighed, with made-up outcomes (the ties do not depend on them)."""
    folder = tmp_path_factory.mktemp("ties")
    log = folder / "guesses.jsonl"
    log_games("intermediate", "safe", range(30), 0, GuessLogger(make_agent("search")), log)
    agent = make_agent("search")
    decisions, _ = read_decisions(log)
    rng = random.Random(1)
    rows = []
    for d in decisions:
        advice = agent.advise(d.board)
        cells = [d.cell] + [a.cell for a in advice.candidates if a.cell != d.cell]
        outcomes = {c: "".join(rng.choice("01") for _ in range(16)) for c in cells}
        own = np.array([int(ch) for ch in outcomes[d.cell]])
        candidates = [
            {
                "cell": c,
                "gain": float(np.mean([int(ch) for ch in outcomes[c]] - own)),
                "outcomes": outcomes[c],
            }
            for c in cells
        ]
        rows.append(
            {
                "key": d.key,
                "game": d.game,
                "reason": d.reason,
                "cell": d.cell,
                "candidates": candidates,
                "jsminesweeper": None,
            }
        )
    regret = folder / "regret.jsonl"
    regret.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return agent, log, regret, rows, {d.key: d for d in decisions}


def test_a_tie_holds_search_s_choice_first_and_the_cells_within_the_gap(mapped):
    agent, _, _, rows, decisions = mapped
    narrow, wide = near_ties(agent, rows, decisions, 0.001), near_ties(agent, rows, decisions, 0.5)
    assert wide and len(narrow) <= len(wide)
    for found in wide:
        assert found.cells[0] == found.search
        advice = agent.advise(decisions[found.key].board)
        best = max(agent.score(a) for a in advice.candidates)
        for cell in found.cells:
            assert agent.score(found.assessments[cell]) >= best * (1 - 0.5)
            row = next(r for r in rows if r["key"] == found.key)
            entry = next(c for c in row["candidates"] if c["cell"] == cell)
            assert found.gains[cell] == entry["gain"]
        assert found.figures[found.search][FEATURES.index("score gap")] == 0.0
    assert all(r["reason"] == "search" for r in rows if r["key"] in {t.key for t in wide})


def test_a_candidate_s_figures_see_the_board_around_it():
    agent = make_agent("search")
    grid = np.full((4, 5), -1, dtype=np.int8)
    grid[0, 1] = 1
    a = Assessment(cell=0, safety=0.9, progress=0.2, survival=0.7, numbers=3)
    row = figures(agent, grid, a, best=agent.score(a))
    named = dict(zip(FEATURES, row, strict=True))
    assert named["corner"] == 1 and named["edge"] == 0
    assert named["covered neighbours"] == 2 and named["number neighbours"] == 1
    assert named["numbers"] == 3 and named["score gap"] == 0.0


def test_the_command_prints_a_table_per_gap_and_writes_the_page(mapped, capsys, tmp_path):
    _, log, regret, _, _ = mapped
    page = tmp_path / "ties.md"
    argv = ["--guesses", str(log), "--regret", str(regret), "--gap", "0.5", "--markdown", str(page)]
    assert tie_breaks.main(argv) == 0
    out = capsys.readouterr().out
    assert "Candidates within 50.0% of the best score" in out
    assert "| learned (cross-fitted by game) |" in out
    lines = page.read_text().splitlines()
    assert lines[0].startswith("# ") and lines[2] == "```sh"
    assert lines[3].startswith("python benchmarks/tie_breaks.py --guesses")
    assert "| learned (cross-fitted by game) |" in page.read_text()


@pytest.mark.parametrize(
    "bad, message",
    [
        (["--regret", "nowhere.jsonl"], "no such file"),
        (["--gap", "1.5"], "--gap must be"),
        (["--value", "nowhere.pt"], "--value: "),
        (["--value-samples", "0"], "--value-samples must be"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(mapped, capsys, bad, message):
    _, log, regret, _, _ = mapped
    argv = ["--guesses", str(log), "--regret", str(regret), *bad]
    if "--regret" in bad:
        argv = ["--guesses", str(log), *bad]
    with pytest.raises(SystemExit) as stop:
        tie_breaks.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


class ConstantNet:
    """A stand-in for the value network: every position is worth ``value``."""

    def __init__(self, value: float) -> None:
        self.value = value

    def values(self, boards):
        return np.full(len(boards), self.value)


def test_a_cell_s_value_is_its_survival_times_what_follows(mapped):
    """With every next position worth 1, a cell's value is the share of sampled layouts
    where it is safe: its exact safety, within sampling error. Worth 0, it is the
    share where probing it wins outright, at most that."""
    _, _, _, rows, decisions = mapped
    decision = next(decisions[r["key"]] for r in rows if r["reason"] == "search")
    cells = tuple(
        c["cell"] for c in rows[[r["key"] for r in rows].index(decision.key)]["candidates"]
    )
    samples = 400
    surviving = cell_values(ConstantNet(1.0), decision, cells, samples, seed=3)
    winning = cell_values(ConstantNet(0.0), decision, cells, samples, seed=3)
    weights = count_position(decision.board)
    for cell in cells:
        p = safety(weights, cell)
        assert abs(surviving[cell] - p) <= 4 * max(np.sqrt(p * (1 - p) / samples), 1e-9)
        assert 0 <= winning[cell] <= surviving[cell] <= 1


def test_the_value_rule_picks_within_the_tie_and_joins_the_table(mapped):
    agent, _, _, rows, decisions = mapped
    ties = near_ties(agent, rows, decisions, 0.5)
    flat = value_choices(ConstantNet(1.0), ties[:5], decisions, samples=4)
    for found in ties[:5]:
        assert flat[found.key] in found.cells
    text = table(ties, 30, {"the value network": {t.key: t.search for t in ties}})
    assert "| the value network | 0 |" in text
