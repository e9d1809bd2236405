"""The paired benchmark against JSMinesweeper: its node driver, the pairing check, the cache.

The driver's tests need node and JSMinesweeper's public source (a checkout or a
git directory, named by ``JSMINESWEEPER_DIR``); without them they are skipped
with the reason. The pairing check and the cache are tested with a stand-in for
the node side, so they run everywhere.
"""

from __future__ import annotations

import os
import shutil
import sys

import numpy as np
import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import jsminesweeper_paired  # noqa: E402
from game_checks import GameCheck, mismatches, play_checked  # noqa: E402
from peer_cache import PeerCache  # noqa: E402
from peers import PeerMissing  # noqa: E402
from peers.jsminesweeper_player import (  # noqa: E402
    Choice,
    JSMinesweeperPlayer,
    load_source,
)

from minesweep_env import Board  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402
from semiautomines_agents.evaluation import Settings, board_target  # noqa: E402
from semiautomines_agents.evaluation.play import make_env  # noqa: E402
from semiautomines_agents.evaluation.records import Chunk  # noqa: E402

SOURCE_HOW = (
    "JSMinesweeper's source not found: set JSMINESWEEPER_DIR to a checkout or git directory "
    "of https://github.com/DavidNHill/JSMinesweeper"
)


@pytest.fixture(scope="module")
def source():
    if shutil.which("node") is None:
        pytest.skip("node not found on PATH (the driver runs JSMinesweeper under node)")
    given = os.environ.get("JSMINESWEEPER_DIR")
    if not given:
        pytest.skip(SOURCE_HOW)
    try:
        return load_source(given)
    except PeerMissing as error:
        pytest.skip(f"{SOURCE_HOW} ({error})")


@pytest.fixture(scope="module")
def player(source):
    player = JSMinesweeperPlayer(source)
    yield player
    player.close()


def _board(rows: list[list[int]], mines: int) -> Board:
    return Board(np.array(rows, dtype=np.int8), mines)


def test_driver_answers_a_fixed_position(player):
    # Beginner: the corner opened a 0, its neighbours 1, 1 and 2. (1, 1)'s 2 sees the
    # covered (2, 0), (2, 1), (2, 2), (0, 2), (1, 2); (1, 0)'s 1 sees (2, 0), (2, 1):
    # so one of those two is a mine and (0, 1)'s 1 sees (0, 2), (1, 2) one mine too,
    # which leaves (2, 2) safe: the solver must say so, with certainty.
    rows = [[-1] * 9 for _ in range(9)]
    rows[0][0], rows[0][1], rows[1][0], rows[1][1] = 0, 1, 1, 2
    choice = player.choose(_board(rows, 10))
    assert (choice.cell, choice.safety, choice.path) == (2 * 9 + 2, 1.0, "safe")
    assert choice.ms > 0


def test_driver_guesses_the_same_way_every_time(player):
    # A lone 1 in the middle of a 3x3 board of one mine: every neighbour is 1/8 a mine.
    rows = [[-1, -1, -1], [-1, 1, -1], [-1, -1, -1]]
    first = player.choose(_board(rows, 1))
    again = player.choose(_board(rows, 1))
    assert first.cell in {0, 1, 2, 3, 5, 6, 7, 8}
    assert first.safety == pytest.approx(7 / 8)
    assert (again.cell, again.safety, again.path) == (first.cell, first.safety, first.path)


def test_paired_run_checks_and_caches_with_the_real_solver(source, tmp_path, capsys):
    out, cache = tmp_path / "paired.md", tmp_path / "cache"
    # The path given, not the extracted copy: only the given git directory knows the commit.
    argv = ["--jsminesweeper", os.environ["JSMINESWEEPER_DIR"], "--boards", "beginner"]
    argv += ["--starts", "safe"]
    argv += ["--games", "3", "--agent", "greedy", "--cache-dir", str(cache), "--out", str(out)]
    assert jsminesweeper_paired.main(argv) == 0
    page = out.read_text()
    assert f"JSMinesweeper commit `{source.commit}`" in page
    row = next(line for line in page.splitlines() if line.startswith("| beginner | safe"))
    assert row.endswith("| 0 |")  # no mismatched game
    stored = list(cache.glob("*.jsonl"))
    assert len(stored) == 1 and len(stored[0].read_text().splitlines()) == 3


class FakePlayer:
    """Stands in for the node side: probes the lowest covered cell, counting its calls."""

    made = 0

    def __init__(self, source) -> None:
        FakePlayer.made += 1
        self.calls = 0

    def choose(self, board: Board) -> Choice:
        self.calls += 1
        cell = int(np.flatnonzero(board.grid.reshape(-1) == -1)[0])
        return Choice(cell, 0.5, "tie-break", 1.0)

    def close(self) -> None:
        pass


