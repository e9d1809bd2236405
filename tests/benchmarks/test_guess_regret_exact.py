"""The regret instrument's exact mode, and the exact endgame held to the real game.

On small settled positions (5x5 and 6x6 games of rule set ``complete``, played until a
guess is due) every layout is listed and every covered cell is probed in every one,
``search`` playing each game on in the real game: the share of won games must equal
the exact endgame's own value of that probe, cell by cell.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace

import numpy as np
import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import guess_regret  # noqa: E402
from regret.decisions import Decision  # noqa: E402
from regret.estimate import Budget, estimate  # noqa: E402
from regret.exact import (  # noqa: E402
    RememberedAdvice,
    check_layouts,
    endgame_values,
    every_layout,
    exact_listing,
    mine_grids,
    play_every_layout,
    undecided_cells,
)
from regret.report import exact_table, report  # noqa: E402
from regret.rollouts import play_on, position_game  # noqa: E402

from minesweep_env import Game  # noqa: E402
from minesweep_env.core.board import Board  # noqa: E402
from minesweep_env.core.cells import COVERED, FLAGGED  # noqa: E402
from minesweep_env.core.layout import MineLayout  # noqa: E402
from minesweep_env.core.minefield import GameState  # noqa: E402
from minesweep_env.errors import InconsistentBoardError  # noqa: E402
from minesweep_env.solver.probability import count_position  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.search.endgame import Endgame  # noqa: E402


@dataclass(frozen=True)
class Position:
    """A position a real game left, a guess due: the view, the mine total, the probes."""

    grid: np.ndarray
    mines: int
    probes: int

    @property
    def board(self) -> Board:
        return Board(self.grid.copy(), self.mines)

    @property
    def total_matters(self) -> bool:
        """Whether knowing the mine total rules layouts out (some cell no number touches,
        or numbers that allow different mine counts)."""
        unknown = count_position(Board(self.grid.copy(), None), any_count=True)
        return count_position(self.board).layouts < unknown.layouts


def settled_positions(count: int, low: int = 3, high: int = 40) -> list[Position]:
    """The first ``count`` positions (seeds 0, 1, ...) where a 5x5 or 6x6 game of rule set
    ``complete`` stops for a guess with ``low`` to ``high`` layouts; the game is played
    up to there by probing safe cells at random (the auto-solver doing the rest)."""
    found: list[Position] = []
    for seed in range(50 * count):
        rng = np.random.default_rng(seed)
        side = 5 + seed % 2
        layout = MineLayout.random(side, side, int(rng.integers(4, 9)), rng)
        game = Game(layout, rule_set="complete", first_click="none")
        safe = ~layout.mines.reshape(-1)
        while game.state is GameState.PLAYING:
            board = game.board
            if game.minefield.probes and low <= count_position(board).layouts <= high:
                found.append(Position(board.grid, layout.mine_count, game.minefield.probes))
                break
            open_safe = np.flatnonzero(safe & (board.grid.reshape(-1) == COVERED))
            cell = int(rng.choice(open_safe))
            game.probe(cell % side, cell // side)
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions found")


POSITIONS = settled_positions(12, high=60)


def play_out_values(position: Position, cells: list[int]) -> tuple[dict[int, float], int]:
    """Each cell's share of won games over every layout, search playing on."""
    layouts = every_layout(position.board, 1000)
    assert layouts is not None
    adviser = RememberedAdvice(make_agent("search"))
    grids = mine_grids(position.board, layouts)
    outcomes, _ = play_every_layout(adviser, position.grid, position.probes, cells, grids)
    return {c: sum(won) / len(layouts) for c, won in outcomes.items()}, len(layouts)


def test_the_positions_have_flags_and_both_kinds_of_mine_total():
    kinds = {p.total_matters for p in POSITIONS}
    assert kinds == {True, False}
    assert any((p.grid == FLAGGED).any() for p in POSITIONS)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_the_endgame_values_every_cell_as_the_real_game_plays_it(index):
    position = POSITIONS[index]
    layouts = every_layout(position.board, 1000)
    assert layouts is not None and len(layouts) == count_position(position.board).layouts
    covered = np.flatnonzero(position.grid.reshape(-1) == COVERED).tolist()
    assert undecided_cells(layouts) == covered  # the auto-solver left no cell decided
    played, _ = play_out_values(position, covered)
    modelled = endgame_values(layouts, covered)
    for cell in covered:
        assert modelled[cell] == pytest.approx(played[cell], abs=1e-12), cell
    # Search's own probe is the best, and worth what the endgame says.
    cell, value = Endgame(layouts).best_probe()
    assert make_agent("search").advise(position.board).cell == cell
    assert played[cell] == pytest.approx(value, abs=1e-12)
    assert max(played.values()) == pytest.approx(value, abs=1e-12)


