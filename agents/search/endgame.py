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

import numpy as np

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

    A set of layouts is one int, bit ``i`` standing for the ``i``-th layout of
    :attr:`Layouts.masks`; per cell, the layouts where it is a mine and, per number,
    those where it is safe and shows that number are such sets too. Splitting a set
    by what a cell shows is then a few ANDs, whatever the number of layouts. A group
    of layouts is always valued in the order of its lowest layout, as the layouts
    are listed, so the sums (and the values) do not depend on this representation.

    :param budget: the most work (layouts times cells scanned, summed over the
        states searched) before giving up with :class:`TooMuchWork`; a count, not
        a clock, so the same position always gets the same answer. ``None``: no limit.
    """

    def __init__(self, layouts: Layouts, budget: int | None = None):
        self.layouts = layouts
        self.budget = budget
        self.work = 0
        self._memo: dict[int, float] = {}
        self._upper: dict[int, float] = {}
        self._index = {mask: i for i, mask in enumerate(layouts.masks)}
        self._mines, self._shows = _layout_sets(layouts)
        self._cells = (1 << len(layouts.cells)) - 1

    def best_probe(self) -> tuple[int, float]:
        """The flat index of the best probe and the win probability it gives.

        Ties (within 1e-12) go to the lowest flat index (the agent stays deterministic).

        :raises TooMuchWork: past the budget.
        """
        every = (1 << len(self.layouts.masks)) - 1
        best_cell, best_value = -1, -1.0
        for bit, safe in self._by_safety(every):
            if safe <= best_value:
                break
            cell = self.layouts.cells[bit]
            # Only a value beating the best (or tying it from a lower cell) matters.
            need = best_value - TIE if cell < best_cell else best_value + TIE
            value, exact = self._probe(every, bit, need, 1 << bit)
            if not exact or value <= need:
                continue
            if value > best_value + TIE or (abs(value - best_value) <= TIE and cell < best_cell):
                best_cell, best_value = cell, value
        return best_cell, best_value

    def win_probability(self, masks: list[int]) -> float:
        """The win probability of a set of layouts, the auto-solver having opened
        what it proves."""
        return self._value(self._set_of(masks), -1.0)[0]

    def probe_value(self, masks: list[int], bit: int) -> float:
        """P(win) when probing the cell of ``bit`` now and playing on perfectly."""
        return self._probe(self._set_of(masks), bit, -1.0)[0]

    def _set_of(self, masks: list[int]) -> int:
        """The set of these layouts (masks of :attr:`Layouts.masks`)."""
        found = 0
        for mask in masks:
            found |= 1 << self._index[mask]
        return found

    def _value(self, layouts: int, need: float, decided: int = 0) -> tuple[float, bool]:
        """The win probability of the set ``layouts`` and ``True``, or, when it is at
        most ``need``, possibly only an upper bound (at most ``need``) and ``False``.

        :param decided: bits of cells known to be alike in all these layouts (a mine in
            all, or safe in all and showing one number): what the search has already
            split on, so the auto-solver's numbers need not be looked at again there.
        """
        known = self._memo.get(layouts)
        if known is not None:
            return known, True
        bound = self._upper.get(layouts)
        if bound is not None and bound <= need:
            return bound, False
        size = layouts.bit_count()
        if size == 1:
            return 1.0, True  # everything left is proven
        classes, decided = self._reveal(layouts, decided)
        if classes is not None:
            value, exact = self._share(classes, size, need, decided)
        elif size == 2:
            # Nothing safe tells them apart: probe a cell that is a mine in one.
            value, exact = 0.5, True
        else:
            value, exact = self._best(layouts, need, decided)
        if exact:
            self._memo[layouts] = value
        else:
            self._upper[layouts] = min(value, self._upper.get(layouts, 1.0))
        return value, exact

    def _best(self, layouts: int, need: float, decided: int) -> tuple[float, bool]:
        """The best probe's value (as :meth:`_value`)."""
        value, bound = 0.0, 0.0
        for bit, safe in self._by_safety(layouts, decided):
            floor = max(value, need)
            if safe <= floor:
                bound = max(bound, safe)  # no cell left can win more than it survives
                break
            found, exact = self._probe(layouts, bit, floor, decided | 1 << bit)
            if exact and found > floor:
                value = found
            else:
                bound = max(bound, found)
        if value > need:
            return value, True  # every other cell wins at most max(value, need)
        return max(value, bound), False

    def _probe(self, layouts: int, bit: int, need: float, decided: int = 0) -> tuple[float, bool]:
        """P(win) when probing the cell of ``bit`` now (as :meth:`_value`; ``decided``
        holds for each group the probe leaves)."""
        groups = [group for shown in self._shows[bit] if (group := layouts & shown)]
        groups.sort(key=_lowest)
        return self._share(groups, layouts.bit_count(), need, decided)

    def _share(
        self, groups: list[int], size: int, need: float, decided: int
    ) -> tuple[float, bool]:
        """The win probability over ``size`` layouts when ``groups`` of them are
        played on apart (the rest lost), as :meth:`_value`: each group is asked
        only for what the total needs, the groups not yet valued counted as won."""
        total = 0.0
        counts = [group.bit_count() for group in groups]
        rest = sum(counts)
        for group, count in zip(groups, counts, strict=True):
            rest -= count
            if count == 1:
                total += 1.0  # one layout: everything left is proven (see _value)
                continue
            want = (need * size - total - rest) / count
            value, exact = self._value(group, want, decided)
            total += count * value
            if not exact:
                return (total + rest) / size, False
        return total / size, True

    def _by_safety(self, layouts: int, decided: int = 0) -> list[tuple[int, float]]:
        """Undecided bits with their safety, safest first (then lowest bit); the
        ``decided`` ones (see :meth:`_value`) are not looked at."""
        size = layouts.bit_count()
        self.work += size * len(self.layouts.cells)
        if self.budget is not None and self.work > self.budget:
            raise TooMuchWork
        counts = []
        for bit in _bits(self._cells & ~decided):
            mines = (layouts & self._mines[bit]).bit_count()
            if 0 < mines < size:
                counts.append((mines, bit))
        counts.sort()
        return [(bit, 1.0 - mines / size) for mines, bit in counts]

    def _reveal(self, layouts: int, decided: int) -> tuple[list[int] | None, int]:
        """The classes of layouts told apart by the numbers the auto-solver opens (or
        ``None`` when every cell it opens shows the same number in all of them), and
        ``decided`` (see :meth:`_value`) with every cell now a mine in all or safe in all."""
        alike = self._alike(layouts, self._cells & ~decided)
        decided |= alike
        classes = [layouts]
        while alike:  # lowest bit first
            low = alike & -alike
            alike ^= low
            bit = low.bit_length() - 1
            shows = self._shows[bit]
            if len(shows) < 2 or layouts & self._mines[bit]:
                continue  # a cell that always shows the same number, or a mine in all
            classes = [group for part in classes for shown in shows if (group := part & shown)]
        if len(classes) < 2:
            return None, decided
        classes.sort(key=_lowest)
        return classes, decided

    def _alike(self, layouts: int, cells: int) -> int:
        """The bits of ``cells`` that are a mine in all of ``layouts`` or safe in all.

        Whichever is fewer is walked: the layouts (their mines ANDed and ORed over the
        cells at once) or the cells (each one's mines among the layouts)."""
        if layouts.bit_count() < cells.bit_count():
            every, some = cells, 0
            masks = self.layouts.masks
            while layouts:
                low = layouts & -layouts
                layouts ^= low
                mask = masks[low.bit_length() - 1]
                every &= mask
                some |= mask
            return every | (cells & ~some)
        alike = 0
        mines_of = self._mines
        rest = cells
        while rest:
            low = rest & -rest
            rest ^= low
            mines = layouts & mines_of[low.bit_length() - 1]
            if not mines or mines == layouts:
                alike |= low
        return alike


