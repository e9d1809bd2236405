"""What a probe can show, and how likely the player is to survive the guesses after it.

A guess is worth more than its own safety: a cell that is a little riskier
but whose number usually proves other cells safe (the auto-solver then opens
them) may beat the safest cell, whose number says nothing. This module
measures that exactly over the next move(s). For every number ``v`` a probed
cell could show, the probability engine counts the layouts that fit the
position with ``v`` there; that count, over the position's layouts, is the
chance that the cell is safe *and* shows ``v`` (the mine total is the same,
and the cell is no longer covered, so the trial position's layouts are
exactly those). In each such trial position either some covered cell is safe
in every layout (the auto-solver makes progress: the next move is safe) or
the player must guess again, at best with the trial's lowest mine probability
(depth 2), or with that guess's own look-ahead (depth 3 and more).

At depth 3 and more the last two guesses are weighed thousands of times a
game; with ``fast`` the compiled kernel
(:mod:`semiautomines_agents.search.lookahead_compiled`) weighs them, one
call per trial position, within about 1e-12 of the exact figure (the agent
may settle near ties on exact counts).

With ``secondary`` and ``deep_secondary`` the deeper look-ahead keeps the
depth-2 default's (JSMinesweeper's) valuation: a trial position is valued by its
secondary safety unless the player must guess there (no living safe cell), and
then by its best next guess valued as the agent values a candidate at depth 2
(:func:`next_guess_value`, the 50/50 factor included).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from minesweep_env.compiled import ready
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, neighbour_sum, neighbour_table
from minesweep_env.solver.probability import Weights

from ..big_counts import scaled_ratio
from ..grouped_count import KNOWN_SAFE_GROUP, GroupedCount
from ..progress import FLOAT_CELLS, exact_trial_count, number_range
from .candidates import off_frontier
from .potential import potential


@dataclass(frozen=True)
class Outcome:
    """One number a probed cell can show, and the position it leaves."""

    number: int
    board: Board
    """The position with the cell showing ``number`` (before the auto-solver)."""
    count: Weights | GroupedCount
    """The exact count of that position: the engine's weights, or the compiled count's
    groups (read as weights only when asked, :attr:`weights`)."""

    @cached_property
    def weights(self) -> Weights:
        """The engine's exact weights of that position: ``layouts`` is how many of
        the original position's layouts have the cell safe and showing ``number``."""
        count = self.count
        return count.weights() if isinstance(count, GroupedCount) else count

    @property
    def layouts(self) -> int:
        """The position's layouts (:attr:`weights`' ``layouts``)."""
        return self.count.layouts

    @cached_property
    def _ranked(self) -> tuple[list[int], np.ndarray, np.ndarray]:
        """The covered cells' weights as small ranks: (the distinct weights, ascending;
        per covered cell its weight's rank, ``len(distinct)`` for no weight; the cells).

        The weights are exact, often beyond a float, but few of them differ, so the
        cells are sorted and tested as ranks rather than one big integer at a time."""
        if isinstance(self.count, GroupedCount):
            return self._grouped[:3]
        mine = self.weights.mine_weight
        distinct = sorted(set(mine.values()) - {None})
        rank: dict[int | None, int] = dict(zip(distinct, range(len(distinct)), strict=True))
        rank[None] = len(distinct)
        ranks = np.fromiter(map(rank.__getitem__, mine.values()), np.int64, len(mine))
        cells = np.fromiter(mine, np.int64, len(mine))
        covered = self.board.grid.reshape(-1)[cells] == COVERED
        return distinct, ranks[covered], cells[covered]

    @cached_property
    def _grouped(self) -> tuple[list[int], np.ndarray, np.ndarray, Guessable | None]:
        """:attr:`_ranked` and :attr:`_guessable` of a grouped count, from two compiled
        passes over the cells (:mod:`.lookahead_compiled`): which groups have a covered
        cell (only their weights are ranked: a group with none, such as an empty
        off-frontier group, has no meaningful weight), then every cell by its rank."""
        from .lookahead_compiled import groups_present, rank_cells

        count = self.count
        assert isinstance(count, GroupedCount)
        groups = count.groups
        if groups.flags.writeable:  # the kernels take them read-only
            groups = groups.view()
            groups.flags.writeable = False
        flat = np.require(self.board.grid, np.int8, ["C", "W"]).reshape(-1)
        values = [*count.values, 0]  # the last: known-safe cells, weight 0
        present = np.empty(len(values), np.bool_)
        groups_present(flat, groups, KNOWN_SAFE_GROUP, present)
        present_groups = np.flatnonzero(present).tolist()
        distinct = sorted({values[g] for g in present_groups})
        rank = {weight: k for k, weight in enumerate(distinct)}
        group_rank = np.zeros(len(values), np.int64)
        group_rank[present_groups] = [rank[values[g]] for g in present_groups]
        low = 1 if distinct and distinct[0] == 0 else 0
        high = len(distinct) - (1 if distinct and distinct[-1] == count.layouts else 0)
        size = flat.size
        cells, ranks, order = (np.empty(size, np.int64) for _ in range(3))
        living = np.empty(size, np.bool_)
        counted, kept = rank_cells(
            flat, groups, group_rank, KNOWN_SAFE_GROUP, low, high, self.board.width,
            cells, ranks, order, living, np.empty(size, np.int8),
        )
        cells, ranks = cells[:counted], ranks[:counted]
        guessable = None
        if kept >= 0:
            chosen = order[:kept]
            guessable = Guessable(distinct, ranks[chosen], cells[chosen], living[:kept])
        return distinct, ranks, cells, guessable

    @cached_property
    def _undecided_ranks(self) -> tuple[int, int]:
        """The ranks ``[low, high)`` of :attr:`_ranked` whose weights lie strictly between
        0 and the layouts (a cell ranked ``len(distinct)``, with no weight, is undecided too)."""
        distinct = self._ranked[0]
        low = 1 if distinct and distinct[0] == 0 else 0
        high = len(distinct) - (1 if distinct and distinct[-1] == self.layouts else 0)
        return low, high

    @cached_property
    def progress(self) -> bool:
        """Whether some covered cell is now safe in every layout (so the
        auto-solver opens it), or nothing is left to guess (the game is won)."""
        distinct, ranks, _ = self._ranked
        low, high = self._undecided_ranks
        if low and (ranks == 0).any():
            return True
        # Else won when every covered cell is a mine in every layout.
        return high < len(distinct) and bool((ranks == high).all())

    def best_safety(self) -> float:
        """The safety of the least likely mine among the covered cells (1.0 on progress)."""
        if self.progress:
            return 1.0
        layouts = self.layouts
        known = [w for w in self.weights.mine_weight.values() if w is not None and w != layouts]
        if not known:  # no total known and no frontier left: nothing to go on
            return 0.5
        return 1.0 - min(known) / layouts

    def living_safety(self) -> float:
        """:meth:`best_safety` counting only *living* cells: a covered cell with
        no undecided covered neighbour shows a number every layout agrees on, so
        opening it teaches nothing. Progress then needs a living safe cell, and
        the next guess is the safest living cell (the safest of all when none
        lives): a dead cell's guess only postpones the one that informs.
        """
        flat = self.board.grid.reshape(-1)
        layouts = self.layouts
        mine = self.weights.mine_weight
        table = neighbour_table(self.board.width, self.board.height)

        def undecided(cell: int) -> bool:
            weight = mine.get(cell)
            return flat[cell] == COVERED and (weight is None or 0 < weight < layouts)

        def living(cell: int) -> bool:
            return any(undecided(n) for n in table[cell])

        covered = [c for c in mine if flat[c] == COVERED]
        if not any(undecided(c) for c in covered):
            return 1.0  # nothing left to guess
        if any(mine[c] == 0 and living(c) for c in covered):
            return 1.0
        ranked = sorted((w, c) for c in covered if (w := mine[c]) is not None and 0 < w < layouts)
        if not ranked:  # no total known and no frontier left: nothing to go on
            return 0.5
        weight = next((w for w, c in ranked if living(c)), ranked[0][0])
        return 1.0 - weight / layouts

    @cached_property
    def _guessable(self) -> Guessable | None:
        """The covered cells that are not certain mines, safest first, and which of
        them live (see :meth:`living_safety`); ``None`` when nothing is left to guess."""
        if isinstance(self.count, GroupedCount):
            return self._grouped[3]
        distinct, ranks, cells = self._ranked
        low, high = self._undecided_ranks
        undecided = np.zeros(self.board.grid.size, np.int8)
        undecided[cells[((ranks >= low) & (ranks < high)) | (ranks == len(distinct))]] = 1
        if not undecided.any():
            return None
        keep = ranks < high
        cells, ranks = cells[keep], ranks[keep]
        order = np.argsort(ranks * undecided.size + cells)  # safest first, then the lowest cell
        cells, ranks = cells[order], ranks[order]
        # A cell lives when one of its eight neighbours is undecided (one pass for all).
        beside = neighbour_sum(undecided.reshape(self.board.grid.shape)).reshape(-1)
        return Guessable(distinct, ranks, cells, beside[cells] != 0)

    def secondary_safety(self) -> float:
        """The next guess as JSMinesweeper values it: the safest *living* cell
        (see :meth:`living_safety`) blended 4 to 1 with the second safest living one.

        A living cell proven safe counts as safety 1, but a position whose only
        safe cell is the one the probe itself implied is worth less than one with
        two (the second counts a fifth). With a single living cell the second is
        taken as certain death (safety 0), as JSMinesweeper does when no cell is
        off the frontier. When no cell lives, the safest of all stands in for both.
        """
        found = self._guessable
        if found is None:
            return 1.0  # nothing left to guess
        living = np.flatnonzero(found.living)[:2].tolist()
        if not living:
            if not found.cells.size:  # no total known and no frontier left: nothing to go on
                return 0.5
            living = [0, 0]
        layouts = self.layouts
        best = 1.0 - found.weight(living[0]) / layouts
        second = 1.0 - found.weight(living[1]) / layouts if len(living) > 1 else 0.0
        return (4 * best + second) / 5

    @property
    def must_guess(self) -> bool:
        """Whether the player must guess next: something is left to guess and no
        *living* cell is safe in every layout (a dead safe cell teaches nothing, so
        opening it leaves the guess to come)."""
        found = self._guessable
        if found is None:
            return False
        living = np.flatnonzero(found.living)
        return not living.size or found.weight(int(living[0])) != 0

    def next_guesses(self, width: int) -> list[tuple[int, int]]:
        """(mine weight, cell) of the next guesses a deeper look-ahead weighs: the
        ``width`` safest *living* cells that are not mines in every layout, safest first,
        at most one of them off the frontier (the cells there are alike to the engine)."""
        found = self._guessable
        if found is None:
            return []
        living = np.flatnonzero(found.living)
        far = off_frontier(self.board.grid).reshape(-1)[found.cells[living]]
        chosen = living[~far | (np.cumsum(far) == 1)][:width]  # the first far cell only
        return [(found.weight(k), int(found.cells[k])) for k in chosen.tolist()]

    def safe_cells(self) -> set[int]:
        """The covered cells safe in every layout of the position."""
        distinct, ranks, cells = self._ranked
        if not distinct or distinct[0] != 0:
            return set()
        return set(cells[ranks == 0].tolist())

    def living_clears(self) -> int:
        """The living covered cells proven safe (JSMinesweeper's *living clears*)."""
        found = self._guessable
        if found is None or not found.distinct or found.distinct[0] != 0:
            return 0
        return int(np.count_nonzero(found.living & (found.ranks == 0)))