def test_remembered_advice_plays_as_search_asked_afresh_every_move():
    position = POSITIONS[0]
    layouts = every_layout(position.board, 1000)
    assert layouts is not None
    covered = np.flatnonzero(position.grid.reshape(-1) == COVERED).tolist()
    remembered = RememberedAdvice(make_agent("search"))
    grids = mine_grids(position.board, layouts)
    outcomes, played = play_every_layout(remembered, position.grid, position.probes, covered, grids)
    assert played == sum(not g.reshape(-1)[c] for g in grids for c in covered)
    assert remembered.asked > len(remembered.advice)  # positions met again
    for k, mines in enumerate(grids[:12]):
        for cell in covered:
            if mines.reshape(-1)[cell]:
                assert outcomes[cell][k] == 0
                continue
            fresh = make_agent("search")  # a new agent: no cache from earlier games
            game = position_game(position.grid, mines, position.probes)
            assert int(play_on(fresh, game, cell)) == outcomes[cell][k]


def test_remembered_advice_refuses_a_restricted_choice():
    position = POSITIONS[0]
    valid = np.zeros(position.grid.size, dtype=bool)
    with pytest.raises(ValueError, match="covered cells only"):
        RememberedAdvice(make_agent("search")).advise(position.board, valid)


def test_a_position_without_its_mine_total_or_with_too_many_layouts_is_not_listed():
    position = POSITIONS[0]
    weights = count_position(position.board)
    assert every_layout(Board(position.grid.copy(), None), 1000) is None
    assert every_layout(position.board, weights.layouts - 1) is None
    assert exact_listing(position.board, weights, weights.layouts - 1) is None
    assert exact_listing(position.board, weights, 0) is None
    listed = exact_listing(position.board, weights, weights.layouts)
    assert listed is not None and len(listed) == weights.layouts


def test_a_listing_that_disagrees_with_the_engine_s_count_is_refused():
    position = POSITIONS[0]
    weights = count_position(position.board)
    layouts = every_layout(position.board, 1000)
    assert layouts is not None
    check_layouts(layouts, weights)
    with pytest.raises(InconsistentBoardError, match="layouts listed where the engine counts"):
        check_layouts(layouts, replace(weights, layouts=weights.layouts + 1))


def _decision(position: Position, key: str = "tiny/safe/0/0/1", game: int = 0) -> Decision:
    advice = make_agent("search").advise(position.board)
    return Decision(
        key,
        game,
        position.probes,
        position.grid.copy(),
        position.mines,
        advice.cell,
        advice.reason,
        count_position(position.board).layouts,
        first=False,
    )


def test_an_endgame_decision_is_played_exactly_and_search_is_best():
    position = POSITIONS[1]
    decision = _decision(position)
    assert decision.reason == "endgame"
    line = estimate(make_agent("search"), decision, Budget(), seed=0)
    covered = np.flatnonzero(position.grid.reshape(-1) == COVERED).tolist()
    assert line["exact"] and line["every_cell"]
    assert sorted(c["cell"] for c in line["candidates"]) == covered
    assert line["candidates"][0]["cell"] == decision.cell
    assert line["samples"] == decision.layouts
    assert line["verdict"] == "best" and line["regret"] == 0 and line["best"] == decision.cell
    assert line["endgame_matches"] is True and line["mismatched"] == []
    assert line["replayed"] and line["deterministic"]
    for row in line["candidates"]:
        assert row["win"] == pytest.approx(row["wins"] / line["samples"], abs=1e-9)
        assert row["endgame"] == pytest.approx(row["win"], abs=1e-9)
        assert row["gain"] == pytest.approx(row["win"] - line["candidates"][0]["win"], abs=1e-9)
    json.dumps(line)  # a results line


def test_a_worse_logged_cell_shows_its_exact_regret():
    for position in POSITIONS:  # the first where the cells are not all worth the same
        values, _ = play_out_values(position, undecided_cells(every_layout(position.board, 1000)))
        if min(values.values()) < max(values.values()):
            break
    else:
        raise AssertionError("every cell worth the same in every position")
    decision = _decision(position)
    worst = min(values, key=lambda c: (values[c], c))
    line = estimate(make_agent("search"), replace(decision, cell=worst), Budget(), seed=0)
    assert line["verdict"] == "worse" and line["best"] != worst
    assert line["regret"] == pytest.approx(max(values.values()) - values[worst], abs=1e-9)
    assert line["held_out_gain"] == line["regret"]
    assert not line["replayed"]  # search would not have probed it


