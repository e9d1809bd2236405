"""Exact counting of one component's layouts: dynamic programming over its groups.

Plain enumeration of a component's solutions is exponential in its length (a
long wall of 1-1-1 numbers has astronomically many), so the groups are put in a
breadth-first order, which keeps few constraints "open" at a time (the order's
width), and a forward pass counts, for every assignment of the open
constraints' remaining needs, the ways to get there, as a polynomial in the
number of mines used so far. A backward pass does the same from the other end;
a group's mine weight is the forward count times the backward count over every
transition that puts mines in it. The cost grows with the number of distinct
open-constraint states, not with the number of solutions.

All counts are Python ints: exact at any size.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from math import comb, log2

from .frontier import Component

Poly = dict[int, int]
"""Mine count k -> the number of layouts with k mines (in the part counted so far).
A dict, not a list: most counts are nonzero for only one or two mine counts."""


class NoLayoutError(Exception):
    """No assignment satisfies the component; ``number`` is the flat index of a number
    on which the count ran dry (the caller turns it into an InconsistentBoardError)."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number = number


@dataclass(frozen=True)
class ComponentCount:
    """Exact layout counts of one component, by the number of mines it holds."""

    layouts: tuple[int, ...]
    """``layouts[k]``: consistent layouts of the component's cells with k mines."""
    cell_mines: tuple[tuple[int, ...], ...]
    """Per group (in the component's order): ``cell_mines[g][k]`` is how many of
    those k-mine layouts put a mine on one given cell of group g (the same for
    every cell of a group)."""


def _add_into(target: Poly, poly: Poly, shift: int, factor: int) -> None:
    """target += factor * x**shift * poly."""
    for k, value in poly.items():
        k += shift
        target[k] = target.get(k, 0) + factor * value


def multiply(a: Poly, b: Poly) -> Poly:
    """The product of two counts: layouts of two independent parts, by total mines."""
    out: Poly = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


@cache
def _ways(size: int) -> tuple[int, ...]:
    """C(size, m) for m = 0..size: the layouts of m mines in a group of ``size`` cells."""
    return tuple(comb(size, m) for m in range(size + 1))


@cache
def _ways_with_mine(size: int) -> tuple[int, ...]:
    """C(size - 1, m - 1): of those layouts, the ones with a mine on a given cell."""
    return (0, *(comb(size - 1, m - 1) for m in range(1, size + 1)))


def sparse(counts: tuple[int, ...]) -> Poly:
    """A dense count (``counts[k]``: layouts with k mines) as a :data:`Poly`."""
    return {k: value for k, value in enumerate(counts) if value}


def _dense(poly: Poly, length: int) -> tuple[int, ...]:
    out = [0] * length
    for k, value in poly.items():
        out[k] = value
    return tuple(out)


def _breadth_first(component: Component) -> list[int]:
    """Groups in breadth-first order from a far end (Cuthill-McKee style)."""
    groups = component.groups
    by_constraint: list[list[int]] = [[] for _ in component.needs]
    for g, group in enumerate(groups):
        for c in group.constraints:
            by_constraint[c].append(g)

    def sweep(start: int) -> list[int]:
        seen = [False] * len(groups)
        seen[start] = True
        order = []
        queue = deque([start])
        while queue:
            g = queue.popleft()
            order.append(g)
            for c in groups[g].constraints:
                for other in by_constraint[c]:
                    if not seen[other]:
                        seen[other] = True
                        queue.append(other)
        return order

    return sweep(sweep(0)[-1])


def order_cost(component: Component, order: list[int]) -> float:
    """log2 of a bound on the DP states an order makes, summed over its steps.

    At each step an open constraint's remaining need can only take values
    between ``need - cells seen so far`` and ``min(need, cells still to come)``;
    the product of those range sizes over the open constraints bounds the states.
    """
    groups, needs = component.groups, component.needs
    total = [0] * len(needs)
    last = [0] * len(needs)
    for i, g in enumerate(order):
        for c in groups[g].constraints:
            total[c] += len(groups[g].cells)
            last[c] = i
    seen = [0] * len(needs)
    open_now: set[int] = set()
    states = 0.0
    for i, g in enumerate(order):
        size = len(groups[g].cells)
        for c in groups[g].constraints:
            seen[c] += size
            if last[c] > i:
                open_now.add(c)
            else:
                open_now.discard(c)
        bits = 0.0
        for c in open_now:
            high = min(needs[c], total[c] - seen[c])
            low = max(0, needs[c] - seen[c])
            bits += log2(high - low + 1)
        states += 2.0**bits
    return log2(states)


