"""``semiautomines serve`` as a user starts it: one line with the address, requests over
HTTP, the Host check, and a clean stop on SIGTERM and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

COMMAND = [sys.executable, "-m", "minesweep_env.cli.main", "serve"]
# The Python paths answer in the server: these tests are about the command, and loading
# the compiled kernels on its first request would only slow them down.
SERVER_ENVIRONMENT = {**os.environ, "SEMIAUTOMINES_NO_JIT": "1"}
LINE = re.compile(r"^serving on http://(127\.0\.0\.1|0\.0\.0\.0):(\d+)/$")


@contextmanager
def serving(*arguments: str) -> Iterator[tuple[subprocess.Popen, str, int]]:
    """The server started with ``arguments``: (process, first stdout line, port)."""
    process = subprocess.Popen(
        [*COMMAND, "--no-browser", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=SERVER_ENVIRONMENT,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().rstrip("\n")
        match = LINE.match(line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        yield process, line, int(match.group(2))
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


@pytest.mark.parametrize(("stop", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_serve_prints_its_address_answers_and_stops_cleanly(stop, status):
    with serving("--port", "0") as (process, line, port):
        assert port != 0
        base = f"http://127.0.0.1:{port}"
        agents = httpx.get(f"{base}/api/agents", timeout=30)
        assert agents.status_code == 200 and agents.json()["default"] == "search"
        local = httpx.get(f"{base}/api/agents", headers={"Host": f"localhost:{port}"}, timeout=30)
        assert local.status_code == 200
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1"):
            rebound = httpx.get(f"{base}/api/agents", headers={"Host": host}, timeout=30)
            assert rebound.status_code == 400 and rebound.json() == {
                "error": "unexpected Host header"
            }
        analysed = httpx.post(
            f"{base}/api/analyse", json={"board": "3 3 1\n1??\n???\n???\n"}, timeout=30
        )
        assert analysed.status_code == 200 and analysed.json()["width"] == 3
        process.send_signal(stop)
        assert process.wait(timeout=30) == status
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read() == ""
        errors = process.stderr.read()
        assert "Traceback" not in errors


def test_a_host_other_than_loopback_prints_a_warning():
    with serving("--host", "0.0.0.0", "--port", "0") as (process, line, port):
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 143
        assert process.stderr is not None
        warning = process.stderr.readline()
        assert "warning: 0.0.0.0 is not a loopback address" in warning


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["--port", "70000"], "--port must be in 0..65535"),
        (["--runs", "/nonexistent/run"], "no such run folder"),
        (["--host", "no.such.host.invalid"], "cannot listen on"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(arguments, fragment):
    done = subprocess.run(
        [*COMMAND, "--no-browser", *arguments], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert fragment in done.stderr and done.stderr.count("\n") == 1


def test_without_the_web_extra_serve_names_the_pip_command():
    code = (
        "import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
        "from minesweep_env.cli.main import main\n"
        "sys.exit(main(['serve', '--no-browser']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pip install 'semiautomines[web]'" in done.stderr
