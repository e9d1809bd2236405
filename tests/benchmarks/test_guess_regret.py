"""The regret instrument: play-ons that replay the real game, estimates that match exact
win probabilities, resumable runs, and the tables built from its lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from math import sqrt

import numpy as np
import pytest
from interrupting import signal_once
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import guess_regret  # noqa: E402
from guess_log import GuessLogger, log_games  # noqa: E402
from regret.decisions import (  # noqa: E402
    Decision,
    complete_games,
    phase,
    place,
    read_decisions,
)
from regret.estimate import (  # noqa: E402
    Budget,
    Race,
    candidate_cells,
    estimate,
    held_out_gain,
    run_race,
)
from regret.noise import calibrate  # noqa: E402
from regret.report import (  # noqa: E402
    peer_table,
    per_game,
    report,  # noqa: E402
)
from regret.rollouts import play_on, position_game  # noqa: E402

from minesweep_env.solver.probability import count_position  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.evaluation import Settings, board_target  # noqa: E402
from semiautomines_agents.evaluation.play import make_env, play_game  # noqa: E402
from semiautomines_agents.evaluation.records import Chunk  # noqa: E402

GAMES = range(24)


class LayoutLogger(GuessLogger):
    """The guess logger that also keeps the true mines at every decision."""

    def act(self, observation, action_mask, game):
        cell = super().act(observation, action_mask, game)
        if game.minefield.probes:
            self.decisions[-1]["true_mines"] = game.layout.mines.copy()
        return cell


@pytest.fixture(scope="module")
def played():
    """Beginner games of ``search``: (decision row with its true mines, game won)."""
    target, settings = board_target("beginner"), Settings("complete", "safe", 0)
    logger = LayoutLogger(make_agent("search"))
    env = make_env(target, settings, logger.obs_mode)
    chunk = Chunk("search", target, (), settings)
    rows = []
    for index in GAMES:
        won = play_game(env, logger, chunk, index).won
        rows += [(decision, won) for decision in logger.decisions]
    assert len(rows) >= 8
    return rows


@pytest.fixture(scope="module")
def guess_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("guesses") / "guesses.jsonl"
    log_games("beginner", "safe", GAMES, 0, GuessLogger(make_agent("search")), out)
    return out


def _decision(row: dict, key: str = "k") -> Decision:
    return Decision(
        key,
        0,
        row["move"],
        np.array(row["grid"], dtype=np.int8),
        row["mines"],
        row["cell"],
        row["reason"],
        None,
        False,
    )


def test_playing_on_with_the_true_layout_replays_the_game(played):
    agent = make_agent("search")
    for row, won in played:
        grid = np.array(row["grid"], dtype=np.int8)
        game = position_game(grid, row["true_mines"], row["move"])
        assert play_on(agent, game, row["cell"]) == won


def test_a_layout_that_contradicts_the_position_is_refused(played):
    row, _ = played[0]
    grid = np.array(row["grid"], dtype=np.int8)
    wrong = row["true_mines"].copy()
    wrong.reshape(-1)[int(np.flatnonzero(grid.reshape(-1) >= 0)[0])] = True
    with pytest.raises(ValueError, match="does not fit"):
        position_game(grid, wrong, row["move"])


def test_search_s_estimate_matches_the_exact_win_probability_of_its_endgame(played):
    agent = make_agent("search")
    checked = 0
    for row, _ in played:
        decision = _decision(row)
        advice = agent.advise(decision.board)
        if advice.reason != "endgame" or not 0 < advice.win_probability < 1:
            continue
        budget = Budget(min_samples=400, max_samples=400, batch=400)
        race, _ = run_race(agent, decision, [advice.cell], budget, seed=1)
        p, n = advice.win_probability, len(race.outcomes[advice.cell])
        assert n == 400
        assert abs(race.mean(advice.cell) - p) < 4.5 * sqrt(p * (1 - p) / n), (row["move"], p)
        checked += 1
        if checked == 2:
            return
    pytest.skip(f"only {checked} undecided endgame decisions in {len(GAMES)} games")


def test_candidates_start_with_search_s_choice_and_race_on_common_layouts(played):
    agent = make_agent("search")
    row = next(r for r, _ in played if r["reason"] == "search")
    decision = _decision(row, key="beginner/safe/0/0/1")
    weights = count_position(decision.board)
    cells = candidate_cells(agent, decision, weights, 4)
    assert cells[0] == decision.cell and len(set(cells)) == len(cells) <= 4
    budget = Budget(min_samples=8, max_samples=24, batch=8, max_candidates=4, exact_layouts=0)
    line = estimate(agent, decision, budget, seed=0)
    assert line == {**estimate(agent, decision, budget, seed=0), "seconds": line["seconds"]}
    by_cell = {c["cell"]: c for c in line["candidates"]}
    assert by_cell[decision.cell]["gain"] == 0 and line["samples"] in (8, 16, 24)
    assert all(c["samples"] <= line["samples"] for c in line["candidates"])
    best = max(c["win"] for c in line["candidates"])
    assert line["regret"] == pytest.approx(best - by_cell[decision.cell]["win"], abs=1e-6)
    assert line["verdict"] in ("best", "noise", "worse")


def test_the_held_out_gain_is_measured_apart_from_the_choice_and_not_clipped():
    race = Race([1, 2], search=1)
    # Cell 2 wins every even-numbered layout and loses every odd-numbered one.
    race.outcomes = {1: [0, 1, 0, 1, 0, 1], 2: [1, 0, 1, 0, 1, 0]}
    assert held_out_gain(race) == -1.0  # picked on the evens, worse on the odds
    race.outcomes = {1: [0, 0, 0, 0], 2: [1, 1, 1, 1]}
    assert held_out_gain(race) == 1.0
    race.outcomes = {1: [1, 0, 1, 0], 2: [0, 1, 0, 1]}
    assert held_out_gain(race) == 0.0  # search's own picked: no gain


def test_phases_and_places():
    grid = np.full((4, 4), -1, dtype=np.int8)
    grid[0, :] = 0
    grid[1, :] = 1
    decision = Decision("k", 0, 2, grid, 2, 15, "search", 10, first=False)
    assert phase(decision) == "mid"  # 8 of 14 safe cells open
    assert phase(Decision("k", 0, 2, grid, 2, 15, "search", 10, first=True)) == "first guess"
    assert place(grid, 15) == "corner, off frontier"
    assert place(grid, 9) == "interior, frontier"


def test_the_tables_count_verdicts_and_the_loss_per_game():
    rows = [
        {
            "phase": "early",
            "game": game,
            "reason": "search",
            "band": "<= 10",
            "place": "edge, frontier",
            "verdict": v,
            "regret": r,
            "regret_se": 0.01,
            "held_out_gain": r / 2,
            "samples": 32,
            "rollouts": 100,
            "seconds": 1.0,
            "cell": 1,
            "jsminesweeper": None,
            "candidates": [],
        }
        for game, (v, r) in enumerate(
            (("best", 0.0), ("noise", 0.02), ("worse", 0.1), ("best", 0.0))
        )
    ]
    text = report(rows, games=10)
    assert "| early | 4 | 50% | 25% | 25% | 3.00 | +1.50 | +0.60 ± " in text
    assert "4 decisions from 10 games" in text


def test_a_rerun_goes_on_after_the_decisions_measured(guess_file, tmp_path):
    out = tmp_path / "regret.jsonl"
    decisions, games = read_decisions(guess_file)
    assert decisions and len(games) == len(GAMES)
    small = [
        "--guesses",
        str(guess_file),
        "--out",
        str(out),
        "--min-samples",
        "4",
        "--max-samples",
        "4",
        "--batch",
        "4",
        "--candidates",
        "2",
        "--exact-layouts",
        "0",
    ]
    assert guess_regret.main([*small, "--decisions", "2"]) == 0
    first = guess_regret.done_keys(out)
    assert len(first) >= 2
    with out.open("a") as handle:
        handle.write('{"key": "cut sho')
    markdown, plot = tmp_path / "page.md", tmp_path / "leads.png"
    assert (
        guess_regret.main(
            [*small, "--decisions", "4", "--markdown", str(markdown), "--plot", str(plot)]
        )
        == 0
    )
    assert plot.read_bytes()[:4] == b"\x89PNG"
    lines = guess_regret.read_results(out)
    keys = [line["key"] for line in lines]
    assert len(keys) == len(set(keys)) and set(first) < set(keys)
    # the noise calibration takes each stored verdict again by the same rule
    calibrated = calibrate(lines, repeats=5)
    assert calibrated
    assert [("best", "noise", "worse")[c.measured] for c in calibrated] == [
        c.row["verdict"] for c in calibrated
    ]
    text = markdown.read_text()
    assert text.startswith("# Where")
    assert "```sh\npython benchmarks/guess_regret.py --guesses" in text
    assert f"{len(keys)} decisions from" in text and "## At scale" in text


def test_sigterm_keeps_every_finished_decision(guess_file, tmp_path):
    out = tmp_path / "regret.jsonl"
    command = [
        sys.executable,
        str(REPO / "benchmarks" / "guess_regret.py"),
        "--guesses",
        str(guess_file),
        "--out",
        str(out),
        "--min-samples",
        "4",
        "--max-samples",
        "4",
        "--batch",
        "4",
        "--candidates",
        "2",
        "--exact-layouts",
        "0",
    ]
    env = {**os.environ, "SEMIAUTOMINES_NO_JIT": "1"}
    code, _, err = signal_once(command, REPO, lambda _, e: "[1/" in e, signal.SIGTERM, env)
    assert code == 130 and "every finished decision is in" in err and "Traceback" not in err
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and all("regret" in line for line in lines)
    decisions, games = read_decisions(guess_file)
    whole = complete_games(lines, decisions, games)
    # the games measured whole, named so their tables can be had with --games
    assert (f"first {whole:,} games are measured whole: --games {whole}" in err) == (whole > 0)


@pytest.mark.parametrize(
    "bad",
    [
        ["--min-samples", "0"],
        ["--agent", "greedy"],
        ["--agent", "search:depth=99"],
        ["--guesses", "/nonexistent/log.jsonl"],
        ["--out", "/nonexistent/regret.jsonl"],
        ["--markdown", "/nonexistent/page.md"],
        ["--plot", "/nonexistent/leads.png"],
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(guess_file, tmp_path, bad):
    command = [
        sys.executable,
        str(REPO / "benchmarks" / "guess_regret.py"),
        "--guesses",
        str(guess_file),
        "--out",
        str(tmp_path / "r.jsonl"),
        *bad,
    ]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "SEMIAUTOMINES_NO_JIT": "1"},
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("usage:") is False


def test_the_peer_table_weighs_jsminesweeper_s_cells_per_phase_and_per_game():
    def row(phase: str, gain: float, se: float, game: int, theirs: float = 0.9) -> dict:
        candidates = [
            {"cell": 1, "safety": 0.8, "gain": 0.0},
            {"cell": 2, "safety": theirs, "gain": gain, "gain_se": se},
        ]
        return {
            "phase": phase,
            "game": game,
            "cell": 1,
            "jsminesweeper": 2,
            "candidates": candidates,
        }

    same = {"phase": "mid", "game": 3, "cell": 3, "jsminesweeper": 3, "candidates": []}
    early = [row("early", 0.10, 0.01, 0), row("early", -0.02, 0.05, 0), row("early", 0.04, 0.05, 1)]
    text = peer_table([*early, row("endgame", -0.3, 0.1, 2, theirs=0.5), same], games=20)
    # Per game the gains are summed first: games 0 and 1 hold +0.08 and +0.04, the
    # other 18 of the 20 games 0, so the mean is +0.6 points and the 95% half-width
    # 1.96 * sqrt((0.08² + 0.04² - 20 * 0.006²) / 19 / 20) = 0.858 points.
    assert "| early | 3 | 1 | 0 | 2 | +4.00 | +0.600 ± 0.858 |" in text
    assert "| endgame | 1 | 0 | 1 | 0 | -30.00 | -1.500 ± n/a |" in text
    assert "| all | 4 | 1 | 1 | 2 | -4.50 | -0.900 ± 3.121 |" in text
    assert "| mid |" not in text  # the cells agree there: not a differing decision
    # The endgame's decision is a coin flip taken first: JSMinesweeper's cell is 1/2 safe.
    assert "| of all: its cell a 50/50, search's safer | 1 | 0 | 1 | 0 | -30.00 |" in text


def test_decisions_of_one_game_widen_the_interval_as_one_game():
    apart = per_game([(0, 0.1), (1, 0.1), (2, -0.1), (3, -0.1)], games=10)
    together = per_game([(0, 0.1), (0, 0.1), (1, -0.1), (1, -0.1)], games=10)
    assert apart == "+0.00 ± 4.13" and together == "+0.00 ± 5.84"


def test_only_differing_measures_jsminesweeper_s_cell_against_search_s_alone(guess_file, tmp_path):
    lines = [json.loads(line) for line in guess_file.read_text().splitlines()]
    guesses = [line for line in lines if line.get("reason") not in (None, "safe")]
    assert len(guesses) >= 3
    differ = set()
    for index, line in enumerate(guesses[:3]):
        grid = np.array(line["grid"]).reshape(-1)
        other = int(next(c for c in np.flatnonzero(grid == -1) if c != line["cell"]))
        line["jsminesweeper"] = {"cell": other if index != 1 else line["cell"]}
        if index != 1:
            differ.add((line["game"], line["move"], other))
    log = tmp_path / "guesses.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out, markdown = tmp_path / "regret.jsonl", tmp_path / "page.md"
    small = ["--min-samples", "4", "--max-samples", "4", "--batch", "4", "--candidates", "1"]
    code = guess_regret.main(
        ["--guesses", str(log), "--out", str(out), *small, "--only-differing"]
        + ["--exact-layouts", "0", "--markdown", str(markdown)]
    )
    assert code == 0
    measured = guess_regret.read_results(out)
    assert {(r["game"], r["move"], r["jsminesweeper"]) for r in measured} == differ
    assert all(
        [c["cell"] for c in r["candidates"]] == [r["cell"], r["jsminesweeper"]] for r in measured
    )
    text = markdown.read_text()
    assert "(`--only-differing`)" in text and "| all | 2 |" in text
