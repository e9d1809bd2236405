"""``semiautomines review``: real replays judged consistently; bad files in one line."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from paths import TESTS

from minesweep_env.cli.main import main as cli_main
from minesweep_env.core.layout import MineLayout
from minesweep_env.formats.evf_out import write_evf
from minesweep_env.formats.replay import read_replay
from minesweep_env.formats.replay_actions import ReplayAction
from semiautomines_agents.coach import review_replay

pytest.importorskip("ms_toollib")

REPLAYS = TESTS / "data" / "replays"


def review_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict:
    assert cli_main(["review", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def check_consistent(report: dict) -> None:
    """Each guess a real risk no lower than the safest cell's; the survivals ordered."""
    guesses, summary = report["guesses"], report["summary"]
    assert summary["guesses"] == len(guesses)
    for g in guesses:
        assert set(g) >= {"move", "x", "y", "probability", "safest", "advice"}
        assert 0 < g["probability"] <= 1
        assert 0 <= g["safest"] <= g["probability"]
        advice = g["advice"]
        assert {"x", "y", "reason", "decided_by", "safest", "candidates"} <= set(advice)
        assert advice["safest"]["probability"] == pytest.approx(g["safest"])
    assert 0 <= summary["survival_taken"] <= summary["survival_best"] <= 1
    assert summary["bbbv"] > 0 and summary["openings"] >= 0 and summary["islands"] >= 0


def test_review_of_a_real_replay_with_a_guess(capsys: pytest.CaptureFixture[str]) -> None:
    report = review_json(capsys, REPLAYS / "beginner-preflags.rmv")
    check_consistent(report)
    assert set(report["summary"]) >= {"guesses", "survival_taken", "survival_best", "bbbv"}
    assert report["summary"]["bbbv"] == 16 and report["summary"]["outcome"] == "won"
    assert report["summary"]["completed"] is True
    (guess,) = report["guesses"]
    # Move 11 probes (1, 0) at 1/3 while four cells are at 0.15 (the engine's exact counts).
    assert (guess["move"], guess["x"], guess["y"]) == (11, 1, 0)
    assert guess["probability"] == pytest.approx(1 / 3)
    assert guess["safest"] == pytest.approx(0.15)
    assert report["summary"]["survival_taken"] == pytest.approx(2 / 3)
    assert report["summary"]["survival_best"] == pytest.approx(0.85)


@pytest.mark.parametrize("name", ["custom-8x11.avf", "beginner-chords.rmv"])
def test_review_of_games_without_guesses(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    report = review_json(capsys, REPLAYS / name)
    check_consistent(report)
    assert report["guesses"] == []
    assert report["summary"]["survival_taken"] == report["summary"]["survival_best"] == 1


def _review_of(tmp_path: Path, rows: list[str], probes: list[tuple[int, int]]):
    actions = [ReplayAction("probe", x, y, float(t)) for t, (x, y) in enumerate(probes)]
    path = tmp_path / "game.evf"
    write_evf(path, MineLayout.from_rows(rows), actions, "SemiAutoMines test", "test")
    return review_replay(read_replay(path))


def test_a_probe_of_a_proven_mine_is_a_guess_that_loses(tmp_path: Path) -> None:
    # The zeros open at once; the numbers then prove (3, 0) and (3, 2) mines.
    review = _review_of(tmp_path, ["ooox", "oooo", "ooox", "oooo"], [(0, 3), (3, 2)])
    assert review.outcome == "lost" and not review.summary()["completed"]
    (guess,) = review.guesses
    assert (guess.x, guess.y, guess.lost, guess.forced) == (3, 2, True, False)
    assert guess.probability == 1 and guess.safest == 0
    assert guess.advice["reason"] == "safe"
    check_consistent(review.as_json())


def test_a_forced_50_50_is_named(tmp_path: Path) -> None:
    # One mine in the right column, both of its cells seen alike by every number.
    review = _review_of(tmp_path, ["oox", "ooo"], [(0, 0), (2, 1)])
    assert review.outcome == "won"
    (guess,) = review.guesses
    assert (guess.x, guess.y, guess.forced) == (2, 1, True)
    assert guess.probability == guess.safest == 0.5
    check_consistent(review.as_json())


def test_a_probe_of_an_open_cell_is_no_guess() -> None:
    source = read_replay(REPLAYS / "beginner-preflags.rmv")
    first = source.actions[9]  # the first probe, which opened cells
    actions = (*source.actions[:10], first, *source.actions[10:])
    review = review_replay(dataclasses.replace(source, actions=actions))
    assert [g.move for g in review.guesses] == [12]  # move 11 of the file, one later
    assert review.outcome == "won"


def test_review_text_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["review", str(REPLAYS / "beginner-preflags.rmv")]) == 0
    out = capsys.readouterr().out
    assert "move" in out and "(1, 0)" in out and "0.3333" in out and "0.1500" in out
    assert "3BV 16" in out and "survival 0.6667 taken, 0.8500" in out


