"""Play in a real browser: games to a win and to a loss, flags, a shared URL, a phone.

Each test drives the page as a person would (clicks, right-clicks, taps, long
presses) and reads the page's test hooks: ``data-x``/``data-y``/``data-state`` on
every cell and ``data-game-state`` on the game's state.
"""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="no Chromium on this machine (Debian: apt-get install chromium)",
)

from playwright.sync_api import Page, expect  # noqa: E402


def open_game(page: Page, url: str, query: str) -> str:
    """Open a game from a shared URL; return its id once its board is on the page."""
    page.goto(f"{url}/?{query}")
    expect(page.locator("[data-game-id]")).to_have_count(1)
    expect(page.locator("[data-game-state]")).to_have_count(1)
    return page.locator("[data-game-id]").get_attribute("data-game-id")


def cell(page: Page, x: int, y: int):
    return page.locator(f'#play-board .cell[data-x="{x}"][data-y="{y}"]')


def game_state(page: Page) -> str:
    return page.locator("[data-game-state]").get_attribute("data-game-state")


def analysis(page: Page, url: str, game_id: str) -> dict:
    """The probabilities of the game's position (no advice), from the API the page uses."""
    game = page.request.get(f"{url}/api/games/{game_id}").json()
    codes = {"covered": "?", "flag": "!"}
    rows = ["".join(codes.get(state, state) for state in row) for row in game["grid"]]
    text = "\n".join([f"{game['width']} {game['height']}", *rows]) + "\n"
    body = {"board": text, "mines": game["mines"], "agent": None}
    answer = page.request.post(f"{url}/api/analyse", data=body)
    assert answer.ok, answer.text()
    return answer.json()


def probe(page: Page, x: int, y: int) -> None:
    """Click a covered cell and wait until the page has shown every round of the move."""
    moves = page.locator("#play-info").inner_text()
    cell(page, x, y).click()
    expect(page.locator("#play-info")).not_to_have_text(moves)
    expect(page.locator("#play-smiley")).not_to_have_attribute("data-face", "busy")


def covered_cells(page: Page) -> list[tuple[int, int]]:
    found = page.locator('#play-board .cell[data-state="covered"]')
    return [(int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))) for c in found.all()]


def test_a_game_is_played_to_a_win(page: Page, web_server) -> None:
    # Seed 2 of 8x8x10 (endoh rules and first click) is won by probing the proven-safe
    # cells and, when there are none, the least likely mine: three guesses.
    game_id = open_game(page, web_server.url, "mode=play&board=8x8x10&seed=2")
    expect(page.locator("#play-board .cell")).to_have_count(64)
    probe(page, 3, 3)
    for _ in range(64):
        if game_state(page) != "playing":
            break
        answer = analysis(page, web_server.url, game_id)
        if answer["safe"]:
            x, y = answer["safe"][0]
        else:
            probabilities = answer["probabilities"]
            _, x, y = min((probabilities[y][x], x, y) for x, y in covered_cells(page))
        probe(page, x, y)
    expect(page.locator("[data-game-state]")).to_have_attribute("data-game-state", "won")
    expect(page.locator("#play-smiley")).to_have_attribute("data-face", "won")
    assert not page.locator('#play-board .cell[data-state="mine"]').count()


def test_a_no_guess_game_opens_its_start_cell(page: Page, web_server) -> None:
    open_game(page, web_server.url, "mode=play&board=8x8x10&seed=7&no_guess=1")
    assert len(covered_cells(page)) < 64


def test_probing_the_likeliest_mines_loses(page: Page, web_server) -> None:
    game_id = open_game(page, web_server.url, "mode=play&board=6x6x14&seed=2")
    probe(page, 0, 0)
    for _ in range(36):
        if game_state(page) != "playing":
            break
        probabilities = analysis(page, web_server.url, game_id)["probabilities"]
        x, y = max(covered_cells(page), key=lambda c: probabilities[c[1]][c[0]])
        probe(page, x, y)
    expect(page.locator("[data-game-state]")).to_have_attribute("data-game-state", "lost")
    expect(page.locator("#play-smiley")).to_have_attribute("data-face", "lost")
    assert page.locator('#play-board .cell[data-state="mine"]').count() >= 1


