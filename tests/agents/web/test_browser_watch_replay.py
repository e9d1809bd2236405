"""Watch and Replay in a real browser, against a run of ``semiautomines evaluate``.

One small evaluation (greedy, 9x9 with 10 mines, seed 3, --save-games) is both the
truth a watched game must end as and the run folder the server replays from.
"""

from __future__ import annotations

import csv
import re
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

CLI = Path(sys.executable).with_name("semiautomines")
AGENT, BOARD, SEED, GAMES = "greedy", "9x9x10", 3, 6


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory) -> Path:
    """The run folder of a tiny evaluation with every game saved."""
    out = tmp_path_factory.mktemp("runs")
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    subprocess.run(
        [
            *command,
            "evaluate",
            "--agents",
            AGENT,
            "--boards",
            BOARD,
            "--maps",
            "none",
            "--games",
            str(GAMES),
            "--seed",
            str(SEED),
            "--workers",
            "1",
            "--save-games",
            "--no-progress",
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (run,) = [p for p in out.iterdir() if p.is_dir()]
    return run


@pytest.fixture(scope="module")
def web_runs(evaluated: Path) -> list[Path]:
    return [evaluated]


def games_table(run: Path) -> list[dict]:
    with (run / "games.csv").open() as handle:
        return list(csv.DictReader(handle))


def chosen_game(run: Path) -> dict:
    """The game with the most guesses (a lost one when there is one): the most to show."""
    rows = games_table(run)
    return max(rows, key=lambda r: (r["won"] == "0", int(r["guesses"])))


def test_a_watched_game_ends_as_evaluate_says(page: Page, web_server, evaluated) -> None:
    row = chosen_game(evaluated)
    query = f"mode=watch&agent={AGENT}&board={BOARD}&seed={SEED}&game={row['game']}"
    page.goto(f"{web_server.url}/?{query}")
    page.fill("#watch-speed", "20")
    page.dispatch_event("#watch-speed", "input")
    state = page.locator("#watch-panes [data-game-state]")
    expect(state).to_have_count(1)
    expected = "won" if row["won"] == "1" else "lost"
    expect(state).to_have_attribute("data-game-state", expected, timeout=60_000)
    expect(page.locator("#watch-panes .info")).to_contain_text(f"{row['guesses']} guesses")
    # Each risky probe is logged with its reason (a safe first click is no risk taken).
    logged = page.locator("#watch-panes .guesses li").all_inner_texts()
    assert logged and all("guess (" in line for line in logged)
    assert len(logged) in (int(row["guesses"]) - 1, int(row["guesses"]))


def test_two_agents_side_by_side_on_the_same_layout(page: Page, web_server) -> None:
    query = f"mode=watch&agent=greedy&agent2=search&board={BOARD}&seed={SEED}&game=0"
    page.goto(f"{web_server.url}/?{query}")
    page.fill("#watch-speed", "20")
    page.dispatch_event("#watch-speed", "input")
    panes = page.locator("#watch-panes .pane")
    expect(panes).to_have_count(2)
    for index in range(2):
        expect(panes.nth(index).locator("[data-game-state]")).not_to_have_attribute(
            "data-game-state", "playing", timeout=60_000
        )
    first, second = (panes.nth(i).locator(".board").bounding_box() for i in range(2))
    assert first["y"] == second["y"] and second["x"] > first["x"] + first["width"] - 1


def test_watch_pauses_and_steps(page: Page, web_server, evaluated) -> None:
    game = chosen_game(evaluated)["game"]
    query = f"mode=watch&agent={AGENT}&board={BOARD}&seed={SEED}&game={game}&speed=1"
    page.goto(f"{web_server.url}/?{query}")
    page.click("#watch-play")  # pause before the first move is shown
    expect(page.locator("#watch-play")).to_have_text("Play")
    info = page.locator("#watch-panes .info")
    page.wait_for_timeout(1500)  # paused: nothing moves
    expect(info).to_have_text("")
    page.click("#watch-step")
    expect(info).to_have_text(re.compile(r"^move 0: "))
    page.click("#watch-step")
    expect(info).to_have_text(re.compile(r"^move 1: "))


def test_a_replay_steps_to_its_end(page: Page, web_server, evaluated) -> None:
    row = chosen_game(evaluated)
    page.goto(f"{web_server.url}/?mode=replay")
    expect(page.locator("#rp-run option")).to_have_count(1)
    expect(page.locator("#rp-games tbody tr")).to_have_count(GAMES)
    page.select_option("#rp-result", "won" if row["won"] == "1" else "lost")
    page.fill("#rp-min", row["guesses"])
    page.click("#rp-list")
    expect(page.locator(f'#rp-games button[data-game="{row["game"]}"]')).to_have_count(1)
    page.click(f'#rp-games button[data-game="{row["game"]}"]')
    expect(page.locator("#rp-pos")).to_contain_text("0 / ")
    total = int(page.locator("#rp-pos").inner_text().split("/")[1])
    page.click("#rp-next")
    expect(page.locator("#rp-pos")).to_have_text(f"1 / {total}")
    state = page.locator("[data-game-state]")
    guesses_seen = 0
    page.evaluate("document.activeElement.blur()")
    for _ in range(total + 1):
        if page.locator("#rp-pos").inner_text() == f"{total} / {total}":
            break
        page.keyboard.press("n")
        guesses_seen += 1
    expect(page.locator("#rp-pos")).to_have_text(f"{total} / {total}")
    expected = "won" if row["won"] == "1" else "lost"
    expect(state).to_have_attribute("data-game-state", expected)
    assert guesses_seen <= int(row["guesses"]) + 1
