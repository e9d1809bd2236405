"""Is a map solvable without guessing? Play it from a start cell with the auto-solver alone.

The start cell is probed with no first-click protection (``first_click="none"``):
the map is judged exactly as written, so a start on a mine is simply "not
solvable". IOCCC maps are judged the same way, although the IOCCC program would
delete a mine under the first probe; pass ``first_click="endoh"`` to judge them
under that rule instead.

Then the auto-solver of the chosen rule set opens and flags everything it can
prove, with the total mine count known (as in any game). The map is solvable
when every safe cell ends up opened; flags do not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.first_click import FirstClick
from ..core.layout import MineLayout
from ..core.minefield import GameState, Minefield
from ..solver.autosolve import autosolve
from ..solver.base import RuleSet
from ..solver.registry import get_rule_set


@dataclass(frozen=True, eq=False)
class SolvabilityVerdict:
    """The answer of :func:`is_solvable`.

    :param solvable: every safe cell was opened without a guess.
    :param covered_safe: safe cells still covered when the auto-solver stopped
        (0 when solvable; every safe cell when the start was on a mine).
    :param board: the position where the auto-solver stopped, with the total
        mine count (the solved position when solvable).
    :param start: the start cell (x, y).
    :param start_on_mine: the start cell holds a mine (then nothing was opened).
    :param rule_set: the rule set's registry name.
    """

    solvable: bool
    covered_safe: int
    board: Board
    start: tuple[int, int]
    start_on_mine: bool
    rule_set: str

    def __bool__(self) -> bool:
        return self.solvable

    def to_json(self) -> dict:
        """The verdict as JSON-ready data (the ``solvable --json`` output)."""
        return {
            "solvable": self.solvable,
            "start": list(self.start),
            "start_on_mine": self.start_on_mine,
            "rule_set": self.rule_set,
            "covered_safe": self.covered_safe,
            "width": self.board.width,
            "height": self.board.height,
            "mines": self.board.total_mines,
            "board": self.board.rows(),
        }


def is_solvable(
    layout: MineLayout,
    start: tuple[int, int],
    rule_set: str | RuleSet = "substitution",
    first_click: FirstClick | str = FirstClick.NONE,
) -> SolvabilityVerdict:
    """Play ``layout`` from ``start`` with the auto-solver of ``rule_set`` alone.

    :param start: (x, y) of the one probe the player makes.
    :param rule_set: a registered rule set name or instance; ``"complete"``
        gives the exact answer (every provable cell, mine count included).
    :param first_click: ``"none"`` (default) judges the map as written;
        ``"endoh"`` deletes a mine under the start first, as the IOCCC program.
        Policies that move mines at random are refused: the verdict would depend
        on chance.
    :raises ValueError: when ``start`` is off the board, or for a random policy.
    """
    x, y = start
    if not (0 <= x < layout.width and 0 <= y < layout.height):
        raise ValueError(
            f"start cell ({x}, {y}) is outside the {layout.width}x{layout.height} board"
        )
    policy = FirstClick(first_click)
    if policy not in (FirstClick.NONE, FirstClick.ENDOH):
        raise ValueError(f"first_click must be 'none' or 'endoh', got {policy.value!r}")
    rules = get_rule_set(rule_set)
    # The win rule is fixed: solvable means every safe cell opened, whatever the
    # rule set's own game-ending rule (the IOCCC one also wants flags everywhere).
    field = Minefield(layout, first_click=policy, rng=np.random.default_rng(0))
    field.probe(x, y)
    start_on_mine = field.state is GameState.LOST
    if not start_on_mine:
        autosolve(field, rules)
    board = field.board()
    safe_cells = field.width * field.height - field.mine_count
    covered_safe = safe_cells if start_on_mine else field.safe_cells_left
    if start_on_mine:
        board = Board(np.full_like(board.grid, -1), field.mine_count)
    return SolvabilityVerdict(
        solvable=covered_safe == 0,
        covered_safe=int(covered_safe),
        board=board,
        start=(x, y),
        start_on_mine=start_on_mine,
        rule_set=rules.name,
    )
