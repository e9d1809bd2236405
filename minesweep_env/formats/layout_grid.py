"""The layout grid format: one row per line, ``x`` a mine, ``o`` safe.

Every other character is ignored, as in the original tool; a line with no
``x`` or ``o`` is not a row.
"""

from __future__ import annotations

import numpy as np

from ..core.board_spec import size_problem
from ..core.layout import MineLayout
from ..errors import MapFormatError
from .source import numbered_lines


def parse_layout_grid(text: str, source: str = "<string>") -> MineLayout:
    """Parse ``x``/``o`` rows into a layout (no priorities)."""
    rows: list[list[bool]] = []
    first_line = 0
    for number, line in numbered_lines(text):
        cells = [c == "x" for c in line if c in "xo"]
        if not cells:
            continue
        if rows and len(cells) != len(rows[0]):
            raise MapFormatError(
                f"ragged rows: this row has {len(cells)} cells, "
                f"the first (line {first_line}) has {len(rows[0])}",
                source,
                number,
            )
        if not rows:
            first_line = number
        rows.append(cells)
        problem = size_problem(len(cells), len(rows))
        if problem is not None:  # said as soon as the rows read so far are too many
            raise MapFormatError(problem, source, number)
    if not rows:
        raise MapFormatError("no rows of 'x' (mine) and 'o' (safe) found", source, 1)
    return MineLayout(mines=np.array(rows, dtype=bool))


def format_layout_grid(layout: MineLayout) -> str:
    """Write a layout as ``x``/``o`` rows."""
    return "\n".join(layout.rows()) + "\n"
