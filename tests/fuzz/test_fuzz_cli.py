"""Fuzz every subcommand's file and number inputs, in process through ``main([...])``.

The contract of ``semiautomines``: bad input ends with exit status 2 and
exactly one line on stderr, never a traceback; ``solvable`` may also answer 1
(not solvable) and any command 0 when the input happens to be good. Files get
the readers' hostile contents; numbers get negatives, zeros, values past the
size limit and text that is no number. Inputs are drawn so that a good one is
also tiny, which keeps each call well under a second.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import FILE_BYTES, INTEGERS, NUMBER_TOKENS

from minesweep_env.cli.main import main
from semiautomines_agents.commands.evaluate import MAX_GAMES, MAX_WORKERS

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_calls = itertools.count()


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str], ok=(0,)) -> int:
    """Run ``semiautomines ARGS`` in process; hold it to the exit-status contract."""
    capsys.readouterr()
    try:
        status = main(args)
    except SystemExit as stop:  # argparse's own exits (bad flags, --help)
        status = stop.code if isinstance(stop.code, int) else 2
    err = capsys.readouterr().err
    assert status in (*ok, 2), (args, status, err)
    if status == 2:
        lines = err.strip("\n").split("\n")
        assert len(lines) == 1 and lines[0].startswith("semiautomines"), (args, err)
        assert "Traceback" not in err
    return status


def a_file(folder: Path, data: bytes, name: str = "input.txt") -> str:
    path = folder / f"{next(_calls)}-{name}"
    path.write_bytes(data)
    return str(path)


NUMBER_ARGS = st.one_of(INTEGERS.map(str), NUMBER_TOKENS)
"""What a user may type after a numeric flag."""


@pytest.mark.parametrize("command", ["probabilities", "deduce"])
@FUZZ
@given(data=FILE_BYTES, mines=st.none() | NUMBER_ARGS)
def test_position_commands(command, data, mines, tmp_path, capsys, tried):
    tried[command] += 1
    args = [command, a_file(tmp_path, data)]
    if mines is not None:
        args += [f"--mines={mines}"]
    run_cli(args, capsys)


@FUZZ
@given(data=FILE_BYTES, start=st.none() | st.tuples(NUMBER_ARGS, NUMBER_ARGS))
def test_solvable(data, start, tmp_path, capsys, tried):
    tried["solvable"] += 1
    args = ["solvable", a_file(tmp_path, data)]
    if start is not None:
        args += [f"--start={start[0]}", start[1]] if start[1][:1] != "-" else ["--start=0", "0"]
    run_cli(args, capsys, ok=(0, 1))


@FUZZ
@given(data=FILE_BYTES, sidecar=FILE_BYTES)
def test_solvable_with_a_start_sidecar(data, sidecar, tmp_path, capsys, tried):
    tried["solvable"] += 1
    path = Path(a_file(tmp_path, data, "map.txt"))
    path.with_suffix(".start").write_bytes(sidecar)
    run_cli(["solvable", str(path)], capsys, ok=(0, 1))


@FUZZ
@given(data=FILE_BYTES, seed=st.none() | NUMBER_ARGS)
def test_play_map(data, seed, tmp_path, capsys, tried):
    # Tests have no terminal: a good map ends in "play needs a terminal" (exit 2 too),
    # so every map and number is checked before the game would start.
    tried["play"] += 1
    args = ["play", a_file(tmp_path, data)]
    if seed is not None:
        args += [f"--seed={seed}"]
    run_cli(args, capsys)


@FUZZ
@given(width=NUMBER_ARGS, height=NUMBER_ARGS, mines=st.none() | NUMBER_ARGS)
def test_play_sizes(width, height, mines, capsys, tried):
    tried["play"] += 1
    args = ["play", f"--width={width}", f"--height={height}"]
    if mines is not None:
        args += [f"--mines={mines}"]
    run_cli(args, capsys)


SMALL_OR_BAD = st.one_of(st.integers(1, 6).map(str), NUMBER_ARGS)
"""A tiny good value or a bad one: a good combination runs in milliseconds."""


@FUZZ
@given(
    width=SMALL_OR_BAD,
    height=SMALL_OR_BAD,
    mines=SMALL_OR_BAD,
    count=st.sampled_from(["1", "2"]) | NUMBER_ARGS,
    seed=st.none() | NUMBER_ARGS,
    no_guess=st.booleans(),
)
def test_generate(width, height, mines, count, seed, no_guess, tmp_path, capsys, tried):
    tried["generate"] += 1
    out = tmp_path / f"out{next(_calls)}"
    args = ["generate", f"--width={width}", f"--height={height}", f"--mines={mines}"]
    args += [f"--count={count}", "--out", str(out), "--max-draws=3"]
    args += [f"--seed={seed}"] if seed is not None else []
    args += ["--no-guess"] if no_guess else []
    run_cli(args, capsys)


def test_generate_out_that_is_a_file(tmp_path, capsys, tried):
    tried["generate"] += 1
    out = a_file(tmp_path, b"")
    args = ["generate", "--board", "beginner", "--out", out]
    assert run_cli(args, capsys) == 2


@FUZZ
@given(
    board=st.one_of(
        st.tuples(SMALL_OR_BAD, SMALL_OR_BAD, SMALL_OR_BAD).map("x".join),
        st.text(max_size=20),
    ),
    games=st.sampled_from(["1"]) | NUMBER_ARGS,
    workers=st.sampled_from(["1"]) | NUMBER_ARGS,
    seed=NUMBER_ARGS,
)
def test_evaluate_numbers(board, games, workers, seed, tmp_path, capsys, tried):
    tried["evaluate"] += 1
    if _within(games, MAX_GAMES) and _within(workers, MAX_WORKERS):
        # Good numbers would play (with workers > 1 through a pool of processes): keep
        # this test to the checks (the map test plays). Past a limit is still checked.
        games = "0"
    args = ["evaluate", "--agents", "random", f"--boards={board}", "--maps", "none"]
    args += [f"--games={games}", f"--workers={workers}", f"--seed={seed}", "--no-progress"]
    args += ["--out", str(tmp_path)]
    run_cli(args, capsys)


@FUZZ
@given(data=FILE_BYTES)
def test_evaluate_map_files(data, tmp_path, capsys, tried):
    tried["evaluate"] += 1
    args = ["evaluate", "--agents", "random", "--boards", "none", "--games", "1"]
    args += ["--workers", "1", "--no-progress", "--out", str(tmp_path / "runs")]
    run_cli([*args, "--maps", a_file(tmp_path, data)], capsys)


def _within(text: str, most: int) -> bool:
    """Whether ``text`` is a number the command accepts: 1 to ``most``."""
    try:
        return 1 <= int(text) <= most
    except ValueError:
        return False


def _positive(text: str) -> bool:
    try:
        return int(text) > 0
    except ValueError:
        return False


@FUZZ
@given(
    board=st.one_of(st.tuples(SMALL_OR_BAD, SMALL_OR_BAD, SMALL_OR_BAD).map("x".join)),
    num_envs=NUMBER_ARGS,
    n_steps=NUMBER_ARGS,
)
def test_train_numbers(board, num_envs, n_steps, tmp_path, capsys, tried):
    tried["train"] += 1
    if _positive(num_envs) and _positive(n_steps):
        num_envs = "0"  # a good set of numbers would train: only the checks are fuzzed here
    args = ["train", f"--board={board}", f"--num-envs={num_envs}", f"--n-steps={n_steps}"]
    run_cli([*args, "--runs-dir", str(tmp_path)], capsys)


PATH_CASES = {
    "probabilities": lambda p: ["probabilities", p],
    "deduce": lambda p: ["deduce", p],
    "solvable": lambda p: ["solvable", p, "--start", "0", "0"],
    "play": lambda p: ["play", p],
    "evaluate": lambda p: ["evaluate", "--agents", "random", "--boards", "none", "--maps", p],
}


@pytest.mark.parametrize("command", sorted(PATH_CASES))
def test_paths_that_are_no_map(command, tmp_path, capsys, tried):
    empty_folder = tmp_path / "empty"
    empty_folder.mkdir()
    for path in (tmp_path / "missing.txt", empty_folder, a_file(tmp_path, b""), "/dev/null"):
        tried[command] += 1
        status = run_cli(PATH_CASES[command](str(path)), capsys)
        assert status == 2, (command, path)


def test_the_issues_examples_fail_fast(tmp_path, capsys):
    """Three absurd sizes and counts: one line, exit 2, no allocation."""
    cases = [
        ["generate", "--width", "100000", "--height", "100000", "--mines", "5", "--out", "D"],
        ["evaluate", "--agents", "random", "--boards", "5000x5000x10", "--maps", "none"],
        ["probabilities", a_file(tmp_path, b"5 999999999999\n?????\n")],
    ]
    for args in cases:
        assert run_cli(args, capsys) == 2
    assert not (Path.cwd() / "D").exists()
