"""The first-guess race at a corner probe: true positions, aligned common layouts,
rounds that resume, clearly beaten cells dropped, bad flags refused in one line."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest
from paths import REPO

sys.path.append(str(REPO / "benchmarks"))

import first_guess_book as book  # noqa: E402

from minesweep_env.core.cells import COVERED  # noqa: E402
from minesweep_env.solver.probability import count_position  # noqa: E402


def test_the_position_is_the_corner_alone_and_the_candidates_are_covered():
    position = book.Position("expert", 2)
    board = position.board()
    assert board.grid[0, 0] == 2 and (board.grid.reshape(-1)[1:] == COVERED).all()
    weights = count_position(board)
    cells = position.candidates(29)
    assert cells[0] == 29 and len(cells) == len(set(cells)) == 11
    assert all(board.grid.reshape(-1)[c] == COVERED for c in cells)
    # Two steps from the probe is off the frontier: as likely a mine as any far cell.
    assert weights.mine_weight[2] == weights.mine_weight[479]


def test_rounds_resume_and_every_cell_plays_the_same_layouts(tmp_path, capsys):
    out = tmp_path / "rounds.jsonl"
    flags = ["--out", str(out), "--board", "beginner", "--numbers", "1,3"]
    flags += ["--rounds", "2", "--batch", "3", "--min-rounds", "1"]
    assert book.main(flags) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["position"], r["round"]) for r in lines] == [
        ("beginner/corner-1", 0),
        ("beginner/corner-1", 1),
        ("beginner/corner-3", 0),
        ("beginner/corner-3", 1),
    ]
    assert all(
        len(text) == 3 and set(text) <= {"0", "1"} for r in lines for text in r["outcomes"].values()
    )
    assert "### Corner showing 3" in capsys.readouterr().out
    # A round's seed draws the same layouts again: every cell's outcomes replay exactly.
    position = book.Position("beginner", 3)
    played = book.play_round(book.make_agent("search"), position, [8, 80], 3, lines[2]["seed"])
    assert played == {key: lines[2]["outcomes"][key] for key in ("8", "80")}

    assert book.main([*flags[:-4], "--rounds", "3", "--batch", "3", "--min-rounds", "1"]) == 0
    again = out.read_text().splitlines()
    assert len(again) == 6 and [json.loads(x)["round"] for x in again[4:]] == [2, 2]


def test_a_clearly_beaten_cell_leaves_the_race_but_search_s_own_stays():
    options = SimpleNamespace(min_rounds=2, drop_z=3.0)
    good, own, bad = [1] * 60 + [0] * 4, [1] * 30 + [0] * 34, [0] * 64
    cells = {1: good, 2: own, 3: bad}
    assert book.racing(cells, 2, 1, options) == [1, 2, 3]  # too early to drop
    assert book.racing(cells, 2, 2, options) == [1, 2]
    cells[3] = bad[:32]  # dropped in an earlier round: it stays out
    assert book.racing(cells, 2, 1, options) == [1, 2]
    assert book.outcomes_by_cell({1: {"5": "10"}, 0: {"5": "01", "6": "00"}}) == {
        5: [0, 1, 1, 0],
        6: [0, 0],
    }


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--numbers", "4"], "--numbers"),
        (["--numbers", "x"], "--numbers"),
        (["--batch", "0"], "--batch"),
        (["--agent", "greedy"], "--agent"),
        (["--cells", "3"], "--cells"),
        (["--cells", "0,0"], "--cells"),
        (["--cells", "30,2"], "--cells"),
    ],
)
def test_bad_flags_are_one_line(flags, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        book.main(["--out", str(tmp_path / "r.jsonl"), *flags])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and not (tmp_path / "r.jsonl").exists()


def test_a_confirmation_race_plays_only_the_cells_named_and_search_s(tmp_path):
    out = tmp_path / "rounds.jsonl"
    flags = ["--out", str(out), "--board", "beginner", "--numbers", "1", "--rounds", "1"]
    assert book.main([*flags, "--batch", "2", "--cells", "8,8;2,0;8,8", "--seed", "1"]) == 0
    (line,) = [json.loads(x) for x in out.read_text().splitlines()]
    own = line["search"]
    assert set(line["outcomes"]) == {str(own), "80", "2"}


def test_a_round_seed_names_its_position_and_number():
    positions = [book.Position(b, n) for b in ("beginner", "expert") for n in (1, 2)]
    seeds = [book.round_seed(p, r, 0) for p in positions for r in (0, 1)]
    assert len(set(seeds)) == 8
    assert seeds == [book.round_seed(p, r, 0) for p in positions for r in (0, 1)]