@dataclass(frozen=True)
class Guessable:
    """The covered cells of a position that are not mines in every layout, safest
    first (then the lowest cell), as ranks of the position's distinct weights."""

    distinct: list[int]
    """The distinct exact mine weights, ascending."""
    ranks: np.ndarray
    """Per cell, its weight's index in :attr:`distinct`."""
    cells: np.ndarray
    """The flat cells."""
    living: np.ndarray
    """Per cell, whether it lives (a neighbour of it is undecided)."""

    def weight(self, k: int) -> int:
        """The exact mine weight of the ``k``-th cell."""
        return self.distinct[int(self.ranks[k])]


def outcomes(board: Board, cell: int, cache: dict | None = None) -> list[Outcome]:
    """Every number ``cell`` could show if it is safe, with the position it leaves.

    :param cache: the engine's component cache (trial positions share most
        components with ``board``, so counting them is cheap), for the positions the
        compiled count does not weigh exactly (see :func:`..progress.exact_trial_weights`).
    """
    return list(each_outcome(board, cell, cache))


def each_outcome(
    board: Board, cell: int, cache: dict | None = None, numbers: Iterable[int] | None = None
) -> Iterator[Outcome]:
    """:func:`outcomes` one at a time, each counted only when asked for.

    :param numbers: the numbers to try, in this order (default: :func:`number_range`'s)."""
    # Only the numbers the neighbourhood allows: the engine would rule out the rest.
    for number in number_range(board, cell) if numbers is None else numbers:
        trial = board.copy()
        trial.grid.reshape(-1)[cell] = number
        count = exact_trial_count(trial, cache)
        if count is not None:  # else the cell cannot show this number here
            yield Outcome(number, trial, count)