@pytest.mark.parametrize("name", ["custom-8x11.avf", "beginner-chords.rmv", "expert.mvf"])
def test_a_broken_replay_is_one_line_and_exit_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (REPLAYS / name).read_bytes()
    bad = tmp_path / f"broken{Path(name).suffix}"
    bad.write_bytes(data[: len(data) // 2])
    monkeypatch.chdir(tmp_path)
    assert cli_main(["review", str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert str(bad) in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == [bad.name]  # nothing written


def test_bad_arguments_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["review", str(tmp_path / "none.avf")],
        ["review", str(tmp_path / "game.msor")],
        ["review", str(REPLAYS / "custom-8x11.avf"), "--agent", "greedy"],
    ):
        assert cli_main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def _replay_of(tmp_path: Path, rows: list[str], actions: list[ReplayAction]):
    path = tmp_path / "game.evf"
    write_evf(path, MineLayout.from_rows(rows), actions, "SemiAutoMines test", "test")
    return read_replay(path)


def _flag_and_chord(flag: tuple[int, int], chord: tuple[int, int]) -> list[ReplayAction]:
    """The first probe in the top-left corner, a flag, then a chord."""
    return [
        ReplayAction("probe", 0, 0, 0.0),
        ReplayAction("flag", *flag, 1.0),
        ReplayAction("chord", *chord, 2.0),
    ]


def test_a_chord_on_a_wrong_flag_is_a_guess_that_loses(tmp_path: Path) -> None:
    # The 1 at (1, 0) touches (2, 0) and (2, 1), one mine between them: a coin flip.
    # The player flags the safe one and chords: the chord opens the mine.
    replay = _replay_of(tmp_path, ["oox", "ooo"], _flag_and_chord((2, 1), (1, 0)))
    assert [a.kind for a in replay.actions] == ["probe", "flag", "chord"]
    review = review_replay(replay)
    assert review.outcome == "lost"
    (guess,) = review.guesses
    assert (guess.move, guess.x, guess.y, guess.chord) == (3, 2, 0, (1, 0))
    assert guess.probability == guess.safest == 0.5 and guess.lost and guess.forced
    report = review.as_json()
    check_consistent(report)
    assert report["guesses"][0]["chord"] == {"x": 1, "y": 0}
    assert report["summary"]["chord_guesses"] == 1


def test_a_chord_on_an_unproven_right_flag_is_still_a_guess(tmp_path: Path) -> None:
    replay = _replay_of(tmp_path, ["oox", "ooo"], _flag_and_chord((2, 0), (1, 0)))
    review = review_replay(replay)
    assert review.outcome == "won"
    (guess,) = review.guesses
    assert (guess.move, guess.x, guess.y, guess.chord, guess.lost) == (3, 2, 1, (1, 0), False)
    assert guess.probability == 0.5
    assert review.survival_taken == pytest.approx(0.5)


def test_a_chord_that_opens_several_unproven_cells_is_several_guesses(tmp_path: Path) -> None:
    # The 1 at (2, 2) touches (1, 1), (2, 1) and (3, 1), at 1/2, 1/3 and 1/6 (the engine's
    # exact counts); the flag on (3, 1) is wrong, so the chord opens the other two.
    rows = ["oooox", "oxoox", "xoooo", "ooooo", "oooox"]
    actions = [
        ReplayAction("probe", 0, 4, 0.0),
        ReplayAction("flag", 3, 1, 1.0),
        ReplayAction("chord", 2, 2, 2.0),
    ]
    review = review_replay(_replay_of(tmp_path, rows, actions))
    assert review.outcome == "lost"
    cells = [(g.move, g.x, g.y, g.chord, g.lost) for g in review.guesses]
    assert cells == [(3, 1, 1, (2, 2), True), (3, 2, 1, (2, 2), False)]
    assert [g.probability for g in review.guesses] == pytest.approx([1 / 2, 1 / 3])
    # Opened together, both are safe only when (3, 1) holds the 1's mine: 1/6, not the
    # 1/2 * 2/3 of two separate guesses. (2, 1) is a mine in 2/3 of the layouts where
    # (1, 1) is safe.
    assert [g.conditional for g in review.guesses] == pytest.approx([1 / 2, 2 / 3])
    assert review.survival_taken == pytest.approx(1 / 6)
    report = review.as_json()
    check_consistent(report)
    assert [g["conditional"] for g in report["guesses"]] == pytest.approx([1 / 2, 2 / 3])


def test_a_chord_text_row_names_the_chorded_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = _replay_of(tmp_path, ["oox", "ooo"], _flag_and_chord((2, 1), (1, 0)))
    assert cli_main(["review", replay.source]) == 0
    (row,) = [line for line in capsys.readouterr().out.splitlines() if "chord on" in line]
    assert "(2, 0)" in row and "chord on (1, 0)" in row and row.endswith("<- lost")


def test_chained_probabilities_count_a_chords_cells_at_their_joint_risk() -> None:
    from minesweep_env.core.board import Board
    from minesweep_env.solver.probability import count_position
    from semiautomines_agents.coach import chained_probabilities

    # One mine, and the 1s see only (2, 0) and (2, 1): one of them is the mine, so the
    # second is certain once the first is safe, and both are never safe together.
    board = Board.from_rows(["01?", "01?"], total_mines=1)
    weights = count_position(board)
    cells = [(2, 0), (2, 1)]
    assert chained_probabilities(board, cells, weights, {}) == [0.5, 1.0]
    # A certain mine first: the cells after it keep their own probabilities.
    board = Board.from_rows(["01?", "01?", "00?"], total_mines=1)
    weights = count_position(board)
    assert chained_probabilities(board, cells, weights, {}) == [1.0, 0.0]
