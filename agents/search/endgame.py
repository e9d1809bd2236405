"""The exact endgame: when few layouts remain, play the rest of the game tree perfectly.

With the layouts listed one by one (as bit masks over the undecided cells),
the game after any sequence of probes is just the subset of layouts that fit
what was seen, so the whole tree can be searched:

- the auto-solver (rule set ``complete``) opens every cell that is safe in
  all remaining layouts; each opened cell shows its number, which splits the
  layouts into classes (one per combination of numbers seen);
- a class of one layout is a win (everything left is proven);
- otherwise the player probes some undecided cell: it survives in the layouts
  where that cell is safe, and its number splits those again.

The win probability of a set of layouts is the best, over the cells, of the
chance of surviving the probe times the win probability of what it leaves,
memoised on the set. A cell's safety bounds what it can win, so cells are
tried safest first and the search stops once no cell can beat the best.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import combinations

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED, KNOWN_SAFE, neighbour_table


class TooManyLayouts(Exception):
    """The position has more layouts than the endgame is asked to list."""


TIE = 1e-12
"""Win probabilities this close are equal (the lowest flat index wins the tie)."""


class TooMuchWork(Exception):
    """The endgame search went past its work budget (the caller falls back)."""


class Layouts:
    """Every layout of a position, as bit masks over its undecided cells.

    :ivar cells: flat indices of the covered, unflagged cells (bit ``i`` is ``cells[i]``).
    :ivar masks: one int per layout, bit ``i`` set when ``cells[i]`` holds a mine.
    :ivar around: per flat cell of the board, the bit mask of its neighbours among ``cells``.
    """

    def __init__(self, board: Board, limit: int):
        """List the layouts of ``board`` (its total mine count must be known).

        :raises TooManyLayouts: when there are more than ``limit``.
        """
        if board.mines_left is None:
            raise ValueError("the exact endgame needs the total mine count")
        flat = board.grid.reshape(-1)
        table = neighbour_table(board.width, board.height)
        self.cells = [i for i, v in enumerate(flat.tolist()) if v in (COVERED, KNOWN_SAFE)]
        bit = {cell: k for k, cell in enumerate(self.cells)}
        self.around = [sum(1 << bit[n] for n in table[i] if n in bit) for i in range(flat.size)]
        known_safe = sum(1 << bit[c] for c in self.cells if flat[c] == KNOWN_SAFE)
        # Each probed number: the mask of its undecided neighbours and the mines they hold.
        needs = []
        for i, v in enumerate(flat.tolist()):
            if v >= 0 and self.around[i]:
                flags = sum(1 for n in table[i] if flat[n] == FLAGGED)
                needs.append((self.around[i], v - flags))
        frontier = 0
        for mask, _ in needs:
            frontier |= mask
        size, left = len(self.cells), board.mines_left
        self.masks = list(_fill(needs, frontier, known_safe, size, left, limit))

    def __len__(self) -> int:
        return len(self.masks)


def _fill(
    needs: list[tuple[int, int]], frontier: int, known_safe: int, size: int, left: int, limit: int
) -> Iterator[int]:
    """The layouts: frontier assignments by backtracking, then the mines left over
    spread over the cells no number touches in every way."""
    order = [k for k in range(size) if frontier >> k & 1]
    off = [k for k in range(size) if not frontier >> k & 1 and not known_safe >> k & 1]
    # The numbers each frontier bit takes part in, and when each number is fully assigned.
    touching = defaultdict(list)
    for n, (mask, _) in enumerate(needs):
        for k in order:
            if mask >> k & 1:
                touching[k].append(n)
    remaining = [mask.bit_count() for mask, _ in needs]
    need = [count for _, count in needs]
    count = 0

    def extend(position: int, mines: int, layout: int) -> Iterator[int]:
        nonlocal count
        if mines > left:
            return
        if position == len(order):
            if any(need):
                return
            rest = left - mines
            if rest > len(off):
                return
            for chosen in combinations(off, rest):
                count += 1
                if count > limit:
                    raise TooManyLayouts
                yield layout | sum(1 << k for k in chosen)
            return
        bit = order[position]
        numbers = touching[bit]
        for mine in (0, 1):
            if mine and known_safe >> bit & 1:
                continue
            ok = True
            for n in numbers:
                need[n] -= mine
                remaining[n] -= 1
                if need[n] < 0 or need[n] > remaining[n]:
                    ok = False
            if ok:
                yield from extend(position + 1, mines + mine, layout | (mine << bit))
            for n in numbers:
                need[n] += mine
                remaining[n] += 1

    yield from extend(0, 0, 0)


class Endgame:
    """The exact win probability of a position and the probe that achieves it.

    The search passes down how much each value needs to reach to matter (as
    alpha-beta does for minimax): a probe whose outcomes cannot add up to more
    than the best probe found so far, even if every outcome still unvalued were
    a sure win, is given up early with an upper bound instead of a value. Only
    exact values are memoised as such; bounds are kept apart.

    :param budget: the most work (layouts times cells scanned, summed over the
        states searched) before giving up with :class:`TooMuchWork`; a count, not
        a clock, so the same position always gets the same answer. ``None``: no limit.
    """

    def __init__(self, layouts: Layouts, budget: int | None = None):
        self.layouts = layouts
        self.budget = budget
        self.work = 0
        self._memo: dict[frozenset[int], float] = {}
        self._upper: dict[frozenset[int], float] = {}
        self.everything = (1 << len(layouts.cells)) - 1

    def best_probe(self) -> tuple[int, float]:
        """The flat index of the best probe and the win probability it gives.

        Ties (within 1e-12) go to the lowest flat index (the agent stays deterministic).

        :raises TooMuchWork: past the budget.
        """
        masks = self.layouts.masks
        best_cell, best_value = -1, -1.0
        for bit, safe in self._by_safety(masks):
            if safe <= best_value:
                break
            cell = self.layouts.cells[bit]
            # Only a value beating the best (or tying it from a lower cell) matters.
            need = best_value - TIE if cell < best_cell else best_value + TIE
            value, exact = self._probe(masks, bit, need)
            if not exact or value <= need:
                continue
            if value > best_value + TIE or (abs(value - best_value) <= TIE and cell < best_cell):
                best_cell, best_value = cell, value
        return best_cell, best_value

    def win_probability(self, masks: list[int]) -> float:
        """The win probability of a set of layouts, the auto-solver having opened
        what it proves."""
        return self._value(masks, -1.0)[0]

    def probe_value(self, masks: list[int], bit: int) -> float:
        """P(win) when probing the cell of ``bit`` now and playing on perfectly."""
        return self._probe(masks, bit, -1.0)[0]

    def _value(self, masks: list[int], need: float) -> tuple[float, bool]:
        """The win probability of ``masks`` and ``True``, or, when it is at most
        ``need``, possibly only an upper bound (at most ``need``) and ``False``."""
        key = frozenset(masks)
        known = self._memo.get(key)
        if known is not None:
            return known, True
        bound = self._upper.get(key)
        if bound is not None and bound <= need:
            return bound, False
        if len(masks) == 1:
            return 1.0, True  # everything left is proven
        classes = self._reveal(masks)
        if classes is not None:
            value, exact = self._share(classes, len(masks), need)
        elif len(masks) == 2:
            # Nothing safe tells them apart: probe a cell that is a mine in one.
            value, exact = 0.5, True
        else:
            value, exact = self._best(masks, need)
        if exact:
            self._memo[key] = value
        else:
            self._upper[key] = min(value, self._upper.get(key, 1.0))
        return value, exact

    def _best(self, masks: list[int], need: float) -> tuple[float, bool]:
        """The best probe's value (as :meth:`_value`)."""
        value, bound = 0.0, 0.0
        for bit, safe in self._by_safety(masks):
            floor = max(value, need)
            if safe <= floor:
                bound = max(bound, safe)  # no cell left can win more than it survives
                break
            found, exact = self._probe(masks, bit, floor)
            if exact and found > floor:
                value = found
            else:
                bound = max(bound, found)
        if value > need:
            return value, True  # every other cell wins at most max(value, need)
        return max(value, bound), False

    def _probe(self, masks: list[int], bit: int, need: float) -> tuple[float, bool]:
        """P(win) when probing the cell of ``bit`` now (as :meth:`_value`)."""
        cell = self.layouts.cells[bit]
        around = self.layouts.around[cell]
        shows: dict[int, list[int]] = defaultdict(list)
        for m in masks:
            if not m >> bit & 1:
                shows[(m & around).bit_count()].append(m)
        return self._share(list(shows.values()), len(masks), need)

    def _share(self, groups: list[list[int]], size: int, need: float) -> tuple[float, bool]:
        """The win probability over ``size`` layouts when ``groups`` of them are
        played on apart (the rest lost), as :meth:`_value`: each group is asked
        only for what the total needs, the groups not yet valued counted as won."""
        total = 0.0
        rest = sum(len(g) for g in groups)
        for group in groups:
            rest -= len(group)
            want = (need * size - total - rest) / len(group)
            value, exact = self._value(group, want)
            total += len(group) * value
            if not exact:
                return (total + rest) / size, False
        return total / size, True

    def _by_safety(self, masks: list[int]) -> list[tuple[int, float]]:
        """Undecided bits with their safety, safest first (then lowest bit)."""
        size = len(masks)
        self.work += size * len(self.layouts.cells)
        if self.budget is not None and self.work > self.budget:
            raise TooMuchWork
        union, common = 0, -1
        for m in masks:
            union |= m
            common &= m
        # Only a bit that is a mine in some layouts and not in others is undecided.
        undecided = union & ~common
        counts = []
        while undecided:
            low = undecided & -undecided
            undecided ^= low
            counts.append((sum(1 for m in masks if m & low), low.bit_length() - 1))
        counts.sort()
        return [(bit, 1.0 - mines / size) for mines, bit in counts]

    def _reveal(self, masks: list[int]) -> list[list[int]] | None:
        """The classes of layouts told apart by the numbers the auto-solver opens,
        or ``None`` when every cell it opens shows the same number in all of them."""
        union = 0
        for m in masks:
            union |= m
        safe = self.everything & ~union
        cells = self.layouts.cells
        # What each safe cell can show is its mined neighbours among the layouts' cells;
        # cells seeing the same of them split the layouts alike, so one of each will do.
        arounds = list(
            {
                seen
                for k in range(len(cells))
                if safe >> k & 1 and (seen := self.layouts.around[cells[k]] & union)
            }
        )
        if not arounds:
            return None
        split: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for m in masks:
            split[tuple(map(int.bit_count, map(m.__and__, arounds)))].append(m)
        return list(split.values()) if len(split) > 1 else None
