"""POST /api/analyse: the engine's probabilities, proven cells, number chances checked
against every layout, and advice byte-identical to ``semiautomines guess --json``."""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from positions import random_position
from web_client import web_client

from minesweep_env import Board
from minesweep_env.cli.main import main
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_table
from minesweep_env.formats.position import format_board
from minesweep_env.solver.probability import mine_probabilities
from semiautomines_agents.web.limits import MAX_BODY_BYTES
from semiautomines_agents.web.numbers import number_chances

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks"))
from guess_speed import positions as expert_positions  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return web_client()


def brute_numbers(board: Board) -> dict[int, list[float]]:
    """P(shows k | safe) of every covered cell some layout leaves safe, by listing every
    layout (any mine count when the total is unknown)."""
    w, h = board.width, board.height
    flat = board.grid.reshape(-1)
    table = neighbour_table(w, h)
    covered = [i for i in range(w * h) if flat[i] == COVERED]
    flags = {i for i in range(w * h) if flat[i] == FLAGGED}
    counts = {c: [0] * 9 for c in covered}
    for size in range(len(covered) + 1):
        if board.total_mines is not None and size != board.total_mines - len(flags):
            continue
        for chosen in itertools.combinations(covered, size):
            mines = flags | set(chosen)
            if all(
                sum(n in mines for n in table[i]) == flat[i] for i in range(w * h) if flat[i] >= 0
            ):
                for c in covered:
                    if c not in mines:
                        counts[c][sum(n in mines for n in table[c])] += 1
    return {c: [k / sum(v) for k in v] for c, v in counts.items() if sum(v)}


def _small_positions(count: int) -> list[Board]:
    found = []
    for seed in range(2000):
        board, _ = random_position(seed, max_side=4)
        covered = int((board.grid == COVERED).sum())
        if 2 <= covered <= 11 and (board.grid >= 0).any():
            found.append(board)
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("known_total", [True, False])
def test_number_chances_match_every_layout(known_total):
    for board in _small_positions(25):
        if not known_total:
            board = Board(board.grid.copy(), None)
        expected = brute_numbers(board)
        found, complete = number_chances(board)
        assert complete
        for y, row in enumerate(found):
            for x, chances in enumerate(row):
                cell = y * board.width + x
                if cell not in expected:
                    assert chances is None, (format_board(board), x, y)
                    continue
                assert chances is not None and len(chances) == 9
                assert all(0.0 <= p <= 1.0 for p in chances)
                assert math.isclose(sum(chances), 1.0, abs_tol=1e-9)
                assert np.allclose(chances, expected[cell], rtol=0, atol=1e-12), format_board(board)


def test_analysis_paints_the_engines_probabilities_and_proven_cells(client):
    text = "4 3 3\n1???\n2???\n????\n"
    answer = client.post("/api/analyse", json={"board": text}).json()
    board = Board.from_rows(["1???", "2???", "????"], total_mines=3)
    expected = mine_probabilities(board)
    assert (answer["width"], answer["height"], answer["advice"]) == (4, 3, None)
    for y in range(3):
        for x in range(4):
            p = answer["probabilities"][y][x]
            if math.isnan(expected[y, x]):
                assert p is None
            else:
                assert p == expected[y, x]
    assert answer["probabilities"][0][0] is None  # opened
    assert answer["numbers_complete"] is True
    assert answer["numbers"][0][0] is None
    # (0, 2) is a mine in every layout: the 2 at (0, 1) has (1, 0)..(1, 2) and (0, 2).
    for x, y in answer["mines"]:
        assert answer["probabilities"][y][x] == 1.0
        assert answer["numbers"][y][x] is None
    for x, y in answer["safe"]:
        assert answer["probabilities"][y][x] == 0.0


def test_proven_cells_are_listed():
    board = "3 1 1\n?1?\n"
    with web_client() as client:
        answer = client.post("/api/analyse", json={"board": "3 2 1\n1??\n1??\n"}).json()
        assert answer["safe"] == [[2, 0], [2, 1]]
        answer = client.post("/api/analyse", json={"board": board, "mines": None}).json()
        assert answer["safe"] == [] and answer["mines"] == []
        answer = client.post("/api/analyse", json={"board": "2 1 1\n1?\n"}).json()
        assert answer["mines"] == [[1, 0]] and answer["probabilities"] == [[None, 1.0]]


