"""Watch on a map and a person's replay in a real browser.

A small ``evaluate --maps`` run on a suite of three expert maps is the truth a
watched map game must end as; the replay is a real Minesweeper Clone file from
``tests/data/replays``. The server and ``evaluate`` run from the same folder, with
the same map path, as a person comparing them would.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="no Chromium on this machine (Debian: apt-get install chromium)",
)

from playwright.sync_api import Page, expect  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
REPLAY = ROOT / "tests" / "data" / "replays" / "expert.mvf"
AGENT, SEED = "greedy", 4
CLI = Path(sys.executable).with_name("semiautomines")


def cli_command(*args: str) -> list[str]:
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return [*command, *args]


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("maps") / "suite"
    folder.mkdir()
    for number in range(3):
        name = f"expert-00{number}.txt"
        shutil.copy(ROOT / "maps" / "suites" / "expert" / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def evaluated(suite: Path, tmp_path_factory) -> list[dict]:
    """games.csv of ``evaluate --maps SUITE --seed 4``."""
    out = tmp_path_factory.mktemp("runs")
    subprocess.run(
        cli_command(
            "evaluate",
            "--agents",
            AGENT,
            "--boards",
            "none",
            "--maps",
            str(suite),
            "--games",
            "3",
            "--seed",
            str(SEED),
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(out),
        ),
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (run,) = [p for p in out.iterdir() if p.is_dir()]
    with (run / "games.csv").open() as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def web_options(suite: Path) -> list[str]:
    return ["--maps", str(suite), "--replays", str(REPLAY)]


def test_a_watched_map_game_ends_as_evaluate_says(page: Page, web_server, evaluated) -> None:
    row = max(evaluated, key=lambda r: (r["won"] == "0", int(r["guesses"])))
    query = f"mode=watch&agent={AGENT}&map=suite/&seed={SEED}&game={row['game']}&speed=20"
    page.goto(f"{web_server.url}/?{query}")
    expect(page.locator("#watch-map-choice")).to_be_visible()
    state = page.locator("#watch-panes [data-game-state]")
    expect(state).to_have_count(1)
    expected = "won" if row["won"] == "1" else "lost"
    expect(state).to_have_attribute("data-game-state", expected, timeout=60_000)
    expect(page.locator("#watch-panes .info")).to_contain_text(f"{row['guesses']} guesses")
    expect(page.locator("#watch-panes [data-x]")).to_have_count(30 * 16)


def test_a_replay_file_steps_to_its_end_guess_by_guess(page: Page, web_server) -> None:
    page.goto(f"{web_server.url}/?mode=replay&replay={REPLAY.name}")
    expect(page.locator("#rp-file-choice")).to_be_visible()
    expect(page.locator("#rp-pos")).to_contain_text("0 / ")
    expect(page.locator("#rp-info")).to_contain_text("guesses, survival")
    total = int(page.locator("#rp-pos").inner_text().split("/")[1])
    assert total >= 1
    page.evaluate("document.activeElement.blur()")
    presses = 0
    while page.locator("#rp-pos").inner_text() != f"{total} / {total}" and presses <= total:
        page.keyboard.press("n")
        presses += 1
    expect(page.locator("#rp-pos")).to_have_text(f"{total} / {total}")
    expect(page.locator("#rp-state")).to_have_attribute("data-game-state", "won")
    expect(page.locator("#rp-board [data-x]")).to_have_count(30 * 16)