def _bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def _lowest(layouts: int) -> int:
    """The lowest layout of a set (the order groups are valued in)."""
    return layouts & -layouts


def _layout_sets(layouts: Layouts) -> tuple[list[int], list[list[int]]]:
    """Per bit of :attr:`Layouts.cells`, the set of layouts with a mine there, and the
    non-empty sets of layouts where it is safe and shows each number (see :class:`Endgame`)."""
    size, count = len(layouts.cells), len(layouts.masks)
    width = (size + 7) // 8
    # Layouts x cells, one bool each: unpacked from the masks' bytes at once.
    raw = b"".join(mask.to_bytes(width, "little") for mask in layouts.masks)
    mined = np.unpackbits(
        np.frombuffer(raw, np.uint8).reshape(count, width), axis=1, bitorder="little"
    )[:, :size]
    near = b"".join(layouts.around[cell].to_bytes(width, "little") for cell in layouts.cells)
    around = np.unpackbits(
        np.frombuffer(near, np.uint8).reshape(size, width), axis=1, bitorder="little"
    )[:, :size]
    # Per layout and cell, its mined neighbours (small counts: exact in a float product).
    shown = (mined.astype(np.float64) @ around.T.astype(np.float64)).astype(np.int64)
    safe = mined == 0

    def as_set(column: np.ndarray) -> int:
        return int.from_bytes(np.packbits(column, bitorder="little").tobytes(), "little")

    mines = [as_set(mined[:, bit].astype(bool)) for bit in range(size)]
    shows = []
    for bit in range(size):
        numbers = shown[:, bit]
        shows.append(
            [
                as_set(safe[:, bit] & (numbers == n))
                for n in np.unique(numbers[safe[:, bit]]).tolist()
            ]
        )
    return mines, shows
