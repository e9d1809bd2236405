"""First-click policies: what happens to the mines under the first probe.

Every policy keeps the layout uniformly distributed over all layouts that obey
it. ``safe`` and ``zero`` move each mine found in the protected zone to a
uniformly drawn empty cell outside the zone: the procedure is symmetric under
permutations of the cells outside the zone, and all layouts with an empty zone
form a single orbit of those permutations, so the result is uniform over them.
Everything random comes from the numpy ``Generator`` passed in, so a seed
reproduces a game.
"""

from __future__ import annotations

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


def protect_first_click(
    mines: np.ndarray, x: int, y: int, policy: FirstClick | str, rng: np.random.Generator
) -> np.ndarray:
    """Return the mine array after the first probe at (x, y) under ``policy``.

    The input is not modified. For ``endoh`` the returned array may hold one
    mine fewer; for ``safe`` and ``zero`` the count is kept.

    :raises ValueError: if the zone cannot be cleared because the board has too
        few empty cells outside it to take its mines.
    """
    policy = FirstClick(policy)
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
    in_zone = np.zeros(flat.size, dtype=bool)
    in_zone[zone] = True
    free = np.flatnonzero(~flat & ~in_zone)
    if len(free) < len(displaced):
        raise ValueError(
            f"cannot clear the {policy.value!r} zone at ({x}, {y}): "
            f"{len(displaced)} mines to move but only {len(free)} free cells outside it"
        )
    flat[displaced] = False
    flat[rng.choice(free, size=len(displaced), replace=False)] = True
    return result
