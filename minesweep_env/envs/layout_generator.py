"""The first-click generator of a game whose layout the compiled draw made.

Both envs draw a new game's layout in one compiled call
(:mod:`~minesweep_env.envs.layout_generator_compiled`), which also writes the
state ``default_rng(layout_seed)`` is in after that draw. The game's first-click
policy draws on from that state, but seldom: only when a mine lies under the
first click (one game in eight on beginner, one in five on expert). So no
generator is made for the game: :class:`LayoutGenerator` restates one from the
state words only if the policy needs it, and for the usual draw (one mine moved
off a ``"safe"`` first click) not even that.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

import numpy as np

from ..core.first_click import DeferredGenerator

STATE_WORDS = 6
"""``layout_generator_compiled.STATE_WORDS``: a generator state's words (named here
without importing numba; a test checks they agree)."""


@cache
def layout_kernels() -> ModuleType:
    """The compiled layout module, imported once it is wanted (importing it imports numba)."""
    from . import layout_generator_compiled as kernels

    return kernels


class LayoutGenerator(DeferredGenerator):
    """``default_rng(layout_seed)`` as the compiled layout draw left it, made only if the
    first-click policy draws.

    :param words: the state the draw wrote (:data:`STATE_WORDS` uint64), read when the
        policy draws (the single env's next draw writes the same row again).
    :param generator: restated from ``words`` when a generator is wanted (one spare
        generator serves every game: making one costs more than a beginner step).
    """

    def __init__(self, words: np.ndarray, generator: np.random.Generator) -> None:
        super().__init__(self._restated)
        self._words = words
        self._generator = generator

    def _restated(self) -> np.random.Generator:
        self._generator.bit_generator.state = layout_kernels().generator_state(self._words)
        return self._generator

    def choose_one(self, count: int) -> int:
        """numpy's draw computed from the words, no generator made
        (``layout_generator_compiled.choose_one``)."""
        return layout_kernels().choose_one(self._words, count)
