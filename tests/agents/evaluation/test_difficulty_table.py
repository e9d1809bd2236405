"""Difficulty in every result: games.csv's appended columns, the mean 3BV of
results.md, the win-rate-by-3BV table and plot of every run folder."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from minesweep_env.core.difficulty import Difficulty, measure
from semiautomines_agents.evaluation import Settings, board_target, evaluate
from semiautomines_agents.evaluation.difficulty_table import (
    MIN_BIN_GAMES,
    bbbv_bins,
    bbbv_panels,
    bbbv_table,
    plot_bbbv,
)
from semiautomines_agents.evaluation.paired import GAME_KEYS, game_number
from semiautomines_agents.evaluation.records import GameRecord
from semiautomines_agents.evaluation.report import write_run


def _record(index: int, won: bool, bbbv: int) -> GameRecord:
    return GameRecord(index, won, 1, 1.0, 0.01, difficulty=Difficulty(bbbv, bbbv, 1, 0))


def test_bins_are_deciles_with_enough_games_and_wider_with_few():
    values = list(range(1, 1001))
    bins = bbbv_bins(values, 1000)
    assert len(bins) == 10
    assert bins[0][0] == 1 and bins[-1][1] == 1000
    assert all(b[0] == a[1] + 1 for a, b in zip(bins, bins[1:], strict=False))  # no gap
    assert len(bbbv_bins(values[:350], 350)) == 3  # 350 games: 3 bins of >= 100
    assert bbbv_bins(values[:150], 150) == [(1, 150)]  # fewer than 200: one bin
    assert bbbv_bins([7] * 500, 500) == [(7, 7)]  # one value: one bin


def test_the_table_uses_the_same_bins_for_every_agent_and_says_when_games_are_few():
    # a wins 90% of its easy layouts (3BV 10-14) and 20% of its hard ones (40-44), at
    # every 3BV of each group alike (the outcome depends on i // 5, the 3BV on i % 5)
    easy_wins = [_record(i, (i // 5) % 10 != 0, 10 + i % 5) for i in range(300)]
    hard_losses = [_record(300 + i, (i // 5) % 5 == 0, 40 + i % 5) for i in range(300)]
    records = {
        ("a", "expert"): easy_wins + hard_losses,
        ("b", "expert"): [_record(i, True, 10 + i % 40) for i in range(600)],
    }
    table = bbbv_table(records)
    assert "`expert`: 6 bins (600 games per agent: deciles need 1000)" in table
    assert "| 3BV | a | b |" in table
    rows = [line for line in table.splitlines() if line[:3] in ("| 1", "| 4")]
    assert rows[0].startswith("| 10") and rows[0].split("|")[2].strip().startswith("90.0%")
    assert rows[-1].split("|")[2].strip().startswith("20.0%")


def test_few_games_make_one_bin_and_the_table_says_so():
    records = {("a", "beginner"): [_record(i, True, 5 + i) for i in range(MIN_BIN_GAMES)]}
    assert "one bin, too few games to cut (100 per agent, 200 needed)" in bbbv_table(records)


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    settings = Settings(seed=3)
    run = evaluate(
        ["random", "greedy"], [board_target("beginner")], settings, games=40, progress=False
    )
    folder = tmp_path_factory.mktemp("run")
    write_run(run, folder, "semiautomines evaluate ...")
    return run, folder


def test_games_csv_appends_the_difficulty_of_the_layout_after_the_first_click(run_folder):
    run, folder = run_folder
    with open(folder / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(GAME_KEYS)
    assert list(GAME_KEYS[:8]) == [
        "agent", "board", "game", "won", "guesses", "safe_opened", "seconds", "invalid",
    ]  # fmt: skip
    assert GAME_KEYS[8:] == ("bbbv", "zini", "openings", "islands")
    assert len(rows) == 80 and game_number(rows[0]) == 0
    for record in run.records[("random", "beginner")]:
        assert record.difficulty is not None
        assert 1 <= record.difficulty.bbbv <= 71
    # the measure of a game is its layout's after the first click: replayed, it agrees
    first = rows[0]
    assert int(first["bbbv"]) >= int(first["openings"])
    assert int(first["bbbv"]) >= int(first["islands"])


def test_results_show_the_mean_3bv_and_the_table_and_plot_by_3bv(run_folder):
    run, folder = run_folder
    text = (folder / "results.md").read_text()
    header = next(line for line in text.splitlines() if line.startswith("| agent"))
    assert header.endswith("| games/s | mean 3BV |")
    values = [r.difficulty.bbbv for r in run.records[("random", "beginner")]]
    assert f"| {np.mean(values):.1f} |" in text
    assert "Win rate by 3BV" in text and "`beginner`: one bin, too few games" in text
    assert (folder / "win_rate_by_bbbv.png").read_bytes()[:4] == b"\x89PNG"
    assert run.rows[0]["mean_bbbv"] == pytest.approx(np.mean(values))


def test_a_saved_game_measures_as_its_record(tmp_path):
    settings = Settings(seed=1, save_games=True, first_click="safe")
    run = evaluate(["random"], [board_target("intermediate")], settings, games=5, progress=False)
    for record in run.records[("random", "intermediate")]:
        assert record.saved is not None
        assert record.difficulty == measure(record.saved.layout_after_first_click().mines)


def _png_size(path) -> tuple[int, int]:
    from PIL import Image

    with Image.open(path) as image:
        return image.size


def _maps_and_a_board() -> dict[tuple[str, str], list[GameRecord]]:
    """An expert board, a suite of maps played 150 times and one map file played once."""
    return {
        ("a", "expert"): [_record(i, i % 3 != 0, 100 + i % 60) for i in range(300)],
        ("a", "suite/"): [_record(i, i % 2 == 0, 20 + i % 30) for i in range(150)],
        ("a", "one.mbf"): [_record(0, True, 12)],
    }


def test_maps_share_one_panel_and_a_map_with_few_games_is_left_out_and_counted():
    panels = bbbv_panels(_maps_and_a_board(), maps={"suite/", "one.mbf"})
    assert list(panels.boards) == ["expert"] and list(panels.maps) == ["suite/"]
    assert panels.left_out == ("one.mbf",) and panels.count == 2
    assert panels.caption.startswith("1 of 2 maps left out: played fewer than 100 times")
    # Without the map names every board gets a panel of its own (the tables' view).
    assert bbbv_panels(_maps_and_a_board()).count == 3


def test_the_plot_has_a_panel_per_board_and_one_for_the_maps(tmp_path):
    path = tmp_path / "win_rate_by_bbbv.png"
    assert plot_bbbv(_maps_and_a_board(), path, "title", maps={"suite/", "one.mbf"})
    width, _ = _png_size(path)
    assert width == pytest.approx(2 * 4.2 * 110, abs=2)  # two panels side by side, not three
    only_few = {("a", "one.mbf"): [_record(0, True, 12)]}
    assert not plot_bbbv(only_few, tmp_path / "none.png", "title", maps={"one.mbf"})
    assert not (tmp_path / "none.png").exists()


def test_a_run_folder_leaves_a_map_played_a_few_times_out_of_the_plot(tmp_path):
    from minesweep_env.core.layout import MineLayout
    from minesweep_env.formats.mbf import format_mbf
    from semiautomines_agents.evaluation import map_targets

    board = tmp_path / "one.mbf"
    board.write_bytes(format_mbf(MineLayout.from_rows(["xoooo", "ooooo", "ooooo", "oooox"])))
    targets = [board_target("beginner"), *map_targets([board])]
    run = evaluate(["random"], targets, Settings(seed=2), games=3, progress=False)
    folder = tmp_path / "run"
    folder.mkdir()
    write_run(run, folder, "semiautomines evaluate ...")
    width, _ = _png_size(folder / "win_rate_by_bbbv.png")
    assert width == pytest.approx(4.2 * 110, abs=2)  # the beginner panel alone
    assert f"`{targets[1].name}`" in (folder / "results.md").read_text()  # the table lists it
