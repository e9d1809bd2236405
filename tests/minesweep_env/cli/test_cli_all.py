"""One CLI: every subcommand through the installed ``semiautomines`` entry point.

For each subcommand: ``--help`` shows an example, a success path gives exit 0
(and valid JSON where the output is data), bad input gives exit 2 with exactly
one line on stderr and no traceback. Deeper tests of each command live in its
own test file; this one holds them all to the same contract.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from paths import REPO

from minesweep_env.cli.main import SUBCOMMANDS

ENTRY_POINT = Path(sys.executable).parent / "semiautomines"
IOCCC_MAP = REPO / "maps" / "ioccc" / "hilbert4x4.txt"
POSITION = "4 2 4\n????\n!23!\n"
"""A position: (0, 0) is safe, (3, 0) a mine, (1, 0) and (2, 0) even odds."""


def run(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ENTRY_POINT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def assert_one_line_error(done: subprocess.CompletedProcess, fragment: str = "") -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("semiautomines"), lines[0]
    assert fragment in lines[0]


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(POSITION)
    return path


def test_the_entry_point_is_installed() -> None:
    assert ENTRY_POINT.exists(), "pip install -e . makes the semiautomines script"


def test_top_level_help_lists_every_subcommand_and_the_exit_codes() -> None:
    done = run("--help")
    assert done.returncode == 0
    for name in SUBCOMMANDS:
        assert name in done.stdout
    assert "0 success, 1" in done.stdout and "2 bad input" in done.stdout


def test_no_subcommand_and_an_unknown_one_are_bad_input() -> None:
    assert run().returncode == 2
    assert_one_line_error(run("fly"), "invalid choice")


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_has_help_with_an_example(name: str) -> None:
    done = run(name, "--help")
    assert done.returncode == 0, done.stderr
    assert "example" in done.stdout.lower()
    assert f"semiautomines {name} " in done.stdout.split("example", 1)[1]


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_rejects_an_unknown_option_in_one_line(name: str) -> None:
    assert_one_line_error(run(name, "--no-such-option"), "error:")


@pytest.mark.parametrize("name", ["probabilities", "deduce", "solvable", "generate"])
def test_data_commands_offer_json(name: str) -> None:
    assert "--json" in run(name, "--help").stdout


# --- success paths ---------------------------------------------------------------


def test_probabilities_success_and_json(position: Path) -> None:
    done = run("probabilities", str(position))
    assert done.returncode == 0, done.stderr
    data = json.loads(run("probabilities", str(position), "--json").stdout)
    assert (data["width"], data["height"], data["mines"]) == (4, 2, 4)
    assert data["probabilities"][0] == [0, 0.5, 0.5, 1]


def test_deduce_success_and_json(position: Path) -> None:
    done = run("deduce", str(position), "--rule-set", "complete")
    assert done.returncode == 0, done.stderr
    assert "o" in done.stdout and "x" in done.stdout
    data = json.loads(run("deduce", str(position), "--json").stdout)
    assert data == {"safe": [[0, 0]], "mines": [[3, 0]]}


def test_solvable_success_negative_and_json(tmp_path: Path) -> None:
    easy, fifty = tmp_path / "easy.txt", tmp_path / "fifty.txt"
    easy.write_text("oooo\noooo\nooox\n")
    fifty.write_text("xooo\noooo\n")
    assert run("solvable", str(easy), "--start", "0", "0").stdout == "solvable\n"
    negative = run("solvable", str(fifty), "--start", "3", "0")
    assert negative.returncode == 1 and negative.stdout.startswith("not solvable\n")
    data = json.loads(run("solvable", str(fifty), "--start", "3", "0", "--json").stdout)
    assert data["solvable"] is False and data["covered_safe"] == 1


def test_generate_success_and_json(tmp_path: Path) -> None:
    done = run("generate", "--board", "beginner", "--no-guess", "--seed", "1", "--json",
               "--out", str(tmp_path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = Path(json.loads(done.stdout)["maps"][0]["path"])
    assert written.exists() and written.with_suffix(".start").read_text() == "4 4\n"


def test_evaluate_success(tmp_path: Path) -> None:
    done = run("evaluate", "--agents", "random,greedy", "--boards", "5x5x3", "--maps",
               "none", "--games", "4", "--workers", "1", "--out", str(tmp_path),
               "--no-progress")  # fmt: skip
    assert done.returncode == 0, done.stderr
    (run_dir,) = tmp_path.iterdir()
    results = json.loads((run_dir / "results.json").read_text())
    assert results  # the data file the printed table comes from
    assert "| random |" in done.stdout and "| greedy |" in done.stdout


@pytest.mark.slow
def test_train_success(tmp_path: Path) -> None:
    done = run("train", "--board", "4x4x2", "--total-timesteps", "64", "--num-envs", "1",
               "--n-steps", "32", "--batch-size", "32", "--n-epochs", "1", "--eval-freq", "0",
               "--checkpoint-freq", "0", "--no-progress-bar", "--runs-dir", str(tmp_path),
               "--run-name", "tiny")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "tiny" / "final.pt").exists()  # weights only, to play
    assert (tmp_path / "tiny" / "final.sb3-trusted-only.zip").exists()  # to resume


def test_play_success_in_a_terminal_quits_with_0() -> None:
    """play needs a terminal: run it in a pseudo-terminal, wait for the board, press q."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    proc = subprocess.Popen(
        [str(ENTRY_POINT), "play", str(IOCCC_MAP), "--no-animate"],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(slave)
    shown = b""
    deadline = time.monotonic() + 30
    try:
        while len(shown) < 200 and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                shown += os.read(master, 65536)
        assert shown, "play drew nothing"
        os.write(master, b"q")
        while proc.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        proc.stderr.close()


