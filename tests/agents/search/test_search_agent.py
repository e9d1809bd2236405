"""The search agent: determinism, sound probes, forced guesses, the exact endgame,
the ``guess`` subcommand and the paired statistics of ``evaluate --baseline``."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from harness_probes import harness_probes
from positions import random_position

from minesweep_env import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.probability import count_position
from semiautomines_agents import AGENTS, SearchAgent, make_agent, parse_agent_name
from semiautomines_agents.evaluation import GameRecord, paired_difference
from semiautomines_agents.search.endgame import Endgame, Layouts, TooManyLayouts, TooMuchWork
from semiautomines_agents.search.forced import forced_guess
from semiautomines_agents.search.lookahead import assess, outcomes

CLI = Path(sys.executable).parent / "semiautomines"

DEAD_PAIR = ["?10", "?31", "!!1"]
"""A 50/50 between (0, 0) and (0, 1) that no number can settle: the cells that
touch one of them but not the other, (0, 2) and (1, 2), are flagged mines."""


def _positions(count: int, applies) -> list[Board]:
    """The first ``count`` random positions (consistent by construction) that ``applies``."""
    found = []
    for seed in range(50 * count):
        board, _ = random_position(seed)
        if applies(board):
            found.append(board)
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} positions fit")


def _covered(board: Board) -> np.ndarray:
    return board.grid.reshape(-1) == COVERED


# ---------------------------------------------------------------- the agent


def test_search_is_registered_and_takes_settings_in_its_name():
    assert AGENTS["search"] is SearchAgent
    agent = make_agent("search:depth=3:width=5:margin=0.2")
    assert (agent.depth, agent.width, agent.margin) == (3, 5, 0.2)
    assert parse_agent_name("greedy") == (AGENTS["greedy"], {})
    for bad in ("search:depth", "search:depth=x", "search:colour=1", "nobody", "ppo:depth=2"):
        with pytest.raises(ValueError):
            make_agent(bad)


def test_deep_width_is_a_setting_and_its_default_is_unchanged():
    from semiautomines_agents.search import agent as search_agent

    assert search_agent.DEEP_WIDTH == 4
    assert make_agent("search").deep_width == 4
    assert parse_agent_name("search:depth=3:deep_width=8") == (
        SearchAgent,
        {"depth": 3, "deep_width": 8},
    )
    agent = make_agent("search:depth=3:deep_width=8")
    assert (agent.depth, agent.deep_width, agent.width) == (3, 8, search_agent.WIDTH)
    with pytest.raises(ValueError):
        make_agent("search:deep_width=0")


def test_deep_width_reaches_the_look_ahead():
    """A wider deeper look never lowers the plain depth-3 survival (the best over
    more of the safest cells) and raises some; the default looks at 4 cells. (With
    ``deep_secondary`` a wider look may lower it: a dead next guess ranks below a
    living one whatever their values, as the agent plays.)"""
    narrow = SearchAgent(depth=3, deep_width=1, deep_secondary=0)
    wide = SearchAgent(depth=3, deep_width=8, deep_secondary=0)
    default = SearchAgent(depth=3, deep_secondary=0)
    raised = 0
    for seed in range(60):
        board, _ = random_position(seed, max_side=7)
        if not _covered(board).any():
            continue
        weights = count_position(board)
        one = narrow.weigh(board, weights)
        four = default.weigh(board, weights)
        eight = wide.weigh(board, weights)
        assert four == SearchAgent(depth=3, deep_width=4, deep_secondary=0).weigh(board, weights)
        for a, b, c in zip(one, four, eight, strict=True):
            assert a.cell == b.cell == c.cell
            assert a.survival <= b.survival + 1e-9 and b.survival <= c.survival + 1e-9
            raised += c.survival > a.survival + 1e-9
    assert raised


def _moves(agent_name: str, board: str, index: int, first_click: str = "safe") -> list[int]:
    """The cells an agent probes in game ``index`` of the harness on ``board``."""
    return harness_probes(agent_name, board, index, first_click)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_same_game_gets_the_same_moves(index):
    first = _moves("search", "intermediate", index)
    assert len(first) >= 1
    assert _moves("search", "intermediate", index) == first


def test_the_first_click_is_the_known_best_opening():
    assert _moves("search", "expert", 0)[0] == 0  # the corner under "safe"
    assert _moves("search", "expert", 0, "zero")[0] == 3 * 30 + 3  # (3, 3) under "zero"


def _has_safe_cell(board: Board) -> bool:
    if not _covered(board).any():
        return False
    weights = count_position(board)
    return any(weights.mine_weight.get(c) == 0 for c in np.flatnonzero(_covered(board)))


def _must_guess(board: Board) -> bool:
    if not _covered(board).any():
        return False
    weights = count_position(board)
    mine = weights.mine_weight
    covered = np.flatnonzero(_covered(board)).tolist()
    return not any(mine.get(c) == 0 for c in covered) and any(
        mine.get(c) != weights.layouts for c in covered
    )


@pytest.mark.parametrize("board", _positions(25, _has_safe_cell))
def test_a_cell_no_layout_mines_is_probed_when_there_is_one(board):
    advice = SearchAgent().advise(board)
    assert count_position(board).mine_weight[advice.cell] == 0
    assert advice.reason == "safe"


@pytest.mark.parametrize("board", _positions(40, _must_guess))
def test_a_guess_is_never_a_proven_mine_and_never_worse_than_needed(board):
    weights = count_position(board)
    for agent in (SearchAgent(), SearchAgent(depth=3), SearchAgent(endgame_layouts=0)):
        advice = agent.advise(board)
        assert _covered(board)[advice.cell]
        assert weights.mine_weight[advice.cell] != weights.layouts  # not a proven mine
        if advice.reason == "endgame":  # exact: at least as good as any single guess
            best_safety = 1 - min(weights.mine_weight.values()) / weights.layouts
            assert advice.win_probability is not None
            assert advice.win_probability <= best_safety + 1e-9


@pytest.mark.parametrize("board", _positions(15, _must_guess))
def test_the_outcomes_of_a_probe_share_out_its_safe_layouts(board):
    weights = count_position(board)
    for cell in np.flatnonzero(_covered(board)).tolist():
        mine = weights.mine_weight[cell]
        if mine == weights.layouts:
            continue
        found = outcomes(board, cell)
        assert sum(o.weights.layouts for o in found) == weights.layouts - mine
        two = assess(board, weights, cell, 2)
        # Surviving two guesses is no likelier than surviving the first.
        assert 0 <= two.survival <= two.safety + 1e-12
        assert two.safety == pytest.approx(1 - mine / weights.layouts)


# ---------------------------------------------------------------- forced guesses


def test_a_dead_fifty_fifty_is_found_and_taken_first():
    board = Board.from_rows(DEAD_PAIR, total_mines=3)
    weights = count_position(board)
    assert forced_guess(board, weights) == 0
    advice = SearchAgent(endgame_layouts=0).advise(board)
    assert (advice.cell, advice.reason) == (0, "forced")


def test_a_fifty_fifty_that_a_number_may_settle_is_not_forced():
    # (0, 2) is safe (the 2 has (1, 2) and one of the pair) and touches (0, 1) but
    # not (0, 0), so its number will tell them apart. (With (1, 2) a mine instead,
    # flagged or not, the pair would be dead: tests/agents/search/test_search_forced.py.)
    board = Board.from_rows(["?10", "?21", "??1"], total_mines=2)
    weights = count_position(board)
    assert weights.mine_weight[6] == 0 and 2 * weights.mine_weight[0] == weights.layouts
    assert forced_guess(board, weights) is None
    # Without the mine total the count argument does not hold: no forced guess either.
    board = Board.from_rows(DEAD_PAIR)
    assert forced_guess(board, count_position(board)) is None


# ---------------------------------------------------------------- the exact endgame


@pytest.mark.parametrize("board", _positions(30, _must_guess))
def test_the_endgame_lists_exactly_the_layouts_the_engine_counts(board):
    weights = count_position(board)
    try:
        layouts = Layouts(board, limit=5000)
    except TooManyLayouts:
        assert weights.layouts > 5000
        return
    assert len(layouts) == weights.layouts == len(set(layouts.masks))
    for bit, cell in enumerate(layouts.cells):
        assert sum(m >> bit & 1 for m in layouts.masks) == weights.mine_weight[cell]


def test_the_endgame_win_probability_of_a_dead_fifty_fifty_is_one_half():
    board = Board.from_rows(DEAD_PAIR, total_mines=3)
    cell, value = Endgame(Layouts(board, limit=10)).best_probe()
    assert cell == 0 and value == pytest.approx(0.5)


def test_the_endgame_on_a_strip_wins_with_one_half():
    # Two mines among (0, 0), (1, 0), (3, 0), (4, 0); the 1 sees (1, 0) and (3, 0).
    # Layouts: {0, 1}, {1, 4}, {0, 3}, {3, 4}: every cell is a mine in two of them.
    # Whatever is probed first is safe in two layouts, and its number tells those
    # two apart (e.g. (0, 0) shows 1 iff (1, 0) is a mine), so the game is won: 1/2.
    board = Board.from_rows(["??1??"], total_mines=2)
    layouts = Layouts(board, limit=100)
    assert sorted(layouts.masks) == sorted([0b0011, 0b1010, 0b0101, 0b1100])
    cell, value = Endgame(layouts).best_probe()
    assert value == pytest.approx(0.5) and cell == 0  # ties go to the lowest index


def test_the_endgame_gives_up_past_its_work_budget_and_lists_no_more_than_asked():
    board = Board.from_rows(["??1??"], total_mines=2)
    with pytest.raises(TooMuchWork):
        Endgame(Layouts(board, limit=100), budget=1).best_probe()
    with pytest.raises(TooManyLayouts):
        Layouts(board, limit=3)


def test_the_agents_endgame_budget_is_a_setting():
    board = Board.from_rows(["??1??"], total_mines=2)
    assert SearchAgent().advise(board).reason == "endgame"
    assert SearchAgent(endgame_budget=1).advise(board).reason != "endgame"  # falls back
    assert make_agent("search:endgame_budget=5").endgame_budget == 5


# ---------------------------------------------------------------- paired statistics


def _games(outcomes: list[int]) -> list[GameRecord]:
    return [GameRecord(i, bool(w), 1, 1.0, 0.0) for i, w in enumerate(outcomes)]


def test_the_paired_difference_matches_a_hand_computed_case():
    # d = agent - baseline per game: 0, 1, -1, 0, 1; mean 0.2, squared deviations
    # sum to 2.8, sample variance 0.7, standard error sqrt(0.7 / 5) = 0.374166.
    paired = paired_difference(_games([1, 1, 0, 0, 1]), _games([1, 0, 1, 0, 0]))
    assert paired.games == 5 and paired.difference == pytest.approx(0.2)
    half = 1.959963984540054 * math.sqrt(0.7 / 5)
    assert paired.low == pytest.approx(0.2 - half) and paired.high == pytest.approx(0.2 + half)
    assert (paired.only_agent, paired.only_baseline) == (2, 1)


def test_the_paired_difference_uses_only_games_both_played():
    agent = _games([1, 1, 1])
    baseline = [GameRecord(1, False, 1, 1.0, 0.0), GameRecord(7, True, 1, 1.0, 0.0)]
    paired = paired_difference(agent, baseline)
    assert paired.games == 1 and paired.difference == 1.0
    assert (paired.low, paired.high) == (-1.0, 1.0)  # one game: no interval to speak of
    same = paired_difference(agent, agent)
    assert (same.difference, same.low, same.high) == (0.0, 0.0, 0.0)


def _cli(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return subprocess.run(
        [*command, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def test_evaluate_with_a_baseline_reports_paired_differences_and_every_game(tmp_path):
    out = tmp_path / "out"
    args = ["evaluate", "--agents", "search", "--baseline", "greedy", "--boards", "beginner"]
    args += ["--maps", "none", "--games", "8", "--workers", "1", "--out", str(out)]
    result = _cli(*args, "--no-progress", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (folder,) = out.iterdir()
    records = json.loads((folder / "results.json").read_text())
    assert [r["agent"] for r in records] == ["search", "greedy"]  # the baseline is played
    lines = (folder / "games.csv").read_text().splitlines()
    header = "agent,board,game,won,guesses,safe_opened,seconds,invalid"
    assert lines[0] == header + ",bbbv,zini,openings,islands"  # difficulty appended last
    assert len(lines) == 1 + 16
    wins = {}
    for line in lines[1:]:
        agent, _, index, won, *_ = line.split(",")
        wins[(agent, int(index))] = int(won)
    search, greedy = records
    assert greedy["win_diff"] == 0.0 and greedy["paired_games"] == 8
    expected = sum(wins[("search", i)] - wins[("greedy", i)] for i in range(8)) / 8
    assert search["win_diff"] == pytest.approx(expected)
    assert search["diff_ci_low"] <= search["win_diff"] <= search["diff_ci_high"]
    assert "--baseline greedy" in result.stdout and "win rate diff" in result.stdout


# ---------------------------------------------------------------- semiautomines guess


def test_guess_prints_the_advice_as_json(tmp_path):
    position = tmp_path / "board.txt"
    position.write_text(
        "9 9 10\n"
        + "\n".join(
            [
                "?????????",
                "?????????",
                "?????????",
                "??11122??",
                "??1000111",
                "??2100000",
                "???100000",
                "??2100000",
                "?11000000",
            ]
        )
        + "\n"
    )
    result = _cli("guess", str(position), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"x", "y", "probability", "candidates"} <= set(report)
    board = Board.from_rows(position.read_text().split()[3:], total_mines=10)
    weights = count_position(board)
    cell = report["y"] * 9 + report["x"]
    assert board.grid.reshape(-1)[cell] == COVERED
    assert report["probability"] == pytest.approx(weights.mine_weight[cell] / weights.layouts)
    assert report["candidates"] and all(
        {"x", "y", "probability", "progress", "survival"} <= set(c) for c in report["candidates"]
    )
    text = _cli("guess", str(position), "--agent", "search:depth=1", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("probe (") and "survival (1)" in text.stdout


EXPERT_POSITION = """30 16 99
0011112!3!3!1000001?112!100000
122!12!33!311000002?21!3321011
!3!212!321211000002!2112!!222!
!322112!101!1001112?200123!2!3
111!102220111002!32?210112123!
0022201!22222112!??3!212!2112!
001!2112!2!!4!334????4??22!111
0012!1011223!!??!???????222200
0001110001123??????????!32!321
0000000001!22????????2??!33!!1
01110000023??3?????21113!45!41
24!2111001!?3???????10012!!!42
!!!32!21024?3???????32101244!!
3422!3!101!!3222???2!!10002!42
!22223220124!21?????3221113!20
2!2!11!10002!21?????101!11!210
"""
"""An expert game after 8 lowest-probability guesses (77 covered cells)."""


def test_guess_answers_on_the_exact_engine_as_the_compiled_path_would(tmp_path):
    """One position is over before numba would have loaded: guess never imports it, even
    where the tests ask for the compiled path (SEMIAUTOMINES_JIT_SYNC), and its advice is
    the one this process makes with the compiled kernels."""
    position = tmp_path / "board.txt"
    position.write_text(EXPERT_POSITION)
    code = (
        "import sys; from minesweep_env.cli.main import main; "
        f"status = main(['guess', {str(position)!r}, '--json']); "
        "print('numba' in sys.modules, file=sys.stderr); sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False"
    report = json.loads(done.stdout)
    board = Board.from_rows(EXPERT_POSITION.split("\n")[1:-1], total_mines=99)
    advice = SearchAgent().advise(board)  # this process: the compiled kernels (JIT_SYNC)
    assert (report["x"], report["y"], report["reason"]) == (
        advice.cell % 30,
        advice.cell // 30,
        advice.reason,
    )
    assert [(c["x"] + 30 * c["y"], c["survival"], c["progress"]) for c in report["candidates"]] == [
        (a.cell, a.survival, a.progress) for a in advice.candidates
    ]


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("3 3 2\n???\n?9!\n???\n", ()),  # a 9: malformed
        ("3 3 2\n???\n?3!\n!?!\n", ()),  # more flags than mines: contradictory
        ("2 1\n1?\nextra\n", ()),  # a row too many
        ("3 3 2\n???\n?2!\n???\n", ("--agent", "greedy")),  # no advice from greedy
        ("3 3 2\n???\n?2!\n???\n", ("--mines", "99")),  # more mines than cells
    ],
)
def test_guess_refuses_bad_input_with_one_line_and_exit_2(tmp_path, text, args):
    position = tmp_path / "board.txt"
    position.write_text(text)
    result = _cli("guess", str(position), *args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("semiautomines guess: error:")


def test_guess_on_a_board_with_nothing_covered_is_bad_input(tmp_path):
    position = tmp_path / "board.txt"
    position.write_text("2 1 1\n1!\n")
    result = _cli("guess", str(position), cwd=tmp_path)
    assert result.returncode == 2 and "no covered cell" in result.stderr


def test_an_inconsistent_position_is_refused_by_the_agent():
    with pytest.raises(InconsistentBoardError):
        SearchAgent().advise(Board.from_rows(["?3?"], total_mines=1))


# ---------------------------------------------------------------- the terminal game's h key


def _hinted(spec_advisor) -> tuple[object, object]:
    """A session on a fixed intermediate game still on after one probe, its hint requested."""
    import time

    from minesweep_env.core.minefield import GameState
    from minesweep_env.tui import GameSpec, Session

    for seed in range(20):
        spec = GameSpec(size=(16, 16, 40), seed=seed, advisor=spec_advisor, advisor_name="search")
        session = Session(spec, 40, 120, animate=False)
        session.probe(0, 0)
        if session.state is GameState.PLAYING:
            break
    session.request_hint()
    deadline = time.monotonic() + 120
    while session.hint is None and time.monotonic() < deadline:
        session.poll_odds()
        time.sleep(0.01)
    return session, session.hint


def test_the_h_key_asks_the_installed_search_adviser():
    from minesweep_env.cli.play import find_advisor

    advisor = find_advisor()
    assert advisor is not None  # the agents package declares it (semiautomines.advisors)
    session, hint = _hinted(advisor)
    board = session.game.minefield.board()
    cell = SearchAgent().advise(board).cell
    assert hint == (cell % board.width, cell // board.width)
    assert "search's guess" in session.message


def test_a_failing_adviser_leaves_the_safest_cell_as_the_hint():
    def broken(board):
        raise RuntimeError("no advice today")

    session, hint = _hinted(broken)
    odds = session.probabilities()
    x, y = hint
    assert odds[y, x] == np.nanmin(np.where(session.game.view == COVERED, odds, np.nan))
    assert "safest guess" in session.message
    # the failure is shown in one line beside the fallback, not swallowed
    assert "search failed: RuntimeError: no advice today" in session.message