def group_order(component: Component) -> list[int]:
    """The order the count visits groups in: the narrowest of a few sweeps.

    Frontiers are long and thin, so sweeping from one end keeps few constraints
    open, hence few DP states. A breadth-first sweep from a far end follows a
    winding frontier; on blobs spread over the board, a straight sweep along
    the columns or rows can be much narrower. :func:`order_cost` picks (only
    for components big enough for the choice to matter).
    """
    groups = component.groups
    if len(groups) <= 4:
        return list(range(len(groups)))  # any order is narrow enough
    candidates = [_breadth_first(component)]
    width = component.board_width
    if len(groups) > 40 and width:
        xs = [min(cell % width for cell in g.cells) for g in groups]
        ys = [min(g.cells) // width for g in groups]
        candidates.append(sorted(range(len(groups)), key=lambda g: (xs[g], ys[g])))
        candidates.append(sorted(range(len(groups)), key=lambda g: (ys[g], xs[g])))
    if len(candidates) == 1:
        return candidates[0]
    return min(candidates, key=lambda order: order_cost(component, order))


def _count_single_group(component: Component) -> ComponentCount:
    """Every number sees the same cells (most often: one number alone)."""
    size = len(component.groups[0].cells)
    need = component.needs[0]
    for c, other in enumerate(component.needs):
        if other != need:
            raise NoLayoutError(component.numbers[c])
    layouts = [0] * need + [comb(size, need)]
    mined = [0] * need + [comb(size - 1, need - 1) if need else 0]
    return ComponentCount(tuple(layouts), (tuple(mined),))


def count_component(component: Component, order: list[int] | None = None) -> ComponentCount:
    """Count the component's consistent layouts, per mine count, and per-group mine weights.

    :param order: the order to visit groups in (default :func:`group_order`);
        any order gives the same counts, only the cost differs.
    :raises NoLayoutError: when no assignment satisfies every constraint.
    """
    groups = component.groups
    if len(groups) == 1:
        return _count_single_group(component)
    if order is None:
        order = group_order(component)
    steps = len(order)
    sizes = [len(groups[g].cells) for g in order]
    touches = [groups[g].constraints for g in order]
    needs = component.needs
    last = [0] * len(needs)
    room = [0] * len(needs)
    for i, cs in enumerate(touches):
        for c in cs:
            last[c] = i
            room[c] += sizes[i]
    # A plan per step: for each constraint the group touches, where its remaining
    # need sits in the state (-1: first seen now), its need and the room it keeps
    # after this group; and how to build the next state (open constraints only).
    plans = []
    active: list[int] = []
    for i in range(steps):
        slot = {c: s for s, c in enumerate(active)}
        touched: list[tuple[int, int, int]] = []
        position: dict[int, int] = {}
        for c in touches[i]:
            room[c] -= sizes[i]
            position[c] = len(touched)
            touched.append((slot.get(c, -1), needs[c], room[c]))
        following = [c for c in active if last[c] > i]
        following += [c for c in touches[i] if c not in slot and last[c] > i]
        out = tuple((0, slot[c]) if c not in position else (1, position[c]) for c in following)
        plans.append((touched, out))
        active = following

    forward: list[dict[tuple[int, ...], Poly]] = [{(): {0: 1}}]
    transitions: list[list[tuple[tuple[int, ...], int, tuple[int, ...]]]] = []
    for i in range(steps):
        touched, out = plans[i]
        size = sizes[i]
        ways = _ways(size)
        layer: dict[tuple[int, ...], Poly] = {}
        moves = []
        for state, poly in forward[i].items():
            # Each touched constraint must keep between 0 and its room left.
            starts = []
            low, high = 0, size
            for s, need, cap in touched:
                r = state[s] if s >= 0 else need
                starts.append(r)
                if r - cap > low:
                    low = r - cap
                if r < high:
                    high = r
            for mines in range(low, high + 1):
                nxt = tuple(state[v] if kind == 0 else starts[v] - mines for kind, v in out)
                target = layer.get(nxt)
                if target is None:
                    layer[nxt] = target = {}
                _add_into(target, poly, mines, ways[mines])
                moves.append((state, mines, nxt))
        if not layer:
            raise NoLayoutError(component.numbers[touches[i][0]])
        forward.append(layer)
        transitions.append(moves)

    backward: list[dict[tuple[int, ...], Poly]] = [{} for _ in range(steps)] + [{(): {0: 1}}]
    cell_mines: list[Poly] = [{} for _ in range(steps)]
    for i in range(steps - 1, -1, -1):
        size = sizes[i]
        ways = _ways(size)
        ways_with = _ways_with_mine(size)
        after = backward[i + 1]
        here = backward[i]
        # Per state before the group: the tails that put mines in it, weighted by
        # the layouts with a mine on one given cell; multiplied by the head once.
        mined: dict[tuple[int, ...], Poly] = {}
        for state, mines, nxt in transitions[i]:
            tail = after.get(nxt)
            if tail is None:
                continue
            target = here.get(state)
            if target is None:
                here[state] = target = {}
            _add_into(target, tail, mines, ways[mines])
            if mines:
                target = mined.get(state)
                if target is None:
                    mined[state] = target = {}
                _add_into(target, tail, mines, ways_with[mines])
        before = forward[i]
        total = cell_mines[i]
        for state, tails in mined.items():
            _add_into(total, multiply(before[state], tails), 0, 1)
    layouts = backward[0].get(())
    if not layouts or not any(layouts.values()):
        raise NoLayoutError(component.numbers[touches[0][0]])
    length = max(layouts) + 1
    ordered: list[tuple[int, ...]] = [()] * steps
    for i, g in enumerate(order):
        ordered[g] = _dense(cell_mines[i], length)
    return ComponentCount(_dense(layouts, length), tuple(ordered))
