"""Fixtures for the real-browser tests of the web page: the server and Chromium.

The server runs as ``semiautomines serve --port 0 --no-browser`` in a subprocess (one
per test module); Chromium is Debian's package, driven by Playwright's sync API. The
browser test modules skip, saying why, when Playwright or a Chromium is missing; the
fixtures here import Playwright only when a browser test asks for it.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CLI = Path(sys.executable).with_name("semiautomines")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = "no Chromium on this machine (Debian: apt-get install chromium)"
SERVING = re.compile(r"serving on (http://\S+)")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def cli_command(*args: str) -> list[str]:
    """The ``semiautomines`` command line, from this interpreter's environment."""
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return [*command, *args]


class WebServer:
    """A ``semiautomines serve`` subprocess; ``url`` is the address it printed."""

    def __init__(self, runs: list[Path], extra: list[str] | None = None) -> None:
        arguments = ["serve", "--port", "0", "--no-browser"]
        if runs:
            arguments += ["--runs", *map(str, runs)]
        arguments += extra or []
        self.process = subprocess.Popen(
            cli_command(*arguments),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=os.environ.copy(),
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._wait_for_address(timeout=120)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put("")

    def _wait_for_address(self, timeout: float) -> str:
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                self.stop()
                raise RuntimeError("the server printed no 'serving on' line") from None
            if not line:
                raise RuntimeError("the server stopped: " + "".join(self.output)[-2000:])
            match = SERVING.search(line)
            if match:
                return match.group(1).rstrip("/")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def web_runs() -> list[Path]:
    """Run folders for ``--runs``: none unless a test module overrides this fixture."""
    return []


@pytest.fixture(scope="module")
def web_options() -> list[str]:
    """More ``serve`` options (``--maps``, ``--replays``): none unless a test module
    overrides this fixture."""
    return []


@pytest.fixture(scope="module")
def web_server(web_runs: list[Path], web_options: list[str]) -> Iterator[WebServer]:
    server = WebServer(web_runs, web_options)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for the whole session."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    # The server's first analysis may load (or, on a fresh checkout, compile) the
    # compiled kernels: the page's answers get longer than Playwright's 5 s default.
    sync_api.expect.set_options(timeout=60_000)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def _open_page(browser, **context_options):
    context = browser.new_context(**context_options)
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.fixture
def page(browser):
    """A desktop-sized page (1280x800); a script error on it fails the test."""
    context, page, errors = _open_page(browser, viewport=DESKTOP)
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def phone_page(browser):
    """A phone-sized page (390x844) with touch, as on a phone."""
    context, page, errors = _open_page(
        browser, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    yield page
    context.close()
    assert not errors, errors
