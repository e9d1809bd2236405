"""The one board size limit (``minesweep_env.core.board_spec``), held at every entry point.

The readers, the env and the CLI are covered with hostile input in
``tests/fuzz/`` and ``tests/minesweep_env/envs/test_env_misuse.py``; this file holds the limit
itself, the Python entry points of the generator, and the time an absurd
request takes to be refused.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from minesweep_env.cli.main import main
from minesweep_env.core.board_spec import (
    MAX_CELLS,
    MAX_SIDE,
    as_count,
    check_board_size,
    parse_board_spec,
    size_problem,
)
from minesweep_env.generation import generate_no_guess, generate_random


@pytest.mark.parametrize(
    ("width", "height"),
    [(1, 1), (MAX_SIDE, MAX_CELLS // MAX_SIDE), (MAX_CELLS // MAX_SIDE, MAX_SIDE), (1024, 1024)],
)
def test_sizes_at_the_limit_are_accepted(width, height):
    assert size_problem(width, height) is None
    assert check_board_size(width, height, 0) == (width, height, 0)


@pytest.mark.parametrize(
    ("width", "height"),
    [(MAX_SIDE + 1, 1), (1, MAX_SIDE + 1), (1025, 1024), (10**12, 5), (5, 10**12)],
)
def test_sizes_past_the_limit_are_refused_naming_it(width, height):
    problem = size_problem(width, height)
    assert problem is not None and f"{width}x{height} is too large" in problem
    assert "4096" in problem and "1,048,576" in problem


@pytest.mark.parametrize("spec", ["5000x5000x10", "4097x1x0", "1025x1024x1", "9" * 30 + "x1x1"])
def test_board_specs_past_the_limit(spec):
    with pytest.raises(ValueError, match="too large"):
        parse_board_spec(spec)


@pytest.mark.parametrize("value", [True, 2.0, "3", None, [1]])
def test_counts_must_be_integers(value):
    with pytest.raises(TypeError, match="n must be an integer"):
        as_count(value, "n")


def test_numpy_integers_are_counts():
    assert as_count(np.uint8(7), "n") == 7 and type(as_count(np.int64(7), "n")) is int


@pytest.mark.parametrize(
    "make",
    [
        lambda rng: generate_random(100_000, 100_000, 5, rng),
        lambda rng: generate_random(100_000, 100_000, 5, rng, start=(0, 0)),
        lambda rng: generate_no_guess(100_000, 100_000, 5, rng, (0, 0), "substitution"),
    ],
)
def test_the_generator_refuses_absurd_sizes_before_drawing(make):
    with pytest.raises(ValueError, match="too large"):
        make(np.random.default_rng(0))


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--width", "100000", "--height", "100000", "--mines", "5", "--out", "D"],
        ["evaluate", "--agents", "random", "--boards", "5000x5000x10", "--maps", "none"],
        ["play", "--width", "100000", "--height", "100000"],
        ["train", "--board", "5000x5000x10"],
        ["train", "--num-envs", "100000000", "--n-steps", "100000000"],
    ],
)
def test_absurd_requests_are_refused_within_a_second(args, capsys):
    begin = time.perf_counter()
    status = main(args)
    elapsed = time.perf_counter() - begin
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().split("\n")) == 1, err
    assert elapsed < 1.0, f"{args}: {elapsed:.2f} s"
