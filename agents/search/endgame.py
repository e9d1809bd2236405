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

    :param budget: the most work (layouts times cells scanned, summed over the
        states searched) before giving up with :class:`TooMuchWork`; a count, not
        a clock, so the same position always gets the same answer. ``None``: no limit.
    """

    def __init__(self, layouts: Layouts, budget: int | None = None):
        self.layouts = layouts
        self.budget = budget
        self.work = 0
        self._memo: dict[frozenset[int], float] = {}
        self.everything = (1 << len(layouts.cells)) - 1

    def best_probe(self) -> tuple[int, float]:
        """The flat index of the best probe and the win probability it gives.

        Ties go to the lowest flat index (the agent stays deterministic).

        :raises TooMuchWork: past the budget.
        """
        masks = self.layouts.masks
        best_cell, best_value = -1, -1.0
        for bit, safe in self._by_safety(masks):
            if safe <= best_value:
                break
            value = self._probe_value(masks, bit)
            cell = self.layouts.cells[bit]
            if value > best_value + 1e-12 or (
                abs(value - best_value) <= 1e-12 and cell < best_cell
            ):
                best_cell, best_value = cell, value
        return best_cell, best_value

    def win_probability(self, masks: list[int]) -> float:
        """The win probability of a set of layouts, the auto-solver having opened
        what it proves (memoised)."""
        key = frozenset(masks)
        known = self._memo.get(key)
        if known is not None:
            return known
        classes = self._reveal(masks)
        if classes is not None:
            value = sum(len(c) * self.win_probability(c) for c in classes) / len(masks)
        elif len(masks) == 1:
            value = 1.0
        else:
            value = 0.0
            for bit, safe in self._by_safety(masks):
                if safe <= value:
                    break
                value = max(value, self._probe_value(masks, bit))
        self._memo[key] = value
        return value

    def _by_safety(self, masks: list[int]) -> list[tuple[int, float]]:
        """Undecided bits with their safety, safest first (then lowest bit)."""
        size = len(masks)
        self.work += size * len(self.layouts.cells)
        if self.budget is not None and self.work > self.budget:
            raise TooMuchWork
        counts = []
        for bit in range(len(self.layouts.cells)):
            mines = sum(m >> bit & 1 for m in masks)
            if 0 < mines < size:
                counts.append((mines, bit))
        counts.sort()
        return [(bit, 1.0 - mines / size) for mines, bit in counts]

    def _probe_value(self, masks: list[int], bit: int) -> float:
        """P(win) when probing the cell of ``bit`` now."""
        cell = self.layouts.cells[bit]
        around = self.layouts.around[cell]
        shows: dict[int, list[int]] = defaultdict(list)
        for m in masks:
            if not m >> bit & 1:
                shows[(m & around).bit_count()].append(m)
        return sum(len(s) * self.win_probability(s) for s in shows.values()) / len(masks)

    def _reveal(self, masks: list[int]) -> list[list[int]] | None:
        """The classes of layouts told apart by the numbers the auto-solver opens,
        or ``None`` when every cell it opens shows the same number in all of them."""
        union = 0
        for m in masks:
            union |= m
        safe = self.everything & ~union
        cells = self.layouts.cells
        arounds = [
            self.layouts.around[cells[k]]
            for k in range(len(cells))
            if safe >> k & 1 and self.layouts.around[cells[k]] & union
        ]
        if not arounds:
            return None
        split: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for m in masks:
            split[tuple((m & a).bit_count() for a in arounds)].append(m)
        return list(split.values()) if len(split) > 1 else None
