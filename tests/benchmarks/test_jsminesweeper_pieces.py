"""JSMinesweeper's pieces looked for at search's decisions: isolated edges checked
against every layout of small positions, and the command's table."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from brute_force import every_layout
from paths import REPO
from positions import dense_position

sys.path.append(str(REPO / "benchmarks"))

import jsminesweeper_pieces  # noqa: E402
from guess_log import GuessLogger, log_games  # noqa: E402
from regret.pieces import edge_alone, isolated_edges, pieces  # noqa: E402

from minesweep_env import Board  # noqa: E402
from minesweep_env.core.cells import COVERED, neighbour_table  # noqa: E402
from minesweep_env.solver.probability import count_position  # noqa: E402
from semiautomines_agents import make_agent  # noqa: E402


def _position(seed: int) -> Board:
    """A small dense position, some mines flagged: isolated edges are common."""
    return dense_position(seed, (4, 7), (3, 5), density=0.35, flags=0.4)


def _cases(count: int) -> list[tuple[Board, tuple[int, ...]]]:
    """Positions with an isolated edge that is not every undecided cell."""
    found = []
    for seed in range(3000 * count):
        board = _position(seed)
        flat = board.grid.reshape(-1)
        if not (flat == COVERED).any():
            continue
        weights = count_position(board)
        undecided = {
            c for c, w in weights.mine_weight.items() if w is not None and 0 < w < weights.layouts
        }
        for edge in isolated_edges(board, weights):
            if set(edge) != undecided:
                found.append((board, edge))
                break
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions with an isolated edge found")


CASES = _cases(20)


@pytest.mark.parametrize(("board", "edge"), CASES)
def test_an_isolated_edge_is_touched_by_no_covered_cell_outside_it(board, edge):
    layouts = every_layout(board)
    flat = board.grid.reshape(-1)
    table = neighbour_table(board.width, board.height)
    inside = set(edge)
    for cell in edge:
        for other in table[cell]:
            if flat[other] == COVERED and other not in inside:
                assert all(other in layout for layout in layouts)  # a known mine


@pytest.mark.parametrize(("board", "edge"), CASES)
def test_an_edge_alone_has_the_mine_patterns_of_the_whole_position(board, edge):
    layouts = every_layout(board)
    patterns = Counter(frozenset(layout & set(edge)) for layout in layouts)
    alone = edge_alone(board, count_position(board), edge)
    counts = {len(pattern) for pattern in patterns}
    if len(counts) > 1:
        assert alone is None  # the mine count varies: tied to the rest by the total
        return
    assert alone is not None
    seen = {frozenset(c for k, c in enumerate(alone.cells) if m >> k & 1) for m in alone.masks}
    # Every pattern of the edge appears equally often in the whole position's layouts
    # (the rest's layouts do not depend on it), and these are exactly the edge's own.
    assert seen == set(patterns) and len(set(patterns.values())) == 1


def test_a_decision_s_pieces_name_the_edge_and_its_exact_gain():
    for board, edge in CASES:
        weights = count_position(board)
        if edge_alone(board, weights, edge) is None:
            continue
        found = [pieces(board, weights, cell, "search", 1000) for cell in edge]
        assert all(p.in_edge and p.solved_edges >= 1 and p.edge_gain >= -1e-12 for p in found)
        assert min(p.edge_gain for p in found) == pytest.approx(0.0, abs=1e-12)
        outside = pieces(board, weights, -1, "search", 1000)
        assert not outside.in_edge and outside.edge_gain == 0.0
        assert outside.past_budget == (weights.layouts <= 1000)
        return
    raise AssertionError("no case with an edge of a fixed mine count")


def test_the_command_tables_a_guess_log(tmp_path):
    log = tmp_path / "guesses.jsonl"
    logger = GuessLogger(make_agent("search"))
    log_games("beginner", "safe", range(30), 0, logger, log)
    markdown = tmp_path / "pieces.md"
    code = jsminesweeper_pieces.main(
        ["--guesses", str(log), "--markdown", str(markdown), "--no-progress"]
    )
    assert code == 0
    text = markdown.read_text()
    assert text.startswith("```sh\npython benchmarks/jsminesweeper_pieces.py --guesses")
    assert "| isolated edge |" in text and "guesses in 30 games" in text


def test_a_missing_log_is_one_line_and_exit_2(tmp_path):
    result = subprocess.run(
        [sys.executable, "benchmarks/jsminesweeper_pieces.py", "--guesses", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].endswith("no such file")