def _row(cache: PeerCache, games: range = range(4), peer_only: bool = False, stop=None):
    peer = jsminesweeper_paired.LazyPeer(source=None, make=FakePlayer)  # type: ignore[arg-type]
    ours = None if peer_only else ("greedy", make_agent("greedy"))
    play = jsminesweeper_paired.play_row
    row = play("beginner", "safe", games, 0, ours, peer, cache, stop=stop or (lambda: False))
    return row, peer


def test_a_stop_request_ends_the_row_between_games_and_keeps_them(tmp_path):
    path = tmp_path / "peer.jsonl"
    asked = []
    row, _ = _row(PeerCache(path), range(5), stop=lambda: asked.append(1) or len(asked) > 2)
    assert len(row.theirs) == len(row.ours) == 2
    assert len(PeerCache(path).games) == 2


def test_the_cache_spares_the_peer_on_rerun(tmp_path):
    path = tmp_path / "peer.jsonl"
    FakePlayer.made = 0
    first, peer = _row(PeerCache(path))
    assert FakePlayer.made == 1 and peer.player.calls > 0
    assert first.played_now == 4 and first.mismatched() == []
    again, peer = _row(PeerCache(path))
    assert FakePlayer.made == 1 and peer.player is None  # the node side is never started
    assert again.played_now == 0
    assert [r.won for r in again.theirs] == [r.won for r in first.theirs]
    assert again.their_checks == first.their_checks
    assert len(again.their_cpu) == len(again.our_cpu) == 4  # CPU times kept with the games
    assert again.their_cpu == first.their_cpu and min(first.their_cpu) > 0


def test_filling_the_cache_apart_plays_only_the_peer(tmp_path):
    path = tmp_path / "peer.jsonl"
    filled, _ = _row(PeerCache(path), peer_only=True)
    assert filled.ours == [] and filled.played_now == 4
    paired, peer = _row(PeerCache(path))
    assert peer.player is None and len(paired.ours) == 4 and paired.mismatched() == []


def test_the_cache_keeps_the_games_before_a_hard_kill(tmp_path):
    path = tmp_path / "peer.jsonl"
    _row(PeerCache(path), range(2))
    lines = path.read_text().splitlines()
    path.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])  # cut mid-line
    cache = PeerCache(path)
    assert len(cache.games) == 1
    row, _ = _row(cache, range(3))
    assert row.played_now == 2
    assert len(PeerCache(path).games) == 3


def test_a_fill_running_beside_is_seen_by_the_paired_run(tmp_path):
    path = tmp_path / "peer.jsonl"
    paired_cache = PeerCache(path)  # opened before the fill has stored anything
    FakePlayer.made = 0
    _row(PeerCache(path), peer_only=True)
    row, peer = _row(paired_cache)
    assert peer.player is None and row.played_now == 0 and len(row.ours) == 4
    with path.open("a") as handle:  # a line the fill is still writing is left for later
        handle.write('{"board": "beginner"')
    assert paired_cache.get(("beginner", "safe", 0, 99)) is None
    assert len(PeerCache(path).games) == 4


def _checked(first_click: str, seed: int, first_x: int = -1) -> GameCheck:
    target = board_target("beginner")
    settings = Settings("complete", first_click, seed)
    agent = make_agent("search" if first_x < 0 else f"search:first_x={first_x}:first_y=0")
    env = make_env(target, settings, agent.obs_mode)
    return play_checked(env, agent, Chunk("search", target, (), settings), 5)[1]


def test_the_pairing_check_catches_a_mismatch():
    same = _checked("safe", 0)
    assert mismatches({5: same}, {5: _checked("safe", 0)}) == []
    other_mines = _checked("safe", 1)
    assert other_mines.mines != same.mines
    assert mismatches({5: same}, {5: other_mines}) == [5]
    other_start = _checked("safe", 0, first_x=4)
    assert other_start.first_cell == 4 and other_start.first_cell != same.first_cell
    assert mismatches({5: same}, {5: other_start}) == [5]


def test_bad_input_is_one_line_and_status_2(capsys, tmp_path):
    with pytest.raises(SystemExit) as stop:
        jsminesweeper_paired.main(["--boards", "huge", "--jsminesweeper", str(tmp_path)])
    assert stop.value.code == 2
    assert "unknown board 'huge'" in capsys.readouterr().err
    assert jsminesweeper_paired.main(["--jsminesweeper", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "neither a checkout nor a git directory" in err[0]
