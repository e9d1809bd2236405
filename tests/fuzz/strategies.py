"""Hostile inputs for the fuzz suite: text and bytes that look almost like the file formats."""

from __future__ import annotations

from hypothesis import strategies as st

from minesweep_env.core.board_spec import MAX_CELLS, MAX_SIDE

INTEGERS = st.one_of(
    st.integers(-3, 12),
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, MAX_SIDE, MAX_SIDE + 1, MAX_CELLS, MAX_CELLS + 1, 999999999999, 2**63]),
)
"""Small counts a board can have, and the absurd ones the limits must stop."""

NUMBER_TOKENS = st.one_of(
    INTEGERS.map(str),
    st.sampled_from(
        ["", "x", "1.5", "1e3", "-0", "+3", "٣", "²", "0x10", "1_0", "nan", "9" * 5000]
    ),
)
"""Tokens a number field may hold in a broken file."""

SEPARATORS = st.sampled_from([" ", "\t", "  ", "\r", "\x0c", "\u00a0", "\u2028"])
NEWLINES = st.sampled_from(["\n", "\r\n", "\n\n", "\r"])


def _lines(rows: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(st.lists(rows, max_size=12), NEWLINES).map(lambda t: t[1].join(t[0]))


def _header(tokens: int) -> st.SearchStrategy[str]:
    return st.tuples(st.lists(NUMBER_TOKENS, min_size=0, max_size=tokens), SEPARATORS).map(
        lambda t: t[1].join(t[0])
    )


POSITION_TEXT = st.tuples(
    _header(4), _lines(st.text(alphabet="?!0123456789 \tx*", max_size=12)), NEWLINES
).map(lambda t: t[0] + t[2] + t[1])
"""Positions: a header of 0-4 tokens, then rows of cell characters."""

IOCCC_TEXT = st.tuples(_header(3), st.lists(NUMBER_TOKENS, max_size=30), SEPARATORS).map(
    lambda t: t[0] + "\n" + t[2].join(t[1])
)
"""IOCCC maps: a header, then priorities (mostly wrong ones)."""

GRID_TEXT = _lines(st.text(alphabet="xo .#\t", max_size=12))
"""Rows of ``x``/``o``, ragged or not."""

MAP_TEXT = st.one_of(POSITION_TEXT, IOCCC_TEXT, GRID_TEXT, st.text(max_size=200))
"""Anything a map or position file might hold."""

FILE_BYTES = st.one_of(
    MAP_TEXT.map(lambda text: text.encode("utf-8")),
    MAP_TEXT.map(lambda text: b"\xef\xbb\xbf" + text.encode("utf-8")),  # a BOM
    MAP_TEXT.map(lambda text: text.encode("utf-16")),  # NUL bytes
    MAP_TEXT.map(lambda text: text.encode("latin-1", errors="replace") + b"\xe9\xff"),
    st.binary(max_size=300),
)
"""File contents: the texts above in good and bad encodings, and random bytes."""