def _guess_json(tmp_path: Path, text: str, capsys: pytest.CaptureFixture) -> str:
    path = tmp_path / "position.txt"
    path.write_text(text)
    capsys.readouterr()
    assert main(["guess", str(path), "--json"]) == 0
    return capsys.readouterr().out.strip()


def test_advice_is_byte_identical_to_guess_json(client, tmp_path, capsys):
    texts = [*expert_positions(2, 3), "5 5 5\n?????\n?2???\n?????\n???1?\n?????\n"]
    for text in texts:
        answer = client.post("/api/analyse", json={"board": text, "agent": "search"})
        assert answer.status_code == 200, answer.text
        advice = answer.json()["advice"]
        assert advice["decided_by"] and "candidates" in advice
        assert json.dumps(advice) == _guess_json(tmp_path, text, capsys)


def test_nothing_left_to_probe_gives_no_advice_and_says_why(client):
    answer = client.post("/api/analyse", json={"board": "2 1 1\n1?\n", "agent": "search"})
    assert answer.status_code == 200
    assert answer.json()["advice"] is None
    assert "every covered cell is a mine" in answer.json()["note"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({}, "'board'"),
        ({"board": 3}, "'board' must be a string"),
        ({"board": "3 3\n???\n"}, "expected 3 rows"),
        ({"board": "2 2\n9?\n??\n"}, "shows 9"),
        ({"board": "2 2 1\n3?\n??\n"}, "inconsistent position"),
        ({"board": "2 2\n??\n??\n", "mines": 9}, "out of range"),
        ({"board": "2 2\n??\n??\n", "mines": "two"}, "'mines' must be an integer"),
        ({"board": "2 2\n1?\n??\n", "agent": "greedy"}, "only the search agent"),
        ({"board": "2 2\n1?\n??\n", "agent": "nobody"}, "unknown agent"),
        ({"board": "2 2\n1?\n??\n", "agent": "search:depth=99"}, "depth"),
        ({"board": "200 200\n"}, "larger than the web app's limit"),
        ({"board": "100000 100000\n"}, "larger than the web app's limit"),
    ],
)
def test_bad_input_is_a_400_with_one_line(client, body, fragment):
    answer = client.post("/api/analyse", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert fragment in error and "\n" not in error and "Traceback" not in error


def test_bodies_that_are_not_json_objects_are_400(client):
    for raw in (b"not json", b"[1, 2]", b'"text"', b"{"):
        answer = client.post("/api/analyse", content=raw)
        assert answer.status_code == 400 and "error" in answer.json()


def test_a_body_over_the_limit_is_413_before_it_is_read_whole(client):
    answer = client.post("/api/analyse", content=b"x" * (MAX_BODY_BYTES + 1))
    assert answer.status_code == 413 and "limit" in answer.json()["error"]

    def chunks():  # no Content-Length: the limit holds while streaming
        for _ in range(100):
            yield b"x" * 4096

    answer = client.post("/api/analyse", content=chunks())
    assert answer.status_code == 413


def test_number_chances_of_the_compiled_count_equal_the_exact_ones():
    from minesweep_env import compiled
    from minesweep_env.formats import parse_board

    for text in expert_positions(3, 5):
        board = parse_board(text)
        with compiled.python_only():
            exact, _ = number_chances(board)
        found, _ = number_chances(board)
        for row_exact, row_found in zip(exact, found, strict=True):
            for e, f in zip(row_exact, row_found, strict=True):
                assert (e is None) == (f is None)
                if e is not None:
                    assert np.allclose(e, f, rtol=0, atol=1e-9)


def test_number_chances_stop_at_their_time_budget():
    board = Board.from_rows(["1???", "????", "????"], total_mines=3)
    found, complete = number_chances(board, seconds=-1.0)
    assert not complete and all(c is None for row in found for c in row)
    found, complete = number_chances(board, seconds=60.0)
    assert complete and found[2][3] is not None


def test_position_weights_are_the_exact_engines():
    from minesweep_env.formats import parse_board
    from minesweep_env.solver.probability import count_position
    from semiautomines_agents.web.analyse import position_weights

    for text in [*expert_positions(3, 9), "5 5\n1????\n?????\n?????\n?????\n?????\n"]:
        board = parse_board(text)
        found, exact = position_weights(board), count_position(board, any_count=True)
        assert found.layouts == exact.layouts
        assert found.mine_weight == exact.mine_weight
