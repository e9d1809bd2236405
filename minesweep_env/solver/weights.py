"""The exact count of a position, as every rule set, the engine and the agents share it.

A leaf: it imports nothing from the solver, so the engine that computes
:class:`Weights`, the rule sets that hand them on and the compiled paths that
rebuild them all import it downwards.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Weights:
    """The exact result on flat indices: what every caller builds on.

    ``mine_weight[i]`` is the number of consistent layouts with a mine on
    covered cell ``i``; it is ``None`` for cells off the frontier when the total
    is unknown. Known-safe cells weigh 0.
    """

    layouts: int
    mine_weight: dict[int, int | None]
    component_sizes: tuple[int, ...]
    mines_left: int | None


__all__ = ["Weights"]