@dataclass(frozen=True)
class Assessment:
    """How good a guess is: the figures the agent ranks candidates by."""

    cell: int
    safety: float
    """P(the cell is safe)."""
    progress: float
    """P(the auto-solver makes progress after it | it is safe)."""
    survival: float
    """P(surviving this guess and the next ``depth - 1`` guesses, each chosen
    at its best) with a safe move counted as surviving; the safety at depth 1."""
    clears: tuple[int, ...] = ()
    """Covered cells (not the cell itself) safe in every layout where the cell
    is safe: whatever number it shows, the auto-solver opens them next."""
    numbers: int = 0
    """How many numbers the cell could show if safe (1: it is *dead*, its
    probe teaches nothing)."""
    factor: float = 1.0
    """The agent's potential 50/50 factor on the survival (see :mod:`.potential`),
    set by the agent once it has weighed the candidates (1: none)."""
    expected_clears: float = 0.0
    """The expected number of living cells its number proves safe (with
    ``secondary`` only; JSMinesweeper's tie-break)."""


def assess(
    board: Board,
    weights: Weights,
    cell: int,
    depth: int,
    cache: dict | None = None,
    width_at: tuple[int, ...] = (4,),
    fast: bool = False,
    secondary: bool = False,
    deep_secondary: bool = False,
    fifty: float = 0.0,
) -> Assessment:
    """The exact safety, chance of progress and ``depth``-move survival of probing ``cell``.

    :param weights: the engine's weights of ``board``.
    :param width_at: how many candidates to look at in each deeper position
        (the last entry repeats); only used at depth 3 and more.
    :param fast: at depth 3 and more, weigh the last two guesses with the compiled
        kernel when it is loaded (a survival within about 1e-12 of the exact one).
    :param secondary: at depth 2, value the next guess as JSMinesweeper does
        (:meth:`Outcome.secondary_safety`; otherwise the safest cell, :meth:`Outcome.best_safety`).
    :param deep_secondary: with ``secondary``, from depth 3 on keep that valuation:
        an outcome with a living safe cell is valued as at depth 2, one where the
        player must guess by its best next guess valued as the depth-2 default values a
        candidate (:func:`next_guess_value`).
    :param fifty: the agent's 50/50 weight, for the next guesses' factors (with
        ``deep_secondary``).
    """
    found = outcomes(board, cell, cache)
    first = _first_figures(weights, cell, found)
    if first is None:
        return Assessment(cell, 0.0, 0.0, 0.0)
    safety, progress, clears = first
    if depth <= 1:
        return Assessment(cell, safety, progress, safety, clears, len(found))
    if secondary and depth == 2:
        return _secondary(weights, cell, safety, progress, clears, found)
    if secondary and deep_secondary:
        total, expected = 0.0, 0.0
        for outcome in found:
            share = outcome.layouts / weights.layouts
            expected += share * outcome.living_clears()
            if outcome.must_guess:
                value = next_guess_value(outcome, depth - 1, cache, width_at, fast, fifty)
            else:
                value = outcome.secondary_safety()
            total += share * value
        return Assessment(
            cell, safety, progress, total, clears, len(found), expected_clears=expected
        )
    total = 0.0
    for outcome in found:
        share = outcome.layouts / weights.layouts
        if depth == 2 or outcome.progress:
            total += share * outcome.best_safety()
        else:
            total += share * best_survival(outcome, depth - 1, cache, width_at, fast)
    return Assessment(cell, safety, progress, total, clears, len(found))


