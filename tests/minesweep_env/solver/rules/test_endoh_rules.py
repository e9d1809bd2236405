"""Hand tests of the ``endoh`` / ``endoh-alt`` rule sets: the entry's pictures and the maps.

The pictures are the IOCCC entry author's rules 1-4. In them ``?``
is covered, ``!`` flagged and ``.`` probed with its number not shown; we give
``.`` as a covered cell known to be safe (``KNOWN_SAFE``), which the rules
treat exactly as a probed cell that constrains nothing.
"""

from __future__ import annotations

import numpy as np
import pytest
from paths import REPO

from minesweep_env import Board, Game, MineLayout, deduce, get_rule_set
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE

MAPS = REPO / "maps" / "ioccc"


def picture(rows: list[str]) -> Board:
    codes = {"?": COVERED, "!": FLAGGED, ".": KNOWN_SAFE}
    return Board(np.array([[codes[c] if c in codes else int(c) for c in row] for row in rows]))


def cells(*xy: tuple[int, int]) -> frozenset[tuple[int, int]]:
    return frozenset(xy)


# Each case: the picture before, then the full result of the rule set on it
# (the cells the picture's "after" shows, plus what follows from them).
PICTURES = {
    "rule 1: number == flags, probe the rest": (
        ["???",
         "?3?",
         "!!!"],
        cells((0, 0), (1, 0), (2, 0), (0, 1), (2, 1)),
        cells(),
    ),
    "rule 2: number == covered + flags, flag them": (
        [".??",
         ".4?",
         ".2!"],
        cells(),
        cells((1, 0), (2, 0), (2, 1)),
    ),
    # A = 1 at (1, 1), B = 4 at (2, 2): 1 == 4 - 3, so A's cells outside B are
    # safe. The same premise says B's three cells outside A hold three mines:
    # (3, 1) and (1, 3) are flagged too (the program does that when it scans B).
    "rule 3: A == B - B's cells outside A, A's cells outside B are safe": (
        ["???.",
         "?1??",
         "??4.",
         ".?.!"],
        cells((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)),
        cells((3, 1), (1, 3)),
    ),
    # The picture is the top-left corner of a larger board: the last column and
    # row stand for the cells beyond it. A = 3 at (1, 1), B = 1 at (2, 1):
    # 1 == 3 - 2, so A's cells outside B are mines. Then A's and B's cells
    # differ by (3, 0) only with the same mines left: (3, 0) is safe, and the
    # 2s at the bottom left, after the flag at (0, 1), make (2, 3) safe.
    "rule 4: B == A - A's cells outside B, those are mines": (
        ["?????",
         "?312?",
         "22..?",
         "?????"],
        cells((3, 0), (2, 3)),
        cells((0, 0), (0, 1)),
    ),
}


@pytest.mark.parametrize("rule_set", ["endoh", "endoh-alt"])
@pytest.mark.parametrize("name", list(PICTURES))
def test_seed_picture(rule_set: str, name: str) -> None:
    rows, safe, mines = PICTURES[name]
    assert deduce(picture(rows), rule_set) == (safe, mines)


