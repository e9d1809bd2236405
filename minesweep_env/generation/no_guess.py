"""Layouts solvable without guessing from a known start cell, as Simon Tatham's Mines makes.

Two ways to draw them:

``rejection`` (default, uniform): draw mines uniformly outside the start zone
(the start cell and its neighbours) until a layout is solvable. Every no-guess
layout with a mine-free start zone is equally likely. It is fast on the
standard boards (about 1 draw in 7 passes on expert with ``substitution``), but
slows down sharply on denser boards, where few layouts pass.

``repair`` (fast on dense boards, biased): draw as above, play from the start;
whenever the solver is stuck, move one mine from the frontier (covered cells
next to opened ones) to a covered safe cell far from the opened area, and keep
playing. When the play gets through, the layout is replayed from scratch
(earlier deductions used the old numbers), repairing again if needed. The
bias is small but real (``benchmarks/generate.py``, 20,000 maps per method):
on 5x5 with 6 mines, each cell's mine share is within 0.020 of the exact
uniform no-guess share (rejection: 0.008, sampling noise), corners getting a
little fewer mines (0.348 against 0.357); on expert (300 maps per method) the
mean 3BV, openings and mine density next to the start zone match rejection's
within sampling noise.

Either way the result is finally checked with the rule set alone, the same
check as ``semiautomines solvable`` (:func:`is_solvable`), by
:func:`~.generator_check.solvable`: the same verdict with less work, which matters
because most drawn layouts fail it.

The repair play uses a small built-in engine for the two one-cell rules (a
number whose mines are all flagged frees its other neighbours; a number with as
many covered neighbours as missing mines flags them all) and asks the named rule
set only when those are stuck: every rule set proves at least that much, and the
final check makes the guarantee independent of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from ..core.board import Board
from ..core.board_spec import check_board_dimensions
from ..core.cells import COVERED, FLAGGED, neighbour_table
from ..core.layout import MineLayout
from ..solver.base import RuleSet
from ..solver.registry import get_rule_set
from .generator_check import solvable

Method = Literal["repair", "rejection"]
METHODS: tuple[str, ...] = ("repair", "rejection")

MAX_REPAIRS_PER_CELL = 2
"""A fresh draw after this many mine moves per board cell: a safety net, rarely hit."""


def default_start(width: int, height: int) -> tuple[int, int]:
    """The start cell when none is given: the centre (rounded down), as players often open."""
    return width // 2, height // 2


def start_zone(width: int, height: int, start: tuple[int, int]) -> list[int]:
    """Flat indices of the start cell and its neighbours: kept mine-free so the start opens."""
    index = start[1] * width + start[0]
    return [index, *neighbour_table(width, height)[index]]


def check_fits(width: int, height: int, mines: int, start: tuple[int, int]) -> None:
    """Refuse sizes, mine counts and start cells that cannot make a map.

    :raises ValueError: with a one-line reason.
    """
    check_board_dimensions(width, height)
    x, y = start
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"start cell ({x}, {y}) is outside the {width}x{height} board")
    room = width * height - len(start_zone(width, height, start))
    if not 0 <= mines <= room:
        raise ValueError(
            f"{mines} mines do not fit: a {width}x{height} board has {room} cells "
            f"outside the start zone around ({x}, {y})"
        )


def layout_from_mines(mines: np.ndarray, rng: np.random.Generator) -> MineLayout:
    """A layout with random IOCCC priorities that describe exactly these mines."""
    flat = mines.reshape(-1)
    mine_cells, safe_cells = np.flatnonzero(flat), np.flatnonzero(~flat)
    priorities = np.empty(flat.size, dtype=np.int64)
    priorities[mine_cells] = rng.permutation(len(mine_cells))
    priorities[safe_cells] = len(mine_cells) + rng.permutation(len(safe_cells))
    return MineLayout(mines=mines.copy(), priorities=priorities.reshape(mines.shape))


@lru_cache(maxsize=64)
def _outside_zone(width: int, height: int, start: tuple[int, int]) -> np.ndarray:
    """Flat indices of the cells outside the start zone, ascending (read-only: shared)."""
    in_zone = np.zeros(width * height, dtype=bool)
    in_zone[start_zone(width, height, start)] = True
    cells = np.flatnonzero(~in_zone)
    cells.flags.writeable = False
    return cells


def draw_outside_zone(
    width: int, height: int, mines: int, start: tuple[int, int], rng: np.random.Generator
) -> np.ndarray:
    """Mines drawn uniformly among the cells outside the start zone, as a (H, W) bool array."""
    flat = np.zeros(width * height, dtype=bool)
    flat[rng.choice(_outside_zone(width, height, start), size=mines, replace=False)] = True
    return flat.reshape(height, width)


class _Play:
    """One play of a layout from the start cell: the fast engine the generator repairs.

    Works on flat Python lists (cheaper than numpy for per-cell work on a few
    hundred cells). The view uses the board codes: numbers, COVERED, FLAGGED.
    """

    def __init__(self, mines: np.ndarray, start: tuple[int, int], rules: RuleSet):
        self.height, self.width = mines.shape
        self.rules = rules
        self.neighbours = neighbour_table(self.width, self.height)
        self.mines = [bool(m) for m in mines.reshape(-1)]
        self.mine_count = sum(self.mines)
        self.numbers = [sum(self.mines[n] for n in nbs) for nbs in self.neighbours]
        self.view = [COVERED] * len(self.mines)
        self.safe_left = len(self.mines) - self.mine_count
        self.todo: set[int] = set()
        self.open(start[1] * self.width + start[0])

    def open(self, index: int) -> None:
        """Open a safe cell; zeros flood. Opened cells go on the rule worklist."""
        view, numbers, neighbours = self.view, self.numbers, self.neighbours
        stack = [index]
        view[index] = numbers[index]
        self.safe_left -= 1
        while stack:
            cell = stack.pop()
            # The cell and its opened neighbours (one covered cell fewer) need a look.
            self.todo.add(cell)
            self.todo.update(n for n in neighbours[cell] if view[n] >= 0)
            if numbers[cell] != 0:
                continue
            for n in neighbours[cell]:
                if view[n] == COVERED:
                    view[n] = numbers[n]
                    self.safe_left -= 1
                    stack.append(n)

    def one_cell_rules(self) -> None:
        """Apply the two one-cell rules until they prove nothing more."""
        view, neighbours = self.view, self.neighbours
        while self.todo:
            cell = self.todo.pop()
            number = view[cell]
            if number < 0:
                continue
            covered = [n for n in neighbours[cell] if view[n] == COVERED]
            if not covered:
                continue
            missing = number - sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
            if missing == 0:
                for n in covered:
                    if view[n] == COVERED:
                        self.open(n)
            elif missing == len(covered):
                for n in covered:
                    view[n] = FLAGGED
                    self.todo.update(m for m in neighbours[n] if view[m] >= 0)

    def board(self) -> Board:
        grid = np.array(self.view, dtype=np.int8).reshape(self.height, self.width)
        return Board(grid, self.mine_count)

    def run(self) -> bool:
        """Play until solved or stuck; returns whether every safe cell is open."""
        while self.safe_left:
            self.one_cell_rules()
            if not self.safe_left:
                break
            proof = self.rules.prove(self.board())
            if not proof.safe and not proof.mines:
                return False
            for index in proof.mines:
                if self.view[index] == COVERED:
                    self.view[index] = FLAGGED
                    self.todo.update(m for m in self.neighbours[index] if self.view[m] >= 0)
            for index in proof.safe:
                if self.view[index] == COVERED:
                    if self.mines[index]:
                        raise AssertionError(f"rule set {self.rules.name!r} proved a mine safe")
                    self.open(index)
        return True

    def move_mine(self, source: int, target: int) -> None:
        """Move a covered (or flagged) mine to a covered safe cell; opened numbers follow."""
        self.mines[source], self.mines[target] = False, True
        if self.view[source] == FLAGGED:
            self.view[source] = COVERED
        for cell, change in ((source, -1), (target, 1)):
            for n in self.neighbours[cell]:
                self.numbers[n] += change
                if self.view[n] >= 0:
                    self.view[n] = self.numbers[n]
                    self.todo.add(n)

    def repair(self, rng: np.random.Generator, zone: set[int]) -> str:
        """Move one frontier mine away from the opened area.

        Returns ``"play on"`` when the mine went to a covered cell far from the
        opened area (the position stays a true one, play can go on), ``"replay"``
        when no such cell was left and it went under an opened cell instead (the
        play must start again), ``"stuck"`` when no mine can move.
        """
        view, neighbours = self.view, self.neighbours
        frontier_mines, far_safe = [], []
        for cell, value in enumerate(view):
            if value != COVERED:
                continue
            near = any(view[n] >= 0 for n in neighbours[cell])
            if self.mines[cell]:
                if near:
                    frontier_mines.append(cell)
            elif not near:
                far_safe.append(cell)
        if not frontier_mines:
            # The opened area is walled in by flags: free a flag next to the covered
            # rest, so the numbers around it open a way in.
            frontier_mines = [
                cell
                for cell, value in enumerate(view)
                if value == FLAGGED and any(view[n] == COVERED for n in neighbours[cell])
            ]
        if not frontier_mines:
            return "stuck"
        source = frontier_mines[rng.integers(len(frontier_mines))]
        if far_safe:
            self.move_mine(source, far_safe[rng.integers(len(far_safe))])
            return "play on"
        # Only guesses among the last covered cells are left (e.g. a 50/50 at
        # the edge): moving the mine among them would keep the guess.
        opened = [c for c, v in enumerate(view) if v >= 0 and c not in zone]
        if not opened:
            return "stuck"
        self.mines[source] = False
        self.mines[opened[rng.integers(len(opened))]] = True
        return "replay"

    def mine_array(self) -> np.ndarray:
        return np.array(self.mines, dtype=bool).reshape(self.height, self.width)


@dataclass(frozen=True, eq=False)
class GeneratedMap:
    """A no-guess layout with how it was made.

    :param layout: the mines, with random IOCCC priorities.
    :param start: the start cell it is solvable from.
    :param draws: fresh random layouts drawn (1 unless restarts were needed).
    :param repairs: mines moved by the repair method (0 for rejection).
    :param seconds: wall time spent on this map.
    """

    layout: MineLayout
    start: tuple[int, int]
    draws: int
    repairs: int
    seconds: float


def generate_no_guess(
    width: int,
    height: int,
    mines: int,
    rng: np.random.Generator,
    start: tuple[int, int] | None = None,
    rule_set: str | RuleSet = "substitution",
    method: Method = "rejection",
    max_draws: int | None = None,
) -> GeneratedMap:
    """A layout solvable from ``start`` by ``rule_set`` alone (checked by :func:`is_solvable`).

    The start cell and its neighbours hold no mine, so the start opens an area.

    :param start: defaults to :func:`default_start` (the centre).
    :param method: ``"rejection"`` (uniform) or ``"repair"`` (faster when dense, biased).
    :param max_draws: give up after this many fresh draws (``None``: never).
    :raises ValueError: when the mines do not fit, or no layout was found in ``max_draws``.
    """
    began = time.perf_counter()
    start = default_start(width, height) if start is None else start
    check_fits(width, height, mines, start)
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    rules = get_rule_set(rule_set)
    draws = repairs = 0
    max_repairs = MAX_REPAIRS_PER_CELL * width * height
    while max_draws is None or draws < max_draws:
        draws += 1
        mine_array = draw_outside_zone(width, height, mines, start, rng)
        if method == "repair":
            repaired, moved = _repair_until_solved(mine_array, start, rules, rng, max_repairs)
            repairs += moved
            if repaired is None:
                continue
            mine_array = repaired
        # Rejection accepts exactly the layouts this check accepts: uniform over them.
        if solvable(mine_array, start, rules):
            layout = layout_from_mines(mine_array, rng)
            return GeneratedMap(layout, start, draws, repairs, time.perf_counter() - began)
    raise ValueError(f"no no-guess layout found in {max_draws} draws")


def _repair_until_solved(
    mine_array: np.ndarray,
    start: tuple[int, int],
    rules: RuleSet,
    rng: np.random.Generator,
    max_repairs: int,
) -> tuple[np.ndarray | None, int]:
    """Repair until a fresh play from the start gets through; ``None`` if it gave up."""
    height, width = mine_array.shape
    zone = set(start_zone(width, height, start))
    moved = 0
    while True:
        play = _Play(mine_array, start, rules)
        if play.run():
            return mine_array, moved
        while moved < max_repairs:
            outcome = play.repair(rng, zone)
            if outcome == "stuck":
                return None, moved
            moved += 1
            if outcome == "replay" or play.run():
                break
        else:
            return None, moved
        mine_array = play.mine_array()


def generate_random(
    width: int,
    height: int,
    mines: int,
    rng: np.random.Generator,
    start: tuple[int, int] | None = None,
) -> MineLayout:
    """A uniform layout; with ``start``, uniform among those with a mine-free start zone."""
    if start is None:
        check_board_dimensions(width, height)  # before MineLayout.random allocates
        if not 0 <= mines <= width * height:
            raise ValueError(f"mines must be in 0..{width * height}, got {mines}")
        return MineLayout.random(width, height, mines, rng)
    check_fits(width, height, mines, start)
    return layout_from_mines(draw_outside_zone(width, height, mines, start, rng), rng)
