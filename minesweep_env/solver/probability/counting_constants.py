"""What the compiled count's modules share: status codes, limits and small tables.

Plain numbers and one small table, so that the modules of the compiled count
(:mod:`.counting_groups_compiled` reads a position into groups,
:mod:`.counting_passes_compiled` counts one component, :mod:`.counting_compiled`
combines the components into probabilities) and the agents' kernels that reuse them
name the same codes without importing one another in a circle.
"""

from __future__ import annotations

import numpy as np

OK = 0
"""The output array holds the probabilities."""
DEFER = 1
"""The fast path cannot answer: ask the exact engine."""

COUNTED = 0
"""A count's status: counted."""
NO_LAYOUT = 1
"""A count's status: no layout fits (as exact as the exact engine's verdict)."""
BEYOND = 2
"""A count's status: beyond the float count (too wide, or out of the float range)."""

MAX_OPEN = 15
"""Open constraints a DP state can hold: 4 bits each (needs are at most 8) in an int64."""

TIE_TOLERANCE = 5e-13
"""Relative gap below which two probabilities are taken as one (see :func:`_merge_ties`)."""

_GOLDEN = -7046029254386353131
"""2**64 / golden ratio, as a signed int64: the multiplier of the states' hash."""

_CHOOSE = np.array(
    [[float(np.prod(np.arange(n - k + 1, n + 1)) / np.prod(np.arange(1, k + 1))) if k <= n else 0.0
      for k in range(9)] for n in range(9)]
)
"""C(n, k) for n, k <= 8: a group has at most 8 cells (they are all around one number)."""