def test_a_right_click_flags_and_the_counter_follows(page: Page, web_server) -> None:
    open_game(page, web_server.url, "mode=play&board=beginner&seed=3")
    expect(page.locator("#play-mines")).to_have_text("010")
    cell(page, 0, 0).click(button="right")
    expect(cell(page, 0, 0)).to_have_attribute("data-state", "flag")
    expect(page.locator("#play-mines")).to_have_text("009")
    cell(page, 0, 0).click(button="right")
    expect(cell(page, 0, 0)).to_have_attribute("data-state", "covered")


def test_the_share_url_opens_the_same_game(page: Page, web_server) -> None:
    page.goto(f"{web_server.url}/")
    page.select_option("#play-form select[name=board]", "custom")
    page.fill("#play-form input[name=custom]", "7x5x6")
    page.fill("#play-form input[name=seed]", "11")
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play-board .cell")).to_have_count(35)
    probe(page, 3, 2)
    first = [c.get_attribute("data-state") for c in page.locator("#play-board .cell").all()]
    page.click("#play-share")
    shared = page.locator("#play-share-url").input_value()
    assert "board=7x5x6" in shared and "seed=11" in shared
    page.goto(shared)
    expect(page.locator("#play-board .cell")).to_have_count(35)
    probe(page, 3, 2)
    again = [c.get_attribute("data-state") for c in page.locator("#play-board .cell").all()]
    assert again == first


def long_press(page: Page, locator, milliseconds: int = 700) -> None:
    """Hold a finger on the element (Chromium's touch events, as a phone sends them)."""
    box = locator.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    session = page.context.new_cdp_session(page)
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(milliseconds)
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_phone_taps_to_probe_and_long_presses_to_flag(phone_page: Page, web_server) -> None:
    page = phone_page
    open_game(page, web_server.url, "mode=play&board=beginner&seed=5")
    cell(page, 4, 4).tap()
    expect(cell(page, 4, 4)).not_to_have_attribute("data-state", "covered")
    target = page.locator('#play-board .cell[data-state="covered"]').first
    x, y = target.get_attribute("data-x"), target.get_attribute("data-y")
    long_press(page, cell(page, int(x), int(y)))
    expect(cell(page, int(x), int(y))).to_have_attribute("data-state", "flag")
    # The page itself never scrolls sideways; the board and the controls fit.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    new_game = page.locator("#play-form button[type=submit]")
    box = new_game.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    new_game.tap()
    expect(cell(page, 4, 4)).to_have_attribute("data-state", "covered")


def test_cells_are_labelled_buttons_the_keyboard_can_play(page: Page, web_server) -> None:
    open_game(page, web_server.url, "mode=play&board=beginner&seed=9")
    cells = page.locator("#play-board .cell")
    assert cells.evaluate_all("cs => cs.every(c => c.tagName === 'BUTTON')")
    expect(cell(page, 2, 1)).to_have_attribute("aria-label", "column 3, row 2: covered")
    cell(page, 0, 0).focus()
    for key in ["ArrowRight", "ArrowRight", "ArrowDown"]:
        page.keyboard.press(key)
    focused = page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y]")
    assert focused == ["2", "1"]
    page.keyboard.press("f")
    expect(cell(page, 2, 1)).to_have_attribute("data-state", "flag")
    page.keyboard.press("f")
    expect(cell(page, 2, 1)).to_have_attribute("data-state", "covered")
    page.keyboard.press("Enter")
    expect(cell(page, 2, 1)).not_to_have_attribute("data-state", "covered")
