"""The IOCCC map format (the endoh1 program's).

``width height mines`` followed by width*height priorities, whitespace-separated,
row-major. A cell is a mine when its priority is below ``mines``; the priorities
are a permutation of 0..W*H-1 and also the order in which the IOCCC program
scans cells, so they are kept.
"""

from __future__ import annotations

import numpy as np

from ..core.board_spec import size_problem
from ..core.layout import MineLayout
from ..errors import MapFormatError
from .source import shown, tokens_with_lines


def _integer(token: str, line: int, what: str, source: str) -> int:
    try:
        return int(token)
    except ValueError:
        problem = f"{what} must be an integer, got {shown(token)}"
        raise MapFormatError(problem, source, line) from None


def parse_ioccc(text: str, source: str = "<string>") -> MineLayout:
    """Parse IOCCC map text into a layout that keeps its priorities."""
    tokens = tokens_with_lines(text)
    if not tokens:
        raise MapFormatError("empty file: expected 'width height mines priorities...'", source, 1)
    if len(tokens) < 3:
        line = tokens[-1][1]
        raise MapFormatError("header needs three numbers: width height mines", source, line)
    (w_tok, w_line), (h_tok, h_line), (m_tok, m_line) = tokens[:3]
    width = _integer(w_tok, w_line, "width", source)
    height = _integer(h_tok, h_line, "height", source)
    mines = _integer(m_tok, m_line, "mine count", source)
    problem = size_problem(width, height)
    if problem is not None:
        raise MapFormatError(problem, source, w_line)
    cells = width * height
    if not 0 <= mines <= cells:
        raise MapFormatError(
            f"mine count {mines} out of range 0..{cells} for a {width}x{height} board",
            source,
            m_line,
        )
    body = tokens[3:]
    if len(body) < cells:
        last_line = tokens[-1][1]
        raise MapFormatError(
            f"missing priorities: expected {cells}, found {len(body)}", source, last_line
        )
    if len(body) > cells:
        raise MapFormatError(
            f"extra numbers after the {cells} priorities: {shown(body[cells][0])}",
            source,
            body[cells][1],
        )
    seen = np.zeros(cells, dtype=bool)
    priorities = np.empty(cells, dtype=np.int64)
    for i, (token, line) in enumerate(body):
        value = _integer(token, line, "priority", source)
        if not 0 <= value < cells:
            raise MapFormatError(f"priority {value} out of range 0..{cells - 1}", source, line)
        if seen[value]:
            raise MapFormatError(f"priority {value} appears twice", source, line)
        seen[value] = True
        priorities[i] = value
    return MineLayout.from_priorities(priorities.reshape(height, width), mines)


def layout_priorities(layout: MineLayout) -> np.ndarray:
    """The layout's priorities if they describe its mines, else fresh ones.

    Fresh priorities number the mines first, then the safe cells, each in
    row-major order; they only matter to the IOCCC program's scan order.
    """
    count = layout.mine_count
    if layout.priorities is not None and np.array_equal(layout.priorities < count, layout.mines):
        return layout.priorities
    flat = layout.mines.reshape(-1)
    order = np.concatenate([np.flatnonzero(flat), np.flatnonzero(~flat)])
    priorities = np.empty(flat.size, dtype=np.int64)
    priorities[order] = np.arange(flat.size)
    return priorities.reshape(layout.mines.shape)


def format_ioccc(layout: MineLayout) -> str:
    """Write a layout in the IOCCC format, one board row per line."""
    priorities = layout_priorities(layout)
    lines = [f"{layout.width} {layout.height} {layout.mine_count}"]
    lines += [" ".join(str(int(p)) for p in row) for row in priorities]
    return "\n".join(lines) + "\n"
