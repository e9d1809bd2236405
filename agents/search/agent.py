"""The search agent: the greedy agent's exact probabilities, plus a look at what comes next.

Each move, in this order:

1. the first click: the cell measured best for the board and first-click policy
   (:mod:`.opening`), else greedy's known best opening;
2. a cell safe in every layout, when a weaker rule set left one (greedy's ranking);
3. with ``book``, the book's cell at a position it holds (:mod:`.book`: the first
   guess after the corner shows a 1 on expert, measured by play-on races);
4. the exact endgame, when at most ``endgame_layouts`` layouts remain
   (:mod:`.endgame`): the probe with the highest win probability;
5. a forced guess (:mod:`.forced`: a 50/50 pair or 2x2 box, or a pseudo one,
   that no number outside it can ever settle), taken as early as possible; with
   ``chains``, also a closed chain of 50/50 links (:mod:`.chains`);
6. otherwise the candidates (:mod:`.candidates`: up to ``width`` cells within
   ``margin`` of the best safety, one cell far from any number, and, when the
   cells off the frontier are within ``offset_margin`` of the best, up to
   ``offset`` of them two steps from a number) ranked by
   ``survival * factor + progress_weight * safety * progress`` (:mod:`.lookahead`):
   the chance of surviving this probe and the next ``depth - 1`` guesses (at
   depth 2 the next guess valued as JSMinesweeper does, ``secondary``: the
   safest living cell blended with the second), times the candidate's potential
   50/50 factor (``fifty``, :mod:`.potential`), plus a tiny bonus for the chance
   that the probe lets the auto-solver move. Candidates that can show one number
   only rank last. Ties keep the greedy ranking, so the agent is deterministic.
   In its own moves (``act``) at depth 2 a candidate's count stops as soon as its
   score cannot reach the best so far (:meth:`SearchAgent._search_bounded`): the
   same cell, at a fraction of the counting; :meth:`SearchAgent.advise` weighs every
   candidate whole unless asked not to (``every=False``).

``depth=1`` ranks by safety alone with the progress bonus as the tie-break
(close to greedy); ``depth=2`` is the two-move survival of the strong public
solvers. From ``depth=3`` on (``deep_secondary``), the look-ahead keeps
the depth-2 valuation at its leaves: an outcome of a candidate that leaves a living
safe cell is valued as at depth 2 (its secondary safety), one where the player must
guess again by the best of its next guesses valued as the depth-2 default values a
candidate (two-move survival with the secondary safety, times that guess's own 50/50
factor; :func:`.lookahead.next_guess_value`). A compiled kernel
(:mod:`.lookahead_compiled`) weighs that middle level,
one call per position; with ``settle`` the candidates within :data:`SETTLE_GAP` of
the best are weighed again on exact counts. ``depth=3:deep_secondary=0`` is the plain
depth 3 (the last guess by its plain best safety; always settled;
benchmarks/results/search_depth3.md).
``deep_width`` (default :data:`DEEP_WIDTH`) is how many of the safest cells
each deeper position looks at (``search:depth=3:deep_width=8``).

The defaults of ``secondary``, ``fifty``, ``offset``, ``offset_margin``, ``width``
and ``progress_weight`` together are JSMinesweeper's way of choosing among its
candidates: +0.77 points (+0.32 to +1.22) over the plain depth-2 settings
(``secondary=0:fifty=0:offset=0:width=8:progress_weight=0.05``)
on 10,000 paired expert games, +0.58 (+0.26 to +0.91) on 20,000
(benchmarks/results/search_candidate_scoring.md).

The rest of JSMinesweeper's choice is on by default too
(benchmarks/results/search_enablers_tie_order.md): ``enablers`` (a cell that would
complete a would-be 50/50 shares its risk, :func:`.potential.scan`), ``influenced`` (the
cells of that scan join the candidates when their safety with that risk given back is
close to the best) and ``tie_clears`` (exact ties go to the larger expected number of
living clears). Together they raise the agreement with JSMinesweeper's choice on
recorded expert positions from 89% to 94%, and the win rate by +0.25 points (+0.02 to
+0.48) on 10,000 paired expert games over the candidate scoring alone
(``enablers=0:influenced=0:tie_clears=0``), +0.22 (+0.06 to +0.39) on 20,000.

Every setting, its default and its valid range are in :class:`.settings.SearchSettings`.
Five settings once offered were measured against the default on the same games,
found no better (benchmarks/results/search_settings_strength.md) and removed: a
weight for the risk shared with a 50/50 every player pays for, more candidates off the frontier,
two other valuations of the look-ahead's last guess (living cells only, and the
best blended with the second), and probing a safer cell the chosen one's every
number proves safe.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import Weights, count_position
from minesweep_env.solver.probability.engine import CACHE_LIMIT

from ..base import Agent
from ..big_counts import scaled_ratio, times
from ..settings import settings_from
from .book import book_cell
from .candidates import candidates, rank
from .chains import chain_guess, closed_chain
from .endgame import Endgame, Layouts, TooManyLayouts, TooMuchWork
from .forced import forced_guess
from .lookahead import Assessment, assess, assess_above
from .opening import opening_cell
from .potential import Scan, potential, scan
from .settings import (
    DEEP_GAP,
    DEEP_SECONDARY,
    DEEP_WIDTH,
    DEPTH,
    ENABLERS,
    ENDGAME_BUDGET,
    ENDGAME_LAYOUTS,
    FIFTY,
    INFLUENCED,
    MARGIN,
    OFFSET,
    OFFSET_MARGIN,
    PROGRESS_WEIGHT,
    SECONDARY,
    SETTLE,
    TIE_CLEARS,
    WIDTH,
    SearchSettings,
)

SETTLE_GAP = 1e-9
"""At depth 3 and more the compiled kernel weighs the look-ahead's last two guesses,
within about 1e-12 of the exact survival: candidates scoring within this of the best
are weighed again on exact counts, which choose among them. One further below
cannot be the exact choice, so the agent chooses as on exact counts throughout."""

CUT_MARGIN = 1e-9
"""How far below the best score a candidate's bound must fall before its count is
stopped (scores are rounded to 1e-12; their float sums err far less than this)."""


@dataclass(frozen=True)
class Advice:
    """A decision and why: the cell, how it was found, and the candidates weighed."""

    cell: int
    reason: str
    """``opening``, ``safe``, ``book``, ``endgame``, ``forced`` or ``search``."""
    safety: float
    candidates: tuple[Assessment, ...] = ()
    win_probability: float | None = None
    """The exact win probability (endgame only)."""


class SearchAgent(Agent):
    """Guesses by exact look-ahead over the numbers a probe can show.

    :param settings: every setting at once (:class:`.settings.SearchSettings`); or
        give them by name, ``SearchAgent(depth=3, width=4)``, each checked against
        its range (``SearchSettings`` lists them with their help).
    :param seed: unused (the agent is deterministic); accepted like every agent's.
    :raises ValueError: for an unknown setting or a value out of its range (one line).
    """

    name = "search"
    deterministic = True

    def __init__(
        self, settings: SearchSettings | None = None, seed: int | None = None, **options: object
    ):
        if settings is None:
            settings = settings_from(SearchSettings, options, self.name)
        elif options:
            raise ValueError(f"{self.name}: give settings or settings by name, not both")
        self.settings = settings
        self.depth = settings.depth
        self.margin = settings.margin
        self.width = settings.width
        self.deep_width = settings.deep_width
        self.progress_weight = settings.progress_weight
        self.endgame_layouts = settings.endgame_layouts
        self.endgame_budget = settings.endgame_budget
        self.offset = settings.offset
        self.offset_margin = settings.offset_margin
        self.secondary = settings.secondary
        self.fifty = settings.fifty
        self.tie_clears = settings.tie_clears
        self.enablers = settings.enablers
        self.influenced = settings.influenced
        self.deep_secondary = settings.deep_secondary
        self.settle = settings.settle
        self.deep_gap = settings.deep_gap
        self.chains = settings.chains
        self.book = settings.book
        self.opening = settings.opening
        first = (settings.first_x, settings.first_y)
        self.first_cell = first if settings.first_x >= 0 else None
        self._cache: dict = {}

    def reset(self, seed: int | None = None) -> None:
        self._cache.clear()

    def act(self, observation, action_mask, game) -> int:
        minefield = game.minefield
        valid = np.asarray(action_mask, dtype=bool).reshape(-1)
        if not valid.any():
            raise ValueError("no valid action: the game is over")
        if self.opening and minefield.probes == 0:
            opening = self._first_click(minefield)
            if opening is not None and valid[opening]:
                return opening
        board = minefield.board()
        # The auto-solver usually counted this very position last (``complete``).
        return self.advise(board, valid, game.rule_set.known_weights(board), every=False).cell

    def _first_click(self, minefield) -> int | None:
        """The first click: ``first_x``/``first_y``, else :func:`.opening.opening_cell`
        (``None`` when the given cell lies off the board)."""
        width, height, policy = minefield.width, minefield.height, minefield.first_click.value
        x, y = self.first_cell or opening_cell(width, height, minefield.mine_count, policy)
        return y * width + x if x < width and y < height else None

    def advise(
        self,
        board: Board,
        valid: np.ndarray | None = None,
        weights: Weights | None = None,
        *,
        every: bool = True,
    ) -> Advice:
        """The probe this agent makes on ``board`` (any position, not only a game's), and why.

        :param valid: boolean per flat cell, the probes allowed (default: covered cells).
        :param weights: the exact engine's weights of ``board``, when the caller has them.
        :param every: list every candidate weighed whole in the advice; ``False`` (the
            agent's own moves) stops counting a candidate once it cannot win, and lists
            only the candidates counted whole. The cell chosen is the same.
        :raises InconsistentBoardError: when no layout fits the position.
        :raises ValueError: when no cell may be probed.
        """
        flat = board.grid.reshape(-1)
        if valid is None:
            valid = flat == COVERED
        if not valid.any():
            raise ValueError("no cell to probe")
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        if weights is None:
            weights = count_position(board, cache=self._cache, any_count=True)
        mine = weights.mine_weight
        safe = [c for c in np.flatnonzero(valid).tolist() if mine.get(c) == 0]
        if safe:
            return Advice(rank(board.grid, weights, safe)[0], "safe", 1.0)
        booked = book_cell(board) if self.book else None
        if booked is not None and valid[booked]:
            return Advice(booked, "book", 1.0 - (mine.get(booked) or 0) / weights.layouts)
        endgame = self._endgame(board, weights)
        if endgame is not None:
            return endgame
        forced = forced_guess(board, weights, self._cache)
        if forced is None and self.chains == 1:
            forced = chain_guess(board, weights)
        if forced is not None and valid[forced]:
            return Advice(forced, "forced", 1.0 - mine[forced] / weights.layouts)
        if self.chains == 2:
            tossed = self._toss_chain(board, weights, valid, every)
            if tossed is not None:
                return tossed
        return self._search(board, weights, valid, every)

    def _toss_chain(
        self, board: Board, weights: Weights, valid: np.ndarray, every: bool
    ) -> Advice | None:
        """A closed chain's cell the look-ahead scores best, as a forced guess (``None``
        without a closed chain): all its cells are coin flips, which one is tossed only
        changes what its number then shows."""
        chain = closed_chain(board, weights)
        if chain is None:
            return None
        only = np.zeros_like(valid)
        cells = list(chain[0] + chain[1])
        only[cells] = valid[cells]
        if not only.any():
            return None
        return replace(self._search(board, weights, only, every), reason="forced")

    def _endgame(self, board: Board, weights: Weights) -> Advice | None:
        if weights.mines_left is None or weights.layouts > self.endgame_layouts:
            return None
        try:
            layouts = Layouts(board, self.endgame_layouts)
        except TooManyLayouts:
            return None
        try:
            cell, value = Endgame(layouts, self.endgame_budget).best_probe()
        except TooMuchWork:
            return None
        if cell < 0:
            return None
        safety = 1.0 - (weights.mine_weight[cell] or 0) / weights.layouts
        return Advice(cell, "endgame", safety, win_probability=value)

    def weigh(
        self,
        board: Board,
        weights: Weights | None = None,
        valid: np.ndarray | None = None,
        scanned: Scan | None = None,
    ) -> tuple[Assessment, ...]:
        """The candidates of ``board`` with their safety, chance of progress and
        survival, in the greedy ranking (what the search step chooses among).

        :param weights: the engine's weights of ``board`` (counted when ``None``).
        :param scanned: the position's whole-board scan (:func:`.potential.scan`), whose
            cells join the candidates with ``influenced``.
        """
        if weights is None:
            weights = count_position(board, cache=self._cache, any_count=True)
        if valid is None:
            valid = board.grid.reshape(-1) == COVERED
        listed = self._listed(board, weights, valid, scanned)
        depth = 2 if self._gapped else self.depth
        return tuple(self._assess(board, weights, cell, depth=depth) for cell in listed)

    def _listed(
        self, board: Board, weights: Weights, valid: np.ndarray, scanned: Scan | None
    ) -> list[int]:
        """The candidates :meth:`weigh` weighs, in the greedy ranking (none when no
        total is known and no frontier is left: nothing to weigh)."""
        listed = candidates(
            board.grid, weights, valid, self.margin, self.width, self.offset,
            self.offset_margin,
        )
        if any(weights.mine_weight.get(cell) is None for cell in listed):
            return []
        if self.influenced and scanned is not None:
            listed += self._influenced_candidates(weights, valid, scanned, listed)
        return listed

    def _influenced_candidates(
        self, weights: Weights, valid: np.ndarray, scanned: Scan, listed: list[int]
    ) -> list[int]:
        """Cells of the scan not yet listed whose safety, their would-be twins' risk
        given back, is over ``influenced`` times the best safety."""
        mine, layouts = weights.mine_weight, weights.layouts
        best = 1.0 - min(w for w in mine.values() if w is not None) / layouts
        cutoff = times(self.influenced * best, layouts)
        cells = set(scanned.enablers) | set(scanned.inside)
        return sorted(
            c
            for c in cells
            if valid[c]
            and c not in listed
            and mine.get(c) is not None
            and layouts - (mine[c] or 0)
            + scanned.enablers.get(c, 0)
            + scanned.inside.get(c, 0)
            > cutoff
        )

    def _assess(
        self, board: Board, weights: Weights, cell: int, fast: bool = True,
        depth: int | None = None,
    ) -> Assessment:
        """:func:`.lookahead.assess` with this agent's settings (``fast``: the compiled
        kernel may weigh the last two guesses, from depth 3 on; ``depth``: the agent's
        unless given)."""
        return assess(
            board,
            weights,
            cell,
            self.depth if depth is None else depth,
            self._cache,
            (self.deep_width,),
            fast,
            self.secondary,
            self.deep_secondary,
            self.fifty,
        )

    def _search(
        self, board: Board, weights: Weights, valid: np.ndarray, every: bool = True
    ) -> Advice:
        scanned = scan(board, weights, self._cache) if self.enablers or self.influenced else None
        if not every and self.depth == 2 and self.secondary:
            return self._search_bounded(board, weights, valid, scanned)
        assessed = self.weigh(board, weights, valid, scanned)
        if not assessed:
            cell = candidates(
                board.grid, weights, valid, self.margin, self.width, self.offset,
                self.offset_margin,
            )[0]
            return Advice(cell, "search", float("nan"))

        assessed = self._with_factors(board, weights, assessed, scanned)

        def score(assessment: Assessment) -> float:
            return round(self.score(assessment), 12)

        key = self._key
        # max keeps the first of equal keys: the greedy ranking breaks ties.
        best = max(assessed, key=key)
        if self._gapped:
            return self._deeper_among_close(board, weights, assessed, score(best), key)
        if self.depth >= 3 and (self.settle or not self._deep_secondary):
            assessed = self._settle(board, weights, assessed, score(best), score)
            best = max(assessed, key=key)
        return Advice(best.cell, "search", best.safety, assessed)

    def _search_bounded(
        self, board: Board, weights: Weights, valid: np.ndarray, scanned: Scan | None
    ) -> Advice:
        """:meth:`_search` at depth 2 with ``secondary``, the same cell chosen, each
        candidate's count stopped once it cannot reach the best score so far.

        A candidate's score is at most its survival times its 50/50 factor plus the
        progress weight times its safety (progress at most 1), and its survival grows
        by at most the share of the safe layouts still to count, so the factor is
        taken first and :func:`.lookahead.assess_above` stops where even the rest
        counted at safety 1 stays below the best. Only a score strictly below the best
        (by far more than the rounding) is cut, so ties are met exactly as before and
        the first of equal keys still wins."""
        listed = self._listed(board, weights, valid, scanned)
        if not listed:
            return self._search(board, weights, valid)
        enabling = scanned.enablers if scanned is not None and self.enablers else {}
        layouts = weights.layouts
        best: Assessment | None = None
        best_key = (-math.inf, -math.inf)
        counted = []
        for cell in listed:
            factor = self._factor(board, weights, cell, enabling)
            safety = 1.0 - (weights.mine_weight[cell] or 0) / layouts
            reach = best_key[0] - CUT_MARGIN - self.progress_weight * safety
            found = assess_above(board, weights, cell, reach / (factor or 1.0), self._cache)
            if found is None:
                continue
            if factor is not None:
                found = replace(found, factor=factor)
            counted.append(found)
            key = self._key(found)
            if key > best_key:
                best, best_key = found, key
        assert best is not None  # the first candidate is never cut
        return Advice(best.cell, "search", best.safety, tuple(counted))

    def _key(self, assessment: Assessment) -> tuple[float, float]:
        """What :meth:`_search` maximises: the score, then (with ``tie_clears``) the
        expected living clears, both rounded so float noise never breaks a tie."""
        clears = round(assessment.expected_clears, 12) if self.tie_clears else 0.0
        return round(self.score(assessment), 12), clears

    def _deeper_among_close(
        self,
        board: Board,
        weights: Weights,
        assessed: tuple[Assessment, ...],
        best: float,
        key: Callable[[Assessment], tuple[float, float]],
    ) -> Advice:
        """With ``deep_gap``: the candidates whose depth-2 score is within ``deep_gap``
        (relative) of the ``best`` weighed again at the agent's depth (their 50/50
        factors kept), the best of those chosen; alone, the best stands."""
        floor = best - self.deep_gap * abs(best)
        close = [a for a in assessed if key(a)[0] >= floor]
        if len(close) > 1:
            close = [
                replace(self._assess(board, weights, a.cell), factor=a.factor) for a in close
            ]
        chosen = max(close, key=key)
        return Advice(chosen.cell, "search", chosen.safety, assessed)

    @property
    def _gapped(self) -> bool:
        """Whether depth 2 ranks and the deeper look-ahead only chooses among its close
        candidates (``deep_gap``)."""
        return self._deep_secondary and self.deep_gap > 0

    @property
    def _deep_secondary(self) -> bool:
        """Whether the look-ahead keeps the depth-2 valuation from depth 3 on."""
        return self.depth >= 3 and self.secondary and self.deep_secondary

    def _settle(
        self,
        board: Board,
        weights: Weights,
        assessed: tuple[Assessment, ...],
        best: float,
        score: Callable[[Assessment], float],
    ) -> tuple[Assessment, ...]:
        """``assessed`` with the candidates within :data:`SETTLE_GAP` of the ``best``
        score weighed again on exact counts, when there are several of them."""
        close = [a.cell for a in assessed if score(a) >= best - SETTLE_GAP]
        if len(close) < 2:
            return assessed
        return tuple(
            replace(self._assess(board, weights, a.cell, fast=False), factor=a.factor)
            if a.cell in close
            else a
            for a in assessed
        )

    def _with_factors(
        self,
        board: Board,
        weights: Weights,
        assessed: tuple[Assessment, ...],
        scanned: Scan | None = None,
    ) -> tuple[Assessment, ...]:
        """``assessed`` with each candidate's ``1 + fifty * potential / safe layouts``
        (with ``enablers``, its risk as an enabler in ``scanned`` counted too)."""
        if not self.fifty:
            return assessed
        enabling = scanned.enablers if scanned is not None and self.enablers else {}
        weighed = []
        for a in assessed:
            factor = self._factor(board, weights, a.cell, enabling)
            weighed.append(a if factor is None else replace(a, factor=factor))
        return tuple(weighed)

    def _factor(
        self, board: Board, weights: Weights, cell: int, enabling: dict[int, int]
    ) -> float | None:
        """``cell``'s ``1 + fifty * potential / safe layouts`` (its risk as an enabler in
        ``enabling`` counted too), or ``None`` when it has none (no ``fifty``, no
        potential, or no safe layout)."""
        if not self.fifty:
            return None
        safe = weights.layouts - (weights.mine_weight[cell] or 0)
        tally = potential(board, weights, cell, self._cache, enabling.get(cell, 0))
        if not (tally and safe):
            return None
        return 1.0 + scaled_ratio(self.fifty, tally, safe)

    def score(self, assessment: Assessment) -> float:
        """What the agent maximises (rounded, so float noise never breaks a tie)."""
        if self.secondary and assessment.numbers == 1 and assessment.safety < 1:
            return -1.0  # dead: below every living candidate
        bonus = self.progress_weight * assessment.safety * assessment.progress
        return round(assessment.survival * assessment.factor + bonus, 12)

    def describe(self) -> str:
        return (
            f"{self.name} (depth {self.depth}, margin {self.margin}, width {self.width}, "
            f"progress weight {self.progress_weight}, exact endgame <= "
            f"{self.endgame_layouts} layouts"
            + (f", {self.offset} cells two steps from a number" if self.offset else "")
            + (f" within {self.offset_margin}" if self.offset and self.offset_margin else "")
            + (", secondary safety" if self.secondary else "")
            + (f", potential 50/50 weight {self.fifty}" if self.fifty else "")
            + (", ties by expected clears" if self.tie_clears and self.secondary else "")
            + (", enablers' 50/50 risk" if self.enablers and self.fifty else "")
            + (f", influenced cells over {self.influenced}" if self.influenced else "")
            + (
                ", depth-2 valuation at the leaves"
                if self.depth >= 3 and self.secondary and self.deep_secondary
                else ""
            )
            + ")"
        )


__all__ = [
    "DEEP_GAP",
    "DEEP_SECONDARY",
    "DEEP_WIDTH",
    "DEPTH",
    "ENABLERS",
    "ENDGAME_BUDGET",
    "ENDGAME_LAYOUTS",
    "FIFTY",
    "INFLUENCED",
    "MARGIN",
    "OFFSET",
    "OFFSET_MARGIN",
    "PROGRESS_WEIGHT",
    "SECONDARY",
    "SETTLE",
    "SETTLE_GAP",
    "TIE_CLEARS",
    "WIDTH",
    "Advice",
    "SearchAgent",
    "SearchSettings",
]
