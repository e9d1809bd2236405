"""Every ``semiautomines`` subcommand stopped by SIGTERM (``timeout``, ``kill``, a batch
scheduler) leaves as after Ctrl-C: status 143, one line saying it was interrupted, no
traceback, and a terminal program puts the terminal back.

Each subcommand is stopped where it would be waiting in real use:

- a command that reads a file is stopped while it waits for the file's text (a named
  pipe nobody has written to yet: a slow disk, a file still being made);
- a terminal program (``play``, ``watch``, ``replay``) is stopped mid-game in a
  pseudo-terminal;
- the long runs (``evaluate``, ``generate``, ``train``, ``serve``) have tests of their own
  that also check what they keep; :data:`TESTED_ELSEWHERE` names them.

:func:`test_every_subcommand_is_stopped_by_sigterm_somewhere` fails for a subcommand in
none of these lists, so a new one is tested under SIGTERM from the start.
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import subprocess
import sys
import time

import pytest
from interrupting import as_if_from_a_terminal
from paths import REPO, TESTS
from pty_terminal import Terminal, guesses_on_screen

from minesweep_env.cli.main import build_parser

CLI = [sys.executable, "-m", "minesweep_env.cli.main"]
NO_COMPILING = {**os.environ, "SEMIAUTOMINES_NO_JIT": "1"}
"""Loading the compiled kernels is not what these tests are about; the exact engine answers."""
REPLAY = TESTS / "data" / "replays" / "custom-8x11.avf"

READING_A_FILE = {
    "probabilities": ["board.txt"],
    "deduce": ["board.txt", "--rule-set", "complete"],
    "guess": ["board.txt"],
    "solvable": ["map.txt", "--rule-set", "complete"],
    "review": ["game.avf"],
}
"""Subcommand -> its arguments, the first being the file it reads (made a named pipe)."""

IN_A_TERMINAL = {
    "play": ["--board", "beginner"],
    "watch": ["--board", "expert", "--seed", "3"],
    "replay": [str(REPLAY)],
}
"""Subcommand -> its arguments in a pseudo-terminal."""

TESTED_ELSEWHERE = {
    "evaluate": (
        "tests/minesweep_env/cli/test_sigterm.py",
        "test_evaluate_on_two_workers_keeps_the_games_played",
    ),
    "generate": ("tests/minesweep_env/cli/test_sigterm.py", "test_generate_keeps_the_maps_written"),
    "train": (
        "tests/agents/training/test_train_stopping.py",
        "test_sigterm_saves_the_network_and_exits_143",
    ),
    "serve": (
        "tests/agents/web/test_web_serve.py",
        "test_serve_prints_its_address_answers_and_stops_cleanly",
    ),
}
"""Subcommand -> (test file, test) that stops it with SIGTERM and checks what it keeps.
``evaluate --backend ray`` is stopped in
``tests/agents/evaluation/test_evaluate_ray_sigterm.py``."""


def subcommands() -> set[str]:
    """Every subcommand ``semiautomines --help`` lists (the library's and the added ones)."""
    parser = build_parser()
    (choices,) = (
        action.choices
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    return set(choices)


def test_every_subcommand_is_stopped_by_sigterm_somewhere():
    tested = set(READING_A_FILE) | set(IN_A_TERMINAL) | set(TESTED_ELSEWHERE)
    assert subcommands() == tested, "add the new subcommand to a SIGTERM test"
    for path, name in TESTED_ELSEWHERE.values():
        assert f"def {name}(" in (REPO / path).read_text(), f"{path} has no {name}"


def _wait_until_reading(process: subprocess.Popen, deadline: float) -> None:
    """Until the command sits in its read of the pipe (Linux names the kernel function
    it sleeps in), so the signal finds it waiting for text, not still opening the file."""
    wchan = f"/proc/{process.pid}/wchan"
    while os.path.exists(wchan) and time.monotonic() < deadline:
        with open(wchan) as handle:
            if handle.read().endswith("pipe_read"):
                return
        time.sleep(0.02)


def _open_for_writing(fifo: str, process: subprocess.Popen, seconds: float = 60) -> int:
    """The pipe's writing end, once the command has opened it to read (it then waits for
    text that never comes)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:  # ENXIO: nobody reads it yet
            if error.errno != errno.ENXIO:
                raise
        else:
            _wait_until_reading(process, deadline)
            return writer
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            _, err = process.communicate(timeout=60)
            raise AssertionError(f"the command never read its file: {err[-2000:]}")
        time.sleep(0.05)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("command", sorted(READING_A_FILE))
def test_a_command_waiting_for_its_file_stops_on_sigterm(command, tmp_path):
    args = READING_A_FILE[command]
    fifo = str(tmp_path / args[0])
    os.mkfifo(fifo)
    process = subprocess.Popen(
        [*CLI, command, *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=NO_COMPILING,
        preexec_fn=as_if_from_a_terminal,
    )
    writer = _open_for_writing(fifo, process)
    try:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        os.close(writer)
    assert process.returncode == 143, err
    assert err.splitlines() == [f"semiautomines {command}: interrupted"]
    assert out == ""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pty")
@pytest.mark.parametrize("command", sorted(IN_A_TERMINAL))
def test_a_terminal_program_stopped_by_sigterm_puts_the_terminal_back(command, monkeypatch):
    monkeypatch.setenv("SEMIAUTOMINES_NO_JIT", "1")
    with Terminal(IN_A_TERMINAL[command], command=command, timeout=60.0) as terminal:
        terminal.wait_for(lambda t: t.cell(0, 0) != " ", "the field")
        if command == "watch":  # stopped while the agent plays, not before
            terminal.wait_for(lambda t: (guesses_on_screen(t) or 0) >= 1, "a guess")
        terminal.settle(quiet=0.2)
        assert not terminal.echo_on()  # curses has the terminal
        drawn = len(terminal.raw)
        os.kill(terminal.pid, signal.SIGTERM)
        assert terminal.wait_exit() == 143
        assert terminal.echo_on(), "the terminal was not restored"
        after = bytes(terminal.raw[drawn:])
        assert b"\x1b[?1049l" in after  # back from the alternate screen
        assert b"\x1b[?25h" in after  # the cursor shown again
        assert b"Traceback" not in terminal.raw
