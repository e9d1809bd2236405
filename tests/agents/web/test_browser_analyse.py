"""Analyse in a real browser: a drawn position's painted probabilities are the
library's ``mine_probabilities``, and the page's advice is ``guess --json``'s.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="no Chromium on this machine (Debian: apt-get install chromium)",
)

from playwright.sync_api import Page, expect  # noqa: E402

from minesweep_env import mine_probabilities, parse_board  # noqa: E402

CLI = Path(sys.executable).with_name("semiautomines")


def cli_command(*args: str) -> list[str]:
    command = [str(CLI)] if CLI.exists() else [sys.executable, "-m", "minesweep_env.cli.main"]
    return [*command, *args]


# A position to draw: (x, y) -> what the cell shows; every other cell stays covered.
# Proven safe cells around the 0 and the flag, two mines among three cells by the 2.
DRAWN = {(2, 1): "1", (1, 1): "2", (2, 2): "1", (3, 2): "flag", (4, 3): "1", (5, 3): "0"}
CLICKED = (2, 1)  # drawn by clicks (covered -> 0 -> 1); the others by keys
WIDTH, HEIGHT, MINES_LEFT = 6, 5, 6


def cell(page: Page, x: int, y: int):
    return page.locator(f'#an-board .cell[data-x="{x}"][data-y="{y}"]')


def draw(page: Page, url: str) -> None:
    """Draw DRAWN on a blank board and set the mines left."""
    page.goto(f"{url}/?mode=analyse")
    page.fill("#an-width", str(WIDTH))
    page.fill("#an-height", str(HEIGHT))
    page.click("#an-blank")
    expect(page.locator("#an-board .cell")).to_have_count(WIDTH * HEIGHT)
    for _ in range(2):
        cell(page, *CLICKED).click()
    expect(cell(page, *CLICKED)).to_have_attribute("data-state", DRAWN[CLICKED])
    for (x, y), state in DRAWN.items():
        if (x, y) == CLICKED:
            continue
        cell(page, x, y).focus()
        page.keyboard.press("f" if state == "flag" else state)
        expect(cell(page, x, y)).to_have_attribute("data-state", state)
    page.fill("#an-mines", str(MINES_LEFT))


def position_text() -> str:
    rows = []
    for y in range(HEIGHT):
        row = ""
        for x in range(WIDTH):
            state = DRAWN.get((x, y), "covered")
            row += {"covered": "?", "flag": "!"}.get(state, state)
        rows.append(row)
    flags = sum(state == "flag" for state in DRAWN.values())
    return f"{WIDTH} {HEIGHT} {MINES_LEFT + flags}\n" + "\n".join(rows) + "\n"


def analyse(page: Page, agent: str) -> None:
    page.fill("#an-agent", agent)
    page.click("#an-run")
    expect(page.locator("[data-mine-probability]").first).to_be_attached()


def test_the_painted_probabilities_are_mine_probabilities(page: Page, web_server) -> None:
    draw(page, web_server.url)
    analyse(page, "")
    expected = mine_probabilities(parse_board(position_text()))
    painted = page.locator("#an-board .cell[data-mine-probability]")
    assert painted.count() == WIDTH * HEIGHT - len(DRAWN)
    for element in painted.all():
        x, y = int(element.get_attribute("data-x")), int(element.get_attribute("data-y"))
        shown = float(element.get_attribute("data-mine-probability"))
        assert math.isclose(shown, expected[y, x], rel_tol=0, abs_tol=1e-9), (x, y)
    # The proven cells are marked: the 0's neighbours are safe.
    expect(cell(page, 5, 4)).to_have_attribute("data-proven", "safe")
    for x, y in DRAWN:
        assert cell(page, x, y).get_attribute("data-mine-probability") is None
    # No adviser asked: no advised cell.
    assert page.locator('[data-advised="true"]').count() == 0


def test_the_advice_is_guess_json(page: Page, web_server, tmp_path) -> None:
    draw(page, web_server.url)
    analyse(page, "search")
    advised = page.locator('#an-board [data-advised="true"]')
    expect(advised).to_have_count(1)
    board_file = tmp_path / "drawn.txt"
    board_file.write_text(position_text())
    done = subprocess.run(
        cli_command("guess", str(board_file), "--json"),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    guess = json.loads(done.stdout)
    assert (int(advised.get_attribute("data-x")), int(advised.get_attribute("data-y"))) == (
        guess["x"],
        guess["y"],
    )
    panel = page.locator("#an-advice")
    expect(panel.locator("h2")).to_have_text(f"Probe ({guess['x']}, {guess['y']})")
    expect(panel).to_contain_text(guess["decided_by"])
    rows = panel.locator("table.candidates tbody tr")
    expect(rows).to_have_count(len(guess["candidates"]))
    if guess["why"]:
        expect(panel.locator(".why")).to_have_text(guess["why"])


def test_pasted_text_draws_the_position_and_hover_shows_the_numbers(page: Page, web_server) -> None:
    page.goto(f"{web_server.url}/?mode=analyse")
    page.click("#an-paste-box summary")
    page.fill("#an-text", position_text())
    page.fill("#an-agent", "")
    page.click("#an-load-text")
    expect(page.locator("#an-board .cell")).to_have_count(WIDTH * HEIGHT)
    expect(cell(page, 1, 1)).to_have_attribute("data-state", "2")
    expect(cell(page, 3, 2)).to_have_attribute("data-state", "flag")
    expect(page.locator("#an-mines")).to_have_value(str(MINES_LEFT))
    expect(page.locator("[data-mine-probability]").first).to_be_attached()
    cell(page, 5, 4).hover()
    expect(page.locator("#an-numbers")).to_contain_text("If (5, 4) is safe it shows")


def test_bad_pasted_text_shows_one_line(page: Page, web_server) -> None:
    page.goto(f"{web_server.url}/?mode=analyse")
    page.click("#an-paste-box summary")
    page.fill("#an-text", "3 2\n???\n")
    page.click("#an-load-text")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error")).to_contain_text("expected 2 rows")


def test_a_position_in_the_url_is_drawn_and_analysed(page: Page, web_server) -> None:
    page.goto(f"{web_server.url}/?mode=analyse&position={quote(position_text())}")
    expect(page.locator("#an-board .cell")).to_have_count(WIDTH * HEIGHT)
    expect(cell(page, 5, 3)).to_have_attribute("data-state", "0")
    expect(cell(page, 5, 4)).to_have_attribute("data-proven", "safe")
    expect(cell(page, 5, 4)).to_have_attribute("data-mine-probability", "0")
