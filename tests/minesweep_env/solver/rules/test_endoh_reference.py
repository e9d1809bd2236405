"""Replay games recorded from the IOCCC 2020 endoh1 program: we must match it click for click.

The games were recorded by ``tests/reference/ioccc/record_games.py`` from the
real ``prog.c`` (rule set ``endoh``) and ``prog.alt.c`` (``endoh-alt``) played
in tmux. After every click, once the program's solver had come to rest, the
file holds its board, mine counter and state; our ``Game`` must show the same.

One documented difference: ``prog.c`` evaluates its counting rule in its
drawing code, so after a loss it goes on flagging when the counter equals the
covered safe cells left, flagging safe cells. Our solver stops at the loss;
:func:`as_prog_c_shows` applies that one step to our board before comparing.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from paths import TESTS

from minesweep_env import Game, MineLayout

REFERENCE = TESTS / "reference" / "ioccc"
RULE_SET_OF_FILE = {"games_prog.jsonl": "endoh", "games_prog_alt.jsonl": "endoh-alt"}


def load_games() -> list[tuple[str, dict]]:
    games = []
    for file_name, rule_set in RULE_SET_OF_FILE.items():
        with (REFERENCE / file_name).open() as lines:
            games += [(rule_set, json.loads(line)) for line in lines if line.strip()]
    return games


GAMES = load_games()


def as_prog_c_shows(rows: list[str], mines_left: int) -> tuple[list[str], int]:
    """Our lost board as ``prog.c`` draws it: counter == covered safe cells > 0 flags them."""
    covered = sum(row.count("?") for row in rows)
    if covered and covered == mines_left:
        return [row.replace("?", "!") for row in rows], 0
    return rows, mines_left


def layout_of(record: dict) -> MineLayout:
    return MineLayout.from_priorities(np.array(record["priorities"]), record["mines"])


@pytest.mark.parametrize(("rule_set", "record"), GAMES, ids=[record["name"] for _, record in GAMES])
def test_game_matches_the_program(rule_set: str, record: dict) -> None:
    # The program's own win rule: it waits until nothing is covered ("stuck" games stay playing).
    game = Game(layout_of(record), rule_set, first_click="endoh", win_rule="nothing-covered")
    for number, click in enumerate(record["clicks"], start=1):
        state = game.probe(click["x"], click["y"])
        assert state == game.state
        rows, mines_left = game.rows(), game.mines_left
        if rule_set == "endoh" and state == "lost":
            rows, mines_left = as_prog_c_shows(rows, mines_left)
        where = f"{record['name']} click {number} at ({click['x']}, {click['y']})"
        assert rows == click["rows"], where
        assert mines_left == click["mines_left"], where
        assert state.value == click["state"], where


def test_reference_games_cover_every_kind_of_game() -> None:
    """The data must keep its variety: both programs, all outcomes, first clicks on mines."""
    by_program: dict[str, list[dict]] = {}
    for rule_set, record in GAMES:
        by_program.setdefault(rule_set, []).append(record)
    for rule_set, records in by_program.items():
        outcomes = {record["outcome"] for record in records}
        assert {"won", "lost"} <= outcomes, rule_set
        first_on_mine = [
            r for r in records if layout_of(r).mines[r["clicks"][0]["y"], r["clicks"][0]["x"]]
        ]
        assert first_on_mine, rule_set
        assert len(records) >= 400, rule_set
        assert any(r["width"] >= 30 for r in records), rule_set  # expert-size boards too
    assert "stuck" in {r["outcome"] for r in by_program["endoh-alt"]}


SCREENS = {
    # prog.alt.c on maps/ioccc/unwinnable.txt; clicks in the file names' order:
    # stuck: (4, 4); lost: (4, 4) (0, 0); won: (1, 1) (3, 3); lost_covered: (2, 0) (0, 0).
    # prog_won: prog.c, (4, 4).
    "alt_stuck": (("?!200", "!!200", "22100", "00000", "00000"), 1, "playing"),
    "alt_lost": (("*!200", "!!200", "22100", "00000", "00000"), 1, "lost"),
    "alt_won": (("!!100", "!3100", "11000", "00000", "00000"), 0, "won"),
    "alt_lost_covered": (("**2??", "**???", "?????", "?????", "?????"), 4, "lost"),
    "prog_won": (("!!200", "!!200", "22100", "00000", "00000"), 0, "won"),
}


@pytest.mark.parametrize("name", list(SCREENS))
def test_recorder_decodes_the_programs_screen(name: str) -> None:
    """The recorder reads covered cells and probed zeros apart by colour, and the face."""
    import sys

    sys.path.insert(0, str(REFERENCE))
    from record_games import decode_screen

    text = (REFERENCE / "screens" / f"{name}.txt").read_text()
    screen = decode_screen(text, width=5, height=5)
    assert (screen.rows, screen.mines_left, screen.state) == SCREENS[name]
