"""The value network: what it sees, its files that hold data only, and its training."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
import torch
from paths import REPO
from positions import random_position

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.solver.probability.engine import mine_probabilities
from semiautomines_agents import make_agent
from semiautomines_agents.value.calibration import calibration
from semiautomines_agents.value.calibration import main as calibration_main
from semiautomines_agents.value.network import ValueFileError, ValueNet, load, save
from semiautomines_agents.value.planes import PLANES, planes
from semiautomines_agents.value.train import flip, log_loss_gain, main, scores

sys.path.append(str(REPO / "benchmarks"))

from guess_log import GuessLogger, log_games  # noqa: E402


@pytest.mark.parametrize("seed", range(25))
def test_the_planes_say_each_cell_s_state_once_and_its_exact_probability(seed):
    board, _ = random_position(seed)
    grid = board.grid
    seen = planes(board)
    assert seen.shape == (PLANES, *grid.shape) and seen.dtype == np.float32
    assert (seen[0] == 1).all()
    # every cell is exactly one of covered, flagged or a number
    assert (seen[1:12].sum(axis=0) == 1).all()
    for number in range(9):
        assert (seen[3 + number] == (grid == number)).all()
    covered = grid == COVERED
    if covered.any():
        exact = mine_probabilities(board)
        assert np.allclose(seen[12][covered], exact[covered], atol=1e-6)
        left = board.total_mines - int((grid == FLAGGED).sum())
        assert seen[13][0, 0] == pytest.approx(left / covered.sum())
    assert (seen[12][~covered] == 0).all()
    assert ((seen[12] >= 0) & (seen[12] <= 1)).all()


def test_values_are_probabilities_on_any_board_size():
    net = ValueNet(channels=4, layers=2)
    for seed in range(10):
        board, _ = random_position(seed, max_side=8)
        value = net.values([board])
        assert value.shape == (1,) and 0 <= value[0] <= 1


def test_a_flip_keeps_the_batch_and_mirrors_the_board():
    batch = torch.arange(2 * PLANES * 3 * 4, dtype=torch.float32).reshape(2, PLANES, 3, 4)
    seen = {
        tuple(flip(batch, torch.Generator().manual_seed(s))[0, 0, 0].tolist()) for s in range(20)
    }
    assert len(seen) == 4  # none, across, down, both
    assert all(sorted(row) in ([0, 1, 2, 3], [8, 9, 10, 11]) for row in map(list, seen))


def test_a_saved_network_loads_as_the_same_function(tmp_path):
    net = ValueNet(channels=5, layers=2)
    weights = tmp_path / "value.pt"
    save(net, weights, {"note": "test"})
    again = load(weights)
    board, _ = random_position(3, max_side=8)
    assert again.values([board]) == pytest.approx(net.values([board]))
    meta = json.loads(weights.with_suffix(".json").read_text())
    assert meta["channels"] == 5 and meta["training"] == {"note": "test"}


def test_tampered_or_hostile_files_are_refused(tmp_path):
    weights = tmp_path / "value.pt"
    save(ValueNet(channels=3, layers=1), weights, {})
    weights.write_bytes(weights.read_bytes() + b"\0")
    with pytest.raises(ValueFileError, match="not the weights"):
        load(weights)
    sidecar = weights.with_suffix(".json")
    meta = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps(meta | {"channels": 10**7}))
    with pytest.raises(ValueFileError, match="channels"):
        load(weights)
    sidecar.write_text("[]")
    with pytest.raises(ValueFileError, match="not a"):
        load(weights)


def test_scores_of_the_constant_guess_are_its_entropy():
    labels = np.array([1.0, 0.0, 1.0, 1.0])
    figures = scores(np.full(4, 0.75), labels)
    assert figures["log_loss"] == pytest.approx(
        -(0.75 * np.log(0.75) + 0.25 * np.log(0.25)), abs=1e-5
    )
    assert figures["brier"] == pytest.approx(0.1875)


def test_the_log_loss_saved_is_paired_and_its_interval_is_by_game():
    labels = np.array([1.0, 0.0, 1.0, 0.0])
    games = np.array([0, 0, 1, 1])
    same = log_loss_gain(np.full(4, 0.5), np.full(4, 0.5), labels, games)
    assert same == {"mean": 0.0, "low": 0.0, "high": 0.0}
    sharper = log_loss_gain(np.array([0.9, 0.1, 0.8, 0.2]), np.full(4, 0.5), labels, games)
    assert sharper["low"] < sharper["mean"] < sharper["high"]
    assert sharper["mean"] == pytest.approx(np.log(2) + (np.log(0.9) + np.log(0.8)) / 2, abs=1e-5)


def test_training_writes_a_network_with_held_out_figures(tmp_path, capsys):
    log = tmp_path / "guesses.jsonl"
    log_games("intermediate", "safe", range(40), 0, GuessLogger(make_agent("search")), log)
    out = tmp_path / "value.pt"
    argv = ["--guesses", str(log), "--out", str(out), "--epochs", "1", "--channels", "4"]
    assert main([*argv, "--layers", "2", "--no-progress"]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    training = meta["training"]
    assert training["held_out_games"] >= 1 and training["positions"] >= 1
    assert set(training["held_out"]) == {"log_loss", "brier"}
    saved = training["log_loss_saved"]
    assert saved["low"] <= saved["mean"] <= saved["high"]
    assert 0 <= training["held_out"]["brier"] <= 1
    assert load(out).layers == 2
    assert '"held_out"' in capsys.readouterr().out


@pytest.mark.parametrize(
    "bad, message",
    [
        (["--out", "x.bin"], "--out must name a .pt file"),
        (["--epochs", "0"], "must be at least 1"),
        (["--guesses", "missing"], "no such file"),
        ([], "no guessed position"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(tmp_path, capsys, bad, message):
    log = tmp_path / "guesses.jsonl"
    log.write_text('{"game": 0}\n')
    argv = ["--guesses", str(log), "--out", str(tmp_path / "v.pt"), "--no-progress"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, *bad])
    assert stop.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "error:" in last and message in last
    assert not (tmp_path / "v.pt").exists()


def test_the_shipped_network_loads_and_values_an_expert_position():
    weights = REPO / "agents" / "models" / "value_expert.pt"
    net = load(weights)
    grid = np.full((16, 30), COVERED, dtype=np.int8)
    grid[0, 0] = 1
    start, late = Board(grid, 99), Board(np.where(np.arange(480).reshape(16, 30) < 400, 0, -1), 5)
    values = net.values([start])
    assert 0 < values[0] < 1
    assert 0 <= net.values([late])[0] <= 1


def test_calibration_bins_hold_equal_counts_and_their_win_shares():
    predicted = np.linspace(0, 1, 100)
    labels = (predicted > 0.5).astype(float)
    rows = calibration(predicted, labels, bins=4)
    assert [count for *_, count in rows] == [25, 25, 25, 25]
    assert [won for _, won, _, _ in rows] == [0.0, 0.0, 1.0, 1.0]
    assert all(0 <= mean <= 1 and half >= 0 for mean, _, half, _ in rows)


def test_the_calibration_command_plots_the_held_out_games(tmp_path, capsys):
    log = tmp_path / "guesses.jsonl"
    log_games("intermediate", "safe", range(30), 0, GuessLogger(make_agent("search")), log)
    weights = tmp_path / "value.pt"
    save(ValueNet(channels=3, layers=1), weights, {})
    out = tmp_path / "calibration.png"
    argv = ["--guesses", str(log), "--weights", str(weights), "--out", str(out)]
    assert calibration_main([*argv, "--no-progress"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "plot written" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        calibration_main([*argv[:4], "--out", str(tmp_path / "c.svg")])
    assert stop.value.code == 2