def assess_above(
    board: Board, weights: Weights, cell: int, cutoff: float, cache: dict | None = None
) -> Assessment | None:
    """:func:`assess` at depth 2 with ``secondary``, or ``None`` as soon as the survival
    is certain to fall below ``cutoff`` (each safe layout not yet counted taken at
    safety 1): a candidate that cannot beat the best so far need not be counted whole.
    Whenever it answers, the answer is :func:`assess`'s to the bit."""
    found = _outcomes_above(board, weights, cell, cache, cutoff)
    if found is None:
        return None
    first = _first_figures(weights, cell, found)
    if first is None:
        return Assessment(cell, 0.0, 0.0, 0.0)
    return _secondary(weights, cell, *first, found)


def _first_figures(
    weights: Weights, cell: int, found: list[Outcome]
) -> tuple[float, float, tuple[int, ...]] | None:
    """The safety, chance of progress and common clears of probing ``cell`` (see
    :class:`Assessment`), or ``None`` when it is a mine in every layout."""
    safe_layouts = sum(o.layouts for o in found)
    if not safe_layouts:
        return None
    safety = 1.0 - (weights.mine_weight[cell] or 0) / weights.layouts
    progress = sum(o.layouts for o in found if o.progress) / safe_layouts
    return safety, progress, common_clears(cell, found)