def test_rule_3_single_step_shows_the_pictures_after_state() -> None:
    """One ``prove`` on the rule 3 picture already decides exactly what its "after" shows."""
    proof = get_rule_set("endoh").prove(picture(["???.", "?1??", "??4.", ".?.!"]))
    width = 4
    assert {(i % width, i // width) for i in proof.safe} >= {(0, 0), (1, 0), (2, 0), (0, 1)}


def test_counting_rule_is_endoh_only() -> None:
    """Covered cells left == mines left > 0: ``endoh`` flags them all, ``endoh-alt`` cannot."""
    # The corner cell touches only flags: no number can decide it.
    board = Board.from_rows(["?!2", "!!2", "221"], total_mines=4)
    assert deduce(board, "endoh") == (cells(), cells((0, 0)))
    assert deduce(board, "endoh-alt") == (cells(), cells())
    # With no mine left the program does not open what no number reaches, and nor do we.
    board = Board.from_rows(["?!2", "!!2", "221"], total_mines=3)
    assert deduce(board, "endoh") == (cells(), cells())
    # Unknown total: no counting.
    assert deduce(Board.from_rows(["?!2", "!!2", "221"]), "endoh") == (cells(), cells())


@pytest.mark.parametrize(("rule_set", "state"), [("endoh", "won"), ("endoh-alt", "playing")])
def test_unwinnable_map(rule_set: str, state: str) -> None:
    """``unwinnable.txt``: the corner mine touches no number; only ``endoh`` flags it."""
    game = Game.from_file(
        MAPS / "unwinnable.txt", rule_set, first_click="endoh", win_rule="nothing-covered"
    )
    assert game.probe(4, 4) == state
    corner = "!" if rule_set == "endoh" else "?"
    assert game.rows() == [corner + "!200", "!!200", "22100", "00000", "00000"]
    assert game.mines_left == (0 if rule_set == "endoh" else 1)
    if rule_set == "endoh-alt":
        # Stuck: the only covered cell left is a mine, so no move can win.
        covered = np.argwhere(game.view == COVERED)
        assert all(game.layout.mines[y, x] for y, x in covered)


def test_fresh_solver_finds_nothing_after_each_probe() -> None:
    """The solver's reuse of its last position never misses a deduction, nor makes a wrong one.

    After every probe of many random games, a new ``endoh`` instance looking at
    the settled board proves nothing more, and every flag is a mine.
    """
    rng = np.random.default_rng(5)
    for _ in range(60):
        width, height = int(rng.integers(5, 17)), int(rng.integers(5, 13))
        layout = MineLayout.random(width, height, int(width * height * rng.uniform(0.1, 0.25)), rng)
        # The program's win rule: the solver also runs after the last safe cell opens.
        game = Game(layout, "endoh", first_click="endoh", win_rule="nothing-covered")
        while game.state == "playing":
            safe = np.argwhere((game.view == COVERED) & ~game.layout.mines)
            y, x = safe[rng.integers(len(safe))]
            game.probe(int(x), int(y))
            proof = get_rule_set("endoh").prove(game.minefield.board())
            assert not proof.safe and not proof.mines
            assert not np.any((game.view == FLAGGED) & ~game.layout.mines)


def one_rule_by_definition(board: Board, count_rule: bool) -> tuple[frozenset, frozenset]:
    """The program's rule written as plainly as possible: slow, for comparison only.

    For every ordered pair of probed cells (A, B), B possibly the imaginary
    empty cell: ``rem(B) - rem(A) == |Q - P|`` makes ``P - Q`` safe and
    ``rem(A) - rem(B) == |P - Q|`` makes ``P - Q`` mines; one conclusion at a
    time, until none applies; then ``prog.c``'s counting rule.
    """
    grid = board.grid.copy()
    height, width = grid.shape
    safe: set[tuple[int, int]] = set()
    mines: set[tuple[int, int]] = set()

    def around(x: int, y: int) -> tuple[set[tuple[int, int]], int]:
        cov, left = set(), int(grid[y, x])
        for ny in range(max(0, y - 1), min(height, y + 2)):
            for nx in range(max(0, x - 1), min(width, x + 2)):
                if grid[ny, nx] == COVERED:
                    cov.add((nx, ny))
                elif grid[ny, nx] == FLAGGED:
                    left -= 1
        return cov, left

    while True:
        numbers = [(x, y) for y in range(height) for x in range(width) if grid[y, x] >= 0]
        found = None
        for a in numbers:
            p, rem_a = around(*a)
            for b in [None, *numbers]:
                q, rem_b = around(*b) if b else (set(), 0)
                if (p - q) and rem_b - rem_a == len(q - p):
                    found = (p - q, KNOWN_SAFE)
                elif (p - q) and rem_a - rem_b == len(p - q):
                    found = (p - q, FLAGGED)
                if found:
                    break
            if found:
                break
        if found is None and count_rule and board.total_mines is not None:
            covered = {(x, y) for y in range(height) for x in range(width) if grid[y, x] == COVERED}
            left = board.total_mines - int(np.count_nonzero(grid == FLAGGED))
            if covered and len(covered) == left:
                found = (covered, FLAGGED)
        if found is None:
            return frozenset(safe), frozenset(mines)
        decided, code = found
        for x, y in decided:
            grid[y, x] = code
        (safe if code == KNOWN_SAFE else mines).update(decided)


@pytest.mark.parametrize("rule_set", ["endoh", "endoh-alt"])
def test_rule_set_equals_the_rule_by_definition(rule_set: str) -> None:
    """On random positions (up to 9x9, with flags), ``deduce`` gives the plain rule's result."""
    from positions import random_position

    for seed in range(200):
        board, _ = random_position(seed, max_side=9)
        expected = one_rule_by_definition(board, count_rule=rule_set == "endoh")
        assert deduce(board, rule_set) == expected, f"seed {seed}\n" + "\n".join(board.rows())
