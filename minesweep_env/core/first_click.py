"""First-click policies: what happens to the mines under the first probe.

Every policy keeps the layout uniformly distributed over all layouts that obey
it. ``safe`` and ``zero`` move each mine found in the protected zone to a
uniformly drawn empty cell outside the zone: the procedure is symmetric under
permutations of the cells outside the zone, and all layouts with an empty zone
form a single orbit of those permutations, so the result is uniform over them.
Everything random comes from the numpy ``Generator`` passed in (or made when
wanted, :class:`DeferredGenerator`), so a seed reproduces a game.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

import numpy as np

from .cells import neighbour_table


class FirstClick(str, Enum):
    """The first-click policies, by the names the CLI and env use."""

    ENDOH = "endoh"
    """As the IOCCC program: a mine under the first probe is deleted (one mine fewer)."""
    SAFE = "safe"
    """The first probed cell never holds a mine; the mine count is unchanged."""
    ZERO = "zero"
    """The first probed cell and its neighbours are mine-free: it always opens an area."""
    NONE = "none"
    """No protection: the first probe can lose."""


FIRST_CLICK_POLICIES = tuple(policy.value for policy in FirstClick)


class DeferredGenerator:
    """A first-click policy's generator, made only if the policy draws.

    Making a numpy generator, or restating one, costs more than the rest of a new
    game, and most first clicks draw nothing (no mine under them): a game can be
    handed this instead, and calling it makes the generator. Where one mine moves
    (``"safe"``), :func:`protect_first_click` asks only :meth:`choose_one`, which a
    subclass may answer without making the generator at all (the env's random
    games compute numpy's draw from the state the compiled layout draw left).

    :param make: makes the generator; called for each draw that needs it.
    """

    def __init__(self, make: Callable[[], np.random.Generator]) -> None:
        self._make = make

    def __call__(self) -> np.random.Generator:
        return self._make()

    def choose_one(self, count: int) -> int:
        """``generator.choice(count, size=1, replace=False)[0]``: which of ``count``
        free cells a displaced mine moves to (the draw ``choice(free, size=1,
        replace=False)`` makes: it depends on ``len(free)`` only)."""
        return int(self().choice(count, size=1, replace=False)[0])


def protect_first_click(
    mines: np.ndarray,
    x: int,
    y: int,
    policy: FirstClick | str,
    rng: np.random.Generator | DeferredGenerator,
) -> np.ndarray:
    """Return the mine array after the first probe at (x, y) under ``policy``.

    The input is not modified. For ``endoh`` the returned array may hold one
    mine fewer; for ``safe`` and ``zero`` the count is kept. The displaced mines
    go to ``rng.choice(free, size=len(displaced), replace=False)``, ``free`` the
    empty cells outside the zone in increasing order.

    :raises ValueError: if the zone cannot be cleared because the board has too
        few empty cells outside it to take its mines.
    """
    policy = policy if type(policy) is FirstClick else FirstClick(policy)
    height, width = mines.shape
    result = mines.copy()
    flat = result.reshape(-1)
    index = y * width + x
    if policy is FirstClick.NONE:
        return result
    if policy is FirstClick.ENDOH:
        flat[index] = False
        return result
    zone = [index]
    if policy is FirstClick.ZERO:
        zone.extend(neighbour_table(width, height)[index])
    displaced = [i for i in zone if flat[i]]
    if not displaced:
        return result
    # The zone is a cell or nine: set one by one, cheaper than indexing with a list.
    outside = ~flat  # the empty cells outside the zone, in one mask
    for cell in zone:
        outside[cell] = False
    free = outside.nonzero()[0]
    if len(free) < len(displaced):
        raise ValueError(
            f"cannot clear the {policy.value!r} zone at ({x}, {y}): "
            f"{len(displaced)} mines to move but only {len(free)} free cells outside it"
        )
    for cell in displaced:
        flat[cell] = False
    if isinstance(rng, DeferredGenerator):
        if len(displaced) == 1:
            flat[free[rng.choose_one(len(free))]] = True
            return result
        rng = rng()
    flat[rng.choice(free, size=len(displaced), replace=False)] = True
    return result
