"""The search agent's settings: one frozen dataclass, each field with its default,
its valid range and one line of help (``search:depth=3:width=4`` on the command line).

The upper bounds keep the slowest setting finite: ``depth`` 4 is about six times
depth 3's time on expert (benchmarks/results/search_settings_strength.md), so
``depth`` stops
there; the candidates of a position (``width``, ``deep_width``, ``offset``) and
the exact endgame's reach stop at two to ten times their defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from minesweep_env.core.board_spec import MAX_SIDE

from ..settings import check, setting

DEPTH = 2
"""Guesses the look-ahead covers by default (this one and the next)."""
MARGIN = 0.1
"""Candidates: safety at least ``1 - MARGIN`` times the best safety."""
WIDTH = 16
"""Candidates looked at in the position itself."""
DEEP_WIDTH = 4
"""Candidates looked at in each deeper position (depth 3 and more)."""
PROGRESS_WEIGHT = 0.001
"""Weight of the chance of progress next to the survival chance (a tie-break, as
JSMinesweeper's)."""
ENDGAME_LAYOUTS = 1000
"""Layouts at or below which the endgame is played exactly."""
ENDGAME_BUDGET = 1_000_000
"""Work (layouts x cells scanned) the exact endgame may spend before the agent
falls back to the look-ahead: bounds the slowest move (see :class:`.endgame.Endgame`)."""
OFFSET = 16
"""More candidates off the frontier: those two steps from a number (see
:func:`.candidates.candidates`; 0: none)."""
OFFSET_MARGIN = 0.05
"""Those only when the cells off the frontier are within this margin of the best
safety (JSMinesweeper's threshold)."""
SECONDARY = 1
"""Value the look-ahead's next guess as JSMinesweeper does, and rank *dead* candidates
last (1: on; see :meth:`.lookahead.Outcome.secondary_safety`)."""
FIFTY = 0.9
"""Weight of a candidate's potential 50/50 risk (:mod:`.potential`) as a factor on its
survival (0: ignored; JSMinesweeper's is 0.9)."""
TIE_CLEARS = 1
"""Break exact score ties by the expected living clears, more first (1: on;
JSMinesweeper's tie-break), before the greedy ranking."""
ENABLERS = 1
"""Count a cell's risk as an enabler of would-be twins (:func:`.potential.scan`) in
its 50/50 factor (1: on; JSMinesweeper does)."""
INFLUENCED = 0.9
"""Also look at the cells of :func:`.potential.scan`'s would-be twins and their
enablers whose safety with that risk given back is over this fraction of the best
safety (0: none; JSMinesweeper's is 0.9)."""
DEEP_GAP = 0.0
"""With ``deep_secondary``: rank by the depth-2 default and let the deeper look-ahead
choose only among the candidates within this (relative) of the best depth-2 score
(0: the deeper look-ahead ranks every candidate)."""
DEEP_SECONDARY = 1
"""From depth 3 on, keep the depth-2 default's valuation at the look-ahead's leaves (1: on;
see :func:`.lookahead.next_guess_value`); 0 values the last guess by the plain best
safety in the compiled kernel."""
CHAINS = 0
"""Toss a closed chain of 50/50 links first, as a forced guess (see :mod:`.chains`):
JSMinesweeper's extended 50/50s. 1: the chain's first cell in the greedy order; 2: the
chain's cell the look-ahead scores best (JSMinesweeper breaks the tie by its look-ahead
too); 0: off."""
BOOK = 0
"""Play the book's cell at a position it holds (see :mod:`.book`): 1 on, 0 off."""
SETTLE = 0
"""With ``deep_secondary``, weigh near ties again on exact counts (1: on; see
:data:`.agent.SETTLE_GAP`). Off: it costs about a third of depth 3's time and
changed no move in 60 expert games (benchmarks/results/search_depth3.md)."""


@dataclass(frozen=True)
class SearchSettings:
    """Every setting of :class:`.agent.SearchAgent`, checked against its range on creation.

    :raises ValueError: one line naming the setting and its valid range.
    """

    depth: int = setting(DEPTH, 1, 4, "guesses the survival chance covers (1: this probe only)")
    margin: float = setting(MARGIN, 0, 1, "how far below the best safety a candidate may be")
    width: int = setting(WIDTH, 1, 32, "candidates looked at in the position")
    deep_width: int = setting(
        DEEP_WIDTH, 1, 8, "candidates looked at in each deeper position (depth 3 and more)"
    )
    progress_weight: float = setting(
        PROGRESS_WEIGHT, 0, 1, "weight of the chance of progress in the score"
    )
    endgame_layouts: int = setting(
        ENDGAME_LAYOUTS, 0, 10_000, "play exactly at or below this many layouts (0: never)"
    )
    endgame_budget: int = setting(
        ENDGAME_BUDGET, 0, 10_000_000, "work the exact endgame may spend before falling back"
    )
    offset: int = setting(
        OFFSET, 0, 64, "further candidates off the frontier, two steps from a number"
    )
    offset_margin: float | None = setting(
        OFFSET_MARGIN, 0, 1, "those only within this margin of the best (None: margin)", True
    )
    secondary: bool = setting(
        bool(SECONDARY), 0, 1, "value the next guess as JSMinesweeper does; dead cells last"
    )
    fifty: float = setting(FIFTY, 0, 10, "weight of a candidate's potential 50/50 risk")
    tie_clears: bool = setting(
        bool(TIE_CLEARS), 0, 1, "break exact ties by the expected living clears"
    )
    enablers: bool = setting(
        bool(ENABLERS), 0, 1, "count a cell's risk as an enabler of would-be 50/50s"
    )
    influenced: float = setting(
        INFLUENCED, 0, 1, "also weigh scanned cells over this fraction of the best safety"
    )
    deep_secondary: bool = setting(
        bool(DEEP_SECONDARY), 0, 1, "from depth 3 on, keep the depth-2 valuation at the leaves"
    )
    settle: bool = setting(bool(SETTLE), 0, 1, "with deep_secondary, weigh near ties exactly")
    deep_gap: float = setting(
        DEEP_GAP, 0, 1e9, "let depth 3+ choose only among depth 2's candidates this close"
    )
    chains: int = setting(
        CHAINS, 0, 2, "toss a closed chain of 50/50 links first (1: greedy's cell, 2: look-ahead's)"
    )
    book: bool = setting(bool(BOOK), 0, 1, "play the book's cell where it holds the position")
    opening: bool = setting(True, 0, 1, "play the known best first click")
    first_x: int = setting(-1, -1, MAX_SIDE - 1, "the first click's column (-1: the table's)")
    first_y: int = setting(-1, -1, MAX_SIDE - 1, "the first click's row (-1: the table's)")

    def __post_init__(self) -> None:
        check(self)
        if (self.first_x < 0) != (self.first_y < 0):
            raise ValueError(f"give both first_x and first_y, got {self.first_x}, {self.first_y}")
