"""The greedy baseline: probe the cell least likely to hold a mine.

Probabilities are exact (the probability engine's integer layout counts, the
global mine count included), so ties are exact too. Many cells often share
the lowest probability, most of all the cells far from any number and every
cell on the empty board, so the tie-break matters. The default,
``tie_break="lookahead"``, is the rule a strong player uses, "prefer the guess
that opens new information":

1. rank the tied cells by their chance of being a zero (which opens an
   area), estimated as the product of ``1 - p`` over the covered neighbours
   (0 next to a flag, where a zero is impossible), then by fewest neighbours
   (a corner, then an edge), then by flat index (so the agent is deterministic);
2. among the first :data:`LOOKAHEAD` of them, take the one with the best
   chance of *progress*: that once it is probed and shows its number, some
   other cell is provably safe (a zero always is). This is exact: for every
   number the cell could show, the engine counts the layouts that fit and
   checks for a cell that no layout mines. Ties keep the ranking of step 1.
   :mod:`.progress` computes it, and spares most of the exact counts.

``tie_break="zero"`` stops after step 1 (agent ``greedy-zero``); the look-ahead
is worth 1 to 2 points on expert over it (``benchmarks/baselines.py``).

``tie_break="random"`` picks uniformly among the tied cells (seeded): the
plain "click the lowest probability" player of the literature, for measuring
what the tie-break is worth (agents ``greedy-plain``, random first click too,
and ``greedy-opening``, the known-best first click then random ties).

The first move is the agent's too. With ``opening=True`` it uses the openings
known to be best: a corner when the first click is only guaranteed safe, and
(3, 3) when its neighbours are guaranteed safe too (``first_click="zero"``),
whose whole protected zone lies inside the board, so the opening is larger.
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType
from typing import Literal

import numpy as np

from minesweep_env.compiled import ready
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_sum
from minesweep_env.solver.probability import Weights, count_position
from minesweep_env.solver.probability.engine import CACHE_LIMIT

from ..base import Agent
from ..progress import ESTIMATE_MARGIN, FLOAT_CELLS, best_progress, progress_chance
from ..ranking import (
    CLEAR_FLOOR,
    CLEAR_GAP,
    RANK_GAP,
    Ranking,
    float_ranking,
    merge_equal_groups,
)

__all__ = [
    "LOOKAHEAD",
    "GreedyAgent",
    "OpeningGreedyAgent",
    "PlainGreedyAgent",
    "TIE_BREAKS",
    "TieBreak",
    "clear_lowest",
    "ZeroGreedyAgent",
    "first_click_cell",
    "neighbour_counts",
    "progress_chance",
    "zero_chance",
]

LOOKAHEAD = 6
"""Tied cells (the likeliest zeros) whose chance of progress is computed exactly;
each costs one engine call per number it could show."""

_MARGINS = np.array([CLEAR_GAP, CLEAR_FLOOR, RANK_GAP, ESTIMATE_MARGIN])
"""The margins of :mod:`.ranking` and :mod:`.progress`, for the one-call kernel."""

TieBreak = Literal["lookahead", "zero", "random"]
TIE_BREAKS = ("lookahead", "zero", "random")


def first_click_cell(width: int, height: int, policy: str) -> tuple[int, int]:
    """The known best first click: (3, 3) under ``zero`` (pulled inward on small
    boards), a corner under every other policy."""
    if policy == "zero":
        return min(3, (width - 1) // 2), min(3, (height - 1) // 2)
    return 0, 0


def zero_chance(view: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """Per cell, the product of ``1 - p`` over its neighbours: an estimate of the
    chance that it shows a zero if safe (neighbours taken as independent).

    Opened neighbours count as safe, flagged ones as mines.
    """
    # A covered cell of no probability (NaN) counts as a mine: 1 - 1.
    safe = np.where(view == COVERED, 1.0 - probabilities, 1.0)
    safe[np.isnan(safe) | (view == FLAGGED)] = 0.0
    return np.ascontiguousarray(neighbour_sum(safe, border=1.0, combine=np.multiply))



def clear_lowest(board: Board, valid: np.ndarray) -> int | None:
    """The valid cell of lowest mine probability, by the compiled float path, when it
    is lower than every other by a clear gap; ``None`` when the exact weights must
    decide (a tie or near-tie, or the float path is not loaded or defers).

    The float path's probabilities are within 1e-12 of the exact ones and NaN
    exactly where the exact engine has none, so a clear float minimum is the
    exact engine's unique minimum: the same cell the exact route picks.
    """
    if not ready():
        return None
    from minesweep_env.solver.probability.engine_compiled import fast_mine_probabilities

    probabilities = fast_mine_probabilities(board, None)
    if probabilities is None:
        return None
    flat = probabilities.reshape(-1)
    open_cells = np.flatnonzero(valid & ~np.isnan(flat))
    if open_cells.size < 2:
        return int(open_cells[0]) if open_cells.size else None
    values = flat[open_cells]
    order = np.argpartition(values, 1)[:2]
    lowest, runner_up = values[order[0]], values[order[1]]
    if runner_up - lowest > CLEAR_GAP * lowest + CLEAR_FLOOR:
        return int(open_cells[order[0]])
    return None


def _float_paths(board: Board) -> ModuleType | None:
    """The compiled paths (:mod:`.float_choice`) when the float shortcuts may decide on
    ``board`` (kernels cached, the mine total known, the board within
    :data:`~..progress.FLOAT_CELLS`), else ``None``."""
    if not ready() or board.total_mines is None or board.grid.size > FLOAT_CELLS:
        return None
    from . import float_choice

    return float_choice


@lru_cache(maxsize=16)
def neighbour_counts(height: int, width: int) -> np.ndarray:
    """Number of neighbours of every cell: 3 in a corner, 5 on an edge, 8 inside
    (read-only: one array per board size, shared by every caller)."""
    rows = np.full(height, 3)
    rows[[0, -1]] = 2
    cols = np.full(width, 3)
    cols[[0, -1]] = 2
    if height == 1:
        rows[:] = 1
    if width == 1:
        cols[:] = 1
    counts = np.outer(rows, cols) - 1
    counts.flags.writeable = False
    return counts


class GreedyAgent(Agent):
    """Probes the cell with the lowest exact mine probability.

    :param tie_break: ``"lookahead"`` (best chance of progress among the
        likeliest zeros), ``"zero"`` (likeliest zero, then corners and edges) or
        ``"random"`` (uniform among ties).
    :param opening: play the known best first click; ``False`` leaves it to
        the tie-break (every cell ties on the empty board).
    :param seed: seeds the ``random`` tie-break; :meth:`reset` reseeds it.
    """

    name = "greedy"
    deterministic = True

    def __init__(
        self, tie_break: TieBreak = "lookahead", opening: bool = True, seed: int | None = None
    ):
        if tie_break not in TIE_BREAKS:
            known = ", ".join(TIE_BREAKS)
            raise ValueError(f"tie_break must be one of {known}, got {tie_break!r}")
        self.tie_break = tie_break
        self.opening = opening
        self._rng = np.random.default_rng(seed)
        self._cache: dict = {}

    def reset(self, seed: int | None = None) -> None:
        # Only the random tie-break draws: the others need no fresh generator per game.
        if seed is not None and self.tie_break == "random":
            self._rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, game) -> int:
        minefield = game.minefield
        width, height = minefield.width, minefield.height
        valid = np.asarray(action_mask, dtype=bool).reshape(-1)
        if not valid.any():
            raise ValueError("no valid action: the game is over")
        if minefield.probes == 0 and self.opening:
            x, y = first_click_cell(width, height, minefield.first_click.value)
            if valid[y * width + x]:
                return y * width + x
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        board = minefield.board()
        if self.tie_break != "random":
            chosen = self._float_choice(board, minefield, valid, game.rule_set)
            if chosen is not None:
                return chosen
        # Exact integer weights: ties are found without float error. The auto-solver
        # usually counted this very position last (``complete``): take its count.
        weights = game.rule_set.known_weights(board)
        if weights is None:
            clear = clear_lowest(board, valid)
            if clear is not None:
                return clear
            weights = count_position(board, cache=self._cache, any_count=True)
        return self._choose(weights, valid, minefield)

    def _choose(self, weights: Weights, valid: np.ndarray, minefield) -> int:
        """The exact route: the valid cells of exactly the lowest mine weight, then the
        tie-break."""
        candidates = {i: w for i, w in weights.mine_weight.items() if w is not None and valid[i]}
        if not candidates:  # no total known and no frontier: every valid cell ties
            candidates = dict.fromkeys(np.flatnonzero(valid).tolist(), 0)
        lowest = min(candidates.values())
        tied = np.array(sorted(i for i, w in candidates.items() if w == lowest))
        if tied.size == 1:
            return int(tied[0])
        if self.tie_break == "random":
            return int(tied[self._rng.integers(tied.size)])
        return self._break_tie(tied, weights, minefield, certain_safe=lowest == 0)

    def _float_choice(self, board: Board, minefield, valid: np.ndarray, rule_set) -> int | None:
        """The cell the exact route below would choose, found from the compiled floats,
        or ``None`` when they do not decide it (see :mod:`.ranking`); exact counts
        only where a chance of progress needs one.

        One compiled call (:func:`~.float_choice.greedy_choice`)
        takes the steps of :meth:`_stepwise_choice` and says which fallback, if any, the
        decision needs; this method takes it.
        """
        compiled = _float_paths(board)
        if compiled is None:
            return None
        keep = 1 if self.tie_break == "zero" else LOOKAHEAD
        status, ranked = compiled.greedy_choice(
            board, valid, keep, self.tie_break == "lookahead", _MARGINS
        )
        if status == "chosen":
            return ranked[0]
        if status == "none":
            return None
        if status == "exact":
            return self._exact_choice(compiled, board, valid, minefield)
        return self._progress_choice(compiled, board, ranked, rule_set)

    def _stepwise_choice(self, board: Board, minefield, valid: np.ndarray, rule_set) -> int | None:
        """:meth:`_float_choice` step by step, each step its own numpy or kernel call: the
        plainest statement of when the floats decide, and the reference the one-call
        kernel is tested against (``tests/agents/greedy/test_greedy_choice.py``)."""
        compiled = _float_paths(board)
        if compiled is None:
            return None
        found = compiled.group_probabilities(board)
        if found is None:
            return None
        probabilities, groups = found
        width, height = minefield.width, minefield.height
        neighbours = neighbour_counts(height, width).reshape(-1)
        keep = 1 if self.tie_break == "zero" else LOOKAHEAD

        def rank(probabilities: np.ndarray, groups: np.ndarray) -> Ranking | None:
            zero = zero_chance(minefield.view, probabilities.reshape(height, width)).reshape(-1)
            return float_ranking(
                minefield.view, valid, probabilities.reshape(-1), groups, zero, neighbours, keep
            )

        ranking = rank(probabilities, groups)
        if ranking is None:
            # Near-ties between groups: ask which groups are exactly equal, and rank again.
            classes = compiled.weight_classes(board)
            if classes is None:
                return None
            ranking = rank(*merge_equal_groups(probabilities.reshape(-1), groups, classes))
            if ranking is None:
                return self._exact_choice(compiled, board, valid, minefield)
        if len(ranking.ranked) == 1 or ranking.certain_safe or self.tie_break == "zero":
            return ranking.ranked[0]
        return self._progress_choice(compiled, board, ranking.ranked, rule_set)

    def _exact_choice(self, compiled, board: Board, valid: np.ndarray, minefield) -> int | None:
        """The chances of a zero nearly tie: the exact route decides, on the very weights
        the exact engine counts, read from the compiled count (``None``: it cannot)."""
        exact = compiled.exact_weights(board)
        return None if exact is None else self._choose(exact, valid, minefield)

    def _progress_choice(self, compiled, board: Board, shortlist: list[int], rule_set) -> int:
        """The cell of ``shortlist`` with the best exact chance of progress; the exact
        weights are counted only if a chance must be counted exactly."""

        def weights() -> Weights:
            known = rule_set.known_weights(board)
            if known is None:
                known = compiled.exact_weights(board)
            if known is None:
                known = count_position(board, cache=self._cache, any_count=True)
            return known

        return shortlist[best_progress(board, shortlist, weights, self._cache)]

    def _break_tie(self, tied: np.ndarray, weights, minefield, certain_safe: bool = False) -> int:
        """The ``zero`` or ``lookahead`` tie-break among cells of equal lowest
        probability (see the module)."""
        width, height = minefield.width, minefield.height
        probabilities = np.full(width * height, np.nan)
        # One big-integer division per distinct weight (cells of a group share theirs).
        divided: dict[int, float] = {}
        for index, weight in weights.mine_weight.items():
            if weight is not None:
                if weight not in divided:
                    divided[weight] = weight / weights.layouts
                probabilities[index] = divided[weight]
        zero = zero_chance(minefield.view, probabilities.reshape(height, width)).reshape(-1)[tied]
        neighbours = neighbour_counts(height, width).reshape(-1)[tied]
        # lexsort sorts by the last key first: highest zero chance, then fewest
        # neighbours, then lowest index.
        ranked = tied[np.lexsort((tied, neighbours, -np.round(zero, 12)))]
        if certain_safe or self.tie_break == "zero":
            return int(ranked[0])  # certain_safe: a weaker rule set left safe cells
        board = minefield.board()
        shortlist = [int(c) for c in ranked[:LOOKAHEAD]]
        return shortlist[best_progress(board, shortlist, weights, self._cache)]

    def describe(self) -> str:
        opening = "known-best first click" if self.opening else "first click by tie-break"
        return f"{self.name} ({opening}, {self.tie_break} tie-break)"


class PlainGreedyAgent(GreedyAgent):
    """The plain lowest-probability player: ties (the first click included) broken
    uniformly at random. Kept to measure what :class:`GreedyAgent`'s tie-break is worth."""

    name = "greedy-plain"
    deterministic = False

    def __init__(self, seed: int | None = None):
        super().__init__(tie_break="random", opening=False, seed=seed)