def _outcomes_above(
    board: Board, weights: Weights, cell: int, cache: dict | None, cutoff: float
) -> list[Outcome] | None:
    """:func:`outcomes` of ``cell``, or ``None`` once the survival :func:`_secondary`
    would give them is certain to fall below ``cutoff``: the outcomes counted so far
    at their secondary safety, the safe layouts not yet counted at safety 1.

    The likeliest numbers are counted first (those nearest the mines expected around
    the cell), so a candidate that cannot win is usually found out after one or two."""
    layouts = weights.layouts
    uncounted = layouts - (weights.mine_weight[cell] or 0)  # the safe layouts
    total = 0.0
    found = []
    for outcome in each_outcome(board, cell, cache, _likeliest_first(board, weights, cell)):
        found.append(outcome)
        total += outcome.layouts / layouts * outcome.secondary_safety()
        uncounted -= outcome.layouts
        if total + uncounted / layouts < cutoff:
            return None
    found.sort(key=lambda outcome: outcome.number)  # as outcomes() lists them
    return found


def _likeliest_first(board: Board, weights: Weights, cell: int) -> list[int]:
    """:func:`number_range` of ``cell``, nearest first to the mines its neighbours are
    expected to hold (flags included; ties to the lower number)."""
    flat = board.grid.reshape(-1)
    mine, layouts = weights.mine_weight, weights.layouts
    expected = 0.0
    for n in neighbour_table(board.width, board.height)[cell]:
        if flat[n] == FLAGGED:
            expected += 1.0
        elif (weight := mine.get(n)) is not None:
            expected += weight / layouts
    return sorted(number_range(board, cell), key=lambda number: (abs(number - expected), number))


def _secondary(
    weights: Weights,
    cell: int,
    safety: float,
    progress: float,
    clears: tuple[int, ...],
    found: list[Outcome],
) -> Assessment:
    """:func:`assess` at depth 2 with ``secondary``: the next guess valued by
    :meth:`Outcome.secondary_safety`, and the expected living clears."""
    total, expected = 0.0, 0.0
    for outcome in found:
        share = outcome.layouts / weights.layouts
        total += share * outcome.secondary_safety()
        expected += share * outcome.living_clears()
    return Assessment(cell, safety, progress, total, clears, len(found), expected_clears=expected)


def common_clears(cell: int, found: list[Outcome]) -> tuple[int, ...]:
    """The covered cells other than ``cell`` that every outcome of probing it proves safe
    (``found``: :func:`outcomes` of ``cell``).

    Such a cell is safe in every layout where ``cell`` is safe, so probing it
    first loses nothing: where ``cell`` is safe both get opened either way, and
    where ``cell`` is a mine it may still be safe (see :mod:`.agent`'s dominance).
    """
    common: set[int] | None = None
    for outcome in found:
        # The outcome's covered cells are the board's but ``cell``, now a number.
        safe = outcome.safe_cells()
        common = safe if common is None else common & safe
        if not common:
            return ()
    return tuple(sorted(common or ()))


def best_survival(
    outcome: Outcome,
    depth: int,
    cache: dict | None,
    width_at: tuple[int, ...],
    fast: bool = False,
) -> float:
    """The best ``depth``-move survival among the safest cells of a trial position.

    :param fast: weigh a two-move survival with the compiled kernel when it can.
    """
    board, weights = outcome.board, outcome.weights
    flat = board.grid.reshape(-1)
    layouts = weights.layouts
    ranked = sorted(
        (w, cell)
        for cell, w in weights.mine_weight.items()
        if w is not None and flat[cell] == COVERED and w != layouts
    )
    width, deeper = width_at[0], width_at[1:] or width_at
    if not ranked:
        return outcome.best_safety()
    chosen = ranked[:width]
    if fast and depth == 2:
        compiled = compiled_survival(board, chosen, layouts)
        if compiled is not None:
            return compiled
    return max(
        assess(board, weights, cell, depth, cache, deeper, fast=fast).survival
        for _, cell in chosen
    )