# --- bad input: exit 2, one line ----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "MISSING"], "no such file"),
        (["play", "--board", "beginner", "--width", "5"], ""),
        (["probabilities", "MISSING"], "no such file"),
        (["probabilities", "BAD"], "bad.txt:3:"),
        (["probabilities", "POSITION", "--mines", "-1"], ""),
        (["deduce", "MISSING"], "no such file"),
        (["deduce", "POSITION", "--rule-set", "nope"], "nope"),
        (["solvable", "MISSING", "--start", "0", "0"], "no such file"),
        (["solvable", "BAD", "--start", "0", "0"], "bad.txt:2:"),
        (["generate", "--board", "beginner"], "--out"),
        (["generate", "--board", "beginner", "--width", "3", "--out", "OUT"], "not both"),
        (["evaluate", "--agents", "nope", "--maps", "none", "--out", "OUT"], "nope"),
        (["evaluate", "--maps", "MISSING", "--boards", "none", "--out", "OUT"], "MISSING"),
        (["train", "--board", "0x0x1", "--runs-dir", "OUT"], "0x0"),
        (["train", "--board", "nope", "--runs-dir", "OUT"], "nope"),
    ],
)
def test_bad_input_gives_exit_2_and_one_line(
    tmp_path: Path, position: Path, args: list[str], fragment: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("3 3\n???\n?x\n???\n")
    paths = {
        "MISSING": str(tmp_path / "missing.txt"),
        "BAD": str(bad),
        "POSITION": str(position),
        "OUT": str(tmp_path / "out"),
    }
    fragment = fragment.replace("MISSING", "missing.txt")
    done = run(*(paths.get(a, a) for a in args))
    assert_one_line_error(done, fragment)


# --- one subcommand, one module ------------------------------------------------------


def _choices(parser) -> set[str]:
    """The subcommand names a built parser accepts."""
    (subparsers,) = [a for a in parser._actions if a.dest == "command"]
    return set(subparsers.choices)


def test_a_named_subcommand_builds_only_its_own_parser() -> None:
    from minesweep_env.cli.main import build_parser

    everything = _choices(build_parser())
    assert set(SUBCOMMANDS) | {"evaluate", "guess"} <= everything
    assert _choices(build_parser("guess")) == {"guess"}
    assert _choices(build_parser("deduce")) == {"deduce"}
    assert _choices(build_parser("fly")) == everything  # so "invalid choice" lists them all


def test_the_command_is_the_first_word_unless_an_option_comes_first() -> None:
    from minesweep_env.cli.main import requested_command

    assert requested_command(["guess", "board.txt", "--json"]) == "guess"
    assert requested_command(["--help", "guess"]) is None
    assert requested_command([]) is None


def test_a_library_subcommand_imports_nothing_of_the_agents_package(position: Path) -> None:
    """Why it matters: loading the harness and the trainer for every command cost a tenth
    of a second of each answer (``benchmarks/guess_speed.py``)."""
    code = (
        "import contextlib, io, sys\n"
        "from minesweep_env.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main(['probabilities', {str(position)!r}, '--json'])\n"
        "print(status, sorted({m.split('.')[0] for m in sys.modules} & "
        "{'semiautomines_agents', 'torch', 'numba'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["0", "[]"], done.stderr


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    """``semiautomines guess ... | head -1``: the pipe closes under the writer, which
    stops quietly with SIGPIPE's status instead of a ``BrokenPipeError`` traceback."""
    import subprocess
    import sys

    position = tmp_path / "position.txt"
    position.write_text("3 1 1\n?1?\n")
    command = [sys.executable, "-m", "minesweep_env.cli.main", "guess", str(position)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before anything is written
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=120) == 141, stderr
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
