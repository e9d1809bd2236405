"""Screenshots of the web page's four modes, desktop and phone, for docs/web.md.

Starts ``semiautomines serve`` on a free port (with a tiny evaluation run to replay),
drives each mode in Debian's chromium through Playwright and writes
``docs/images/web-*.png``. Look at every image before it goes into the docs.

    python scripts/web_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from playwright.sync_api import Page, sync_playwright

from minesweep_env import Game, mine_probabilities
from minesweep_env.core.board import Board
from minesweep_env.core.layout import MineLayout
from minesweep_env.formats.position import format_board

CLI = Path(sys.executable).with_name("semiautomines")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def position(guesses: int = 2, covered: range = range(150, 380)) -> str:
    """An expert position still in play after a safe corner start and a few
    lowest-risk guesses, with enough cells left covered to show (the first such seed)."""
    for seed in range(100):
        layout = MineLayout.random(30, 16, 99, np.random.default_rng(seed))
        game = Game(layout, rule_set="complete", first_click="safe", seed=seed)
        game.probe(0, 0)
        for _ in range(guesses):
            if game.state != "playing":
                break
            risk = mine_probabilities(Board.from_rows(game.rows(), total_mines=99))
            y, x = np.unravel_index(np.nanargmin(risk), risk.shape)
            game.probe(int(x), int(y))
        left = sum(row.count("?") for row in game.rows())
        if game.state == "playing" and left in covered:
            return format_board(Board.from_rows(game.rows(), total_mines=99))
    raise SystemExit("no expert game still in play after the guesses")


def evaluation(folder: Path) -> Path:
    subprocess.run(
        [str(CLI), "evaluate", "--agents", "search", "--boards", "intermediate", "--maps", "none",
         "--games", "8", "--seed", "3", "--workers", "1", "--save-games", "--no-progress",
         "--out", str(folder)],
        check=True, capture_output=True, timeout=600,
    )
    return next(p for p in folder.iterdir() if p.is_dir())


def serve(runs: Path) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen(
        [str(CLI), "serve", "--port", "0", "--no-browser", "--runs", str(runs)],
        stdout=subprocess.PIPE, text=True,
    )
    assert server.stdout is not None
    for line in server.stdout:
        match = re.search(r"serving on (http://\S+)", line)
        if match:
            return server, match.group(1).rstrip("/")
    raise SystemExit("the server printed no 'serving on' line")


def settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(400)


def play(page: Page, url: str, board: str, seed: int, first: tuple[int, int]) -> None:
    page.goto(f"{url}/?mode=play&board={board}&seed={seed}")
    page.locator(f'#play-board .cell[data-x="{first[0]}"][data-y="{first[1]}"]').click()
    page.wait_for_selector('#play-smiley:not([data-face="busy"])')
    settle(page)


def follow_hints(page: Page, times: int) -> None:
    """Probe the adviser's cell ``times`` times (while the game goes on)."""
    for _ in range(times):
        if page.locator("[data-game-state]").get_attribute("data-game-state") != "playing":
            return
        page.click("#play-hint")
        page.locator("#play-advice h2").wait_for()
        page.locator('#play-board [data-advised="true"]').click()
        page.wait_for_selector('#play-smiley:not([data-face="busy"])')
        settle(page)


def shoot_desktop(page: Page, url: str, out: Path, text: str) -> None:
    for seed in range(12, 60):  # a game the hints have not lost (nor won) yet
        play(page, url, "intermediate", seed, (8, 8))
        follow_hints(page, 3)
        if page.locator("[data-game-state]").get_attribute("data-game-state") == "playing":
            break
    page.check("#play-probs")
    page.click("#play-hint")
    page.locator("#play-advice h2").wait_for()
    settle(page)
    page.screenshot(path=out / "web-play.png")

    page.goto(f"{url}/?mode=analyse")
    page.click("#an-paste-box summary")
    page.fill("#an-text", text)
    page.click("#an-load-text")
    page.locator("#an-advice h2").wait_for()
    advised = page.locator('#an-board [data-advised="true"]')
    advised.hover()
    settle(page)
    page.screenshot(path=out / "web-analyse.png")

    page.goto(f"{url}/?mode=watch&agent=greedy&agent2=search&board=expert&seed=0&game=1")
    page.fill("#watch-speed", "20")
    page.dispatch_event("#watch-speed", "input")
    page.wait_for_timeout(6000)
    page.screenshot(path=out / "web-watch.png")

    page.goto(f"{url}/?mode=replay")
    page.locator("#rp-games button").first.wait_for()
    page.select_option("#rp-result", "lost")
    page.click("#rp-list")
    page.locator("#rp-games button").first.wait_for()
    page.locator("#rp-games button").first.click()
    page.evaluate("document.activeElement.blur()")
    for _ in range(2):
        page.keyboard.press("n")
    settle(page)
    page.screenshot(path=out / "web-replay.png")


def shoot_phone(page: Page, url: str, out: Path, text: str) -> None:
    for seed in range(5, 40):
        play(page, url, "beginner", seed, (4, 4))
        follow_hints(page, 2)
        if page.locator("[data-game-state]").get_attribute("data-game-state") == "playing":
            break
    page.check("#play-probs")
    page.locator("#play-board [data-mine-probability]").first.wait_for(state="attached")
    settle(page)
    page.screenshot(path=out / "web-phone-play.png")
    page.goto(f"{url}/?mode=analyse")
    page.click("#an-paste-box summary")
    page.fill("#an-text", text)
    page.click("#an-load-text")
    page.locator("#an-advice h2").wait_for()
    settle(page)
    page.screenshot(path=out / "web-phone-analyse.png", full_page=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no Chromium on this machine (Debian: apt-get install chromium)")
    args.out.mkdir(parents=True, exist_ok=True)
    text = position()
    with tempfile.TemporaryDirectory() as folder:
        server, url = serve(evaluation(Path(folder)))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox"]
                )
                desktop = browser.new_page(viewport=DESKTOP)
                shoot_desktop(desktop, url, args.out, text)
                phone = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
                shoot_phone(phone, url, args.out, text)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    for image in sorted(args.out.glob("web-*.png")):
        print(f"{image} {image.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