def test_without_exact_layouts_the_decision_is_sampled():
    decision = _decision(POSITIONS[1])
    budget = Budget(min_samples=4, max_samples=4, batch=4, exact_layouts=0)
    line = estimate(make_agent("search"), decision, budget, seed=0)
    assert "exact" not in line and line["samples"] == 4


def _exact_row(reason: str, regret: float, matches: bool | None, game: int) -> dict:
    return {
        "game": game,
        "exact": True,
        "every_cell": True,
        "phase": "endgame",
        "reason": reason,
        "band": "<= 10",
        "place": "edge, frontier",
        "verdict": "worse" if regret else "best",
        "regret": regret,
        "regret_se": 0.0,
        "held_out_gain": regret,
        "samples": 10,
        "rollouts": 50,
        "seconds": 1.0,
        "cell": 1,
        "jsminesweeper": None,
        "candidates": [],
        "endgame_matches": matches,
        "mismatched": [] if matches in (True, None) else [3],
        "replayed": True,
        "deterministic": True,
    }


def test_the_exact_table_counts_best_choices_regret_and_agreement():
    rows = [
        _exact_row("endgame", 0.0, True, game=0),
        _exact_row("endgame", 0.25, False, game=1),
        _exact_row("search", 0.0, None, game=2),
    ]
    # JSMinesweeper's cell exactly better by 25 points: no noise to be within.
    rows[1]["jsminesweeper"] = 3
    rows[1]["candidates"] = [
        {"cell": 1, "gain": 0.0, "gain_se": 0.0, "win": 0.5, "endgame": 0.5},
        {"cell": 3, "gain": 0.25, "gain_se": 0.0, "win": 0.75, "endgame": 0.8},
    ]
    text = exact_table(rows, games=100)
    assert text is not None
    assert "| endgame | 2 | 10; 10 | 2 | 1 | 1 | 12.500 | +0.250 ± " in text
    assert "| all | 3 | 10; 10 | 3 | 2 | 1 | 8.333 | +0.250 ± " in text
    assert "| 1 of 2 |" in text
    assert "Of 2 candidate cells the endgame valued, 1 differ" in text
    assert "0 above the endgame's value" in text and "1 below it" in text
    text = report(rows, games=100)
    assert "### Played on every layout" in text and "| 1 | 1 | 0 | 0 | +25.00 |" in text
    assert "every one at the 3 played exactly" in text
    assert exact_table([{**rows[0], "exact": False}], games=1) is None


@pytest.fixture(scope="module")
def tiny_log(tmp_path_factory):
    """A guess log of three decisions, one with more layouts than the exact cap."""
    path = tmp_path_factory.mktemp("log") / "guesses.jsonl"
    lines = []
    for game, position in enumerate(POSITIONS[1:4]):
        decision = _decision(position, game=game)
        lines.append(
            {
                "board": "tiny",
                "start": "safe",
                "seed": 0,
                "game": game,
                "move": decision.move,
                "grid": decision.grid.tolist(),
                "mines": decision.mines,
                "cell": decision.cell,
                "reason": decision.reason,
                "safety": 0.5,
                "layouts": str(decision.layouts),
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path, sorted(int(line["layouts"]) for line in lines)


def test_only_exact_measures_the_few_layout_decisions_alone(tiny_log, tmp_path):
    path, counts = tiny_log
    cap = counts[1]
    out, markdown = tmp_path / "exact.jsonl", tmp_path / "page.md"
    code = guess_regret.main(
        [
            "--guesses",
            str(path),
            "--out",
            str(out),
            "--only-exact",
            "--exact-layouts",
            str(cap),
            "--markdown",
            str(markdown),
        ]
    )
    assert code == 0
    lines = guess_regret.read_results(out)
    assert sorted(line["samples"] for line in lines) == counts[:2]
    assert all(line["exact"] for line in lines)
    text = markdown.read_text()
    assert "2 decisions from 3 games" in text and "### Played on every layout" in text


@pytest.mark.parametrize(
    "bad", [["--exact-layouts", "-1"], ["--only-exact", "--exact-layouts", "0"]]
)
def test_bad_exact_arguments_get_one_line_and_exit_2(tiny_log, tmp_path, bad, capsys):
    path, _ = tiny_log
    with pytest.raises(SystemExit) as stop:
        guess_regret.main(["--guesses", str(path), "--out", str(tmp_path / "r.jsonl"), *bad])
    assert stop.value.code == 2
    assert "--exact-layouts" in capsys.readouterr().err.strip().splitlines()[-1]