def next_guess_value(
    outcome: Outcome,
    depth: int,
    cache: dict | None,
    width_at: tuple[int, ...],
    fast: bool = False,
    fifty: float = 0.0,
) -> float:
    """The value of the position ``outcome`` leaves when the player must guess there:
    the best of its next guesses (:meth:`Outcome.next_guesses`) valued as the agent
    values a candidate at ``depth`` with ``secondary`` (its ``depth``-move survival,
    the last guess by the secondary safety, times ``1 + fifty * potential / safe
    layouts``; a dead cell passed over), or the position's secondary safety when no
    living cell is left to weigh.

    :param fast: at depth 2, weigh with the compiled kernel when it can answer.
    """
    width, deeper = width_at[0], width_at[1:] or width_at
    chosen = outcome.next_guesses(width)
    if not chosen:
        return outcome.secondary_safety()
    value = compiled_secondary(outcome.board, chosen, outcome.layouts, fifty) if (
        fast and depth == 2
    ) else None
    if value is None:
        board, weights = outcome.board, outcome.weights
        value = -1.0
        for _, cell in chosen:
            found = assess(
                board, weights, cell, depth, cache, deeper, fast=fast, secondary=True,
                deep_secondary=True, fifty=fifty,
            )
            if found.numbers == 1 and found.safety < 1:
                continue  # dead: the agent ranks it below every living cell
            factor = 1.0
            safe = weights.layouts - (weights.mine_weight[cell] or 0)
            if fifty and safe:
                factor += scaled_ratio(fifty, potential(board, weights, cell, cache), safe)
            value = max(value, found.survival * factor)
    return outcome.secondary_safety() if value < 0 else value


def compiled_secondary(
    board: Board, ranked: list[tuple[int, int]], layouts: int, fifty: float
) -> float | None:
    """:func:`next_guess_value`'s best at depth 2 from the compiled kernel
    (:func:`~semiautomines_agents.search.lookahead_compiled.secondary_survival_of`;
    -1.0 when every cell is dead), or ``None`` when it cannot answer (as
    :func:`compiled_survival`)."""
    inputs = _kernel_inputs(board, ranked, layouts)
    if inputs is None:
        return None
    from .lookahead_compiled import secondary_survival_of

    value = secondary_survival_of(*inputs, float(fifty))
    return None if np.isnan(value) else float(value)


def compiled_survival(board: Board, ranked: list[tuple[int, int]], layouts: int) -> float | None:
    """:func:`best_survival` at depth 2 from the compiled kernel, or ``None`` when it
    cannot answer (kernels not loaded, no mine total, a board too large for the
    float counts, or a count beyond them).

    :param ranked: (mine weight, cell) of the cells to weigh, safest first.
    :param layouts: the position's layouts (the weights' denominator).
    """
    inputs = _kernel_inputs(board, ranked, layouts)
    if inputs is None:
        return None
    from .lookahead_compiled import best_survival_of

    value = best_survival_of(*inputs)
    return None if np.isnan(value) else float(value)


def _kernel_inputs(
    board: Board, ranked: list[tuple[int, int]], layouts: int
) -> tuple[np.ndarray, int, np.ndarray, np.ndarray] | None:
    """The look-ahead kernels' first four arguments (a grid they may write on, the mine
    total, the cells and their safeties), or ``None`` when no kernel can answer: kernels
    not loaded, no mine total, or a board too large for the float counts."""
    total = board.total_mines
    if total is None or board.grid.size > FLOAT_CELLS or not ready():
        return None
    cells = np.array([cell for _, cell in ranked], np.int64)
    safeties = np.array([1.0 - weight / layouts for weight, _ in ranked])
    grid = np.array(board.grid, np.int8, order="C")  # the kernel writes on it
    return grid, int(total), cells, safeties


def safeties(weights: Weights, size: int) -> np.ndarray:
    """Per flat cell, the chance it is safe (NaN where the engine gives no probability)."""
    result = np.full(size, np.nan)
    for cell, weight in weights.mine_weight.items():
        if weight is not None:
            result[cell] = 1.0 - weight / weights.layouts
    return result