class OpeningGreedyAgent(GreedyAgent):
    """The known-best first click, then ties broken at random: between
    :class:`PlainGreedyAgent` and :class:`GreedyAgent`, it splits what the
    opening is worth from what the later tie-break is worth."""

    name = "greedy-opening"
    deterministic = False

    def __init__(self, seed: int | None = None):
        super().__init__(tie_break="random", opening=True, seed=seed)


class ZeroGreedyAgent(GreedyAgent):
    """The known-best first click, ties to the likeliest zero (then corners and
    edges) without the look-ahead: measures what the look-ahead is worth."""

    name = "greedy-zero"
    deterministic = True

    def __init__(self, seed: int | None = None):
        super().__init__(tie_break="zero", opening=True, seed=seed)


def check_compiled() -> None:
    """The warm-up's check: the one-call greedy kernel picks a cell of exactly the lowest
    mine weight, along a game (:mod:`.float_choice`).

    :raises RuntimeError: on any disagreement.
    """
    from minesweep_env.core.layout import MineLayout
    from minesweep_env.core.minefield import GameState, Minefield

    from .float_choice import greedy_choice

    rng = np.random.default_rng(5)
    field = Minefield(MineLayout.random(9, 9, 10, rng), first_click="safe", rng=rng)
    field.probe(0, 0)
    margins = np.array([1e-9, 1e-11, 1e-10, 1e-9])
    while field.state is GameState.PLAYING:
        board = field.board()
        valid = board.grid.reshape(-1) == COVERED
        status, ranked = greedy_choice(board, valid, 6, True, margins)
        weights = count_position(board)
        lowest = min(w for i, w in weights.mine_weight.items() if w is not None and valid[i])
        if status == "chosen" and weights.mine_weight[ranked[0]] != lowest:
            raise RuntimeError(f"compiled greedy choice {ranked[0]} not lowest on {board.rows()}")
        cell = ranked[0] if status == "chosen" else min(
            i for i, w in weights.mine_weight.items() if w == lowest and valid[i]
        )
        field.probe(cell % 9, cell // 9)
