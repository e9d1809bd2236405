"""Every candidate's exact win probability at a decision with few layouts: every layout played on.

When a position admits few layouts, nothing needs sampling. Every layout is listed
(the exact endgame's :class:`~semiautomines_agents.search.endgame.Layouts`; all are
equally likely, as the engine and the sampler take them), every candidate is probed in
every one, and ``search`` plays each game on to its end in the real game
(:mod:`.rollouts`). A candidate's share of won games is then its win probability under
search's own continuation, with no error at all.

``search`` is a function of the position it sees (no randomness; its only memory is a
cache of counts, which changes no answer), so its advice on a position is asked once and
remembered (:class:`RememberedAdvice`): the games played at a decision pass through far
fewer positions than they make moves. The tests hold the remembered play to the plain one.

Next to each candidate's play-out value stands the exact endgame's own value of probing
it (:meth:`~semiautomines_agents.search.endgame.Endgame.probe_value`). The endgame
models the real game: where it does so faithfully and search's continuation is the
endgame's (every later position within its reach), the two are equal, so a difference
points at a gap between the model and the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.weights import Weights
from semiautomines_agents.search.agent import Advice, SearchAgent
from semiautomines_agents.search.endgame import Endgame, Layouts, TooManyLayouts, TooMuchWork

from .decisions import Decision, describe
from .rollouts import play_on, position_game

EXACT_LAYOUTS = 2000
"""Positions with at most this many layouts are played on every layout, not sampled."""
EVERY_CELL_GAMES = 10_000
"""Every undecided cell is a candidate when layouts times those cells stay within this;
beyond, the sampled mode's candidates only."""
ENDGAME_CHECK_WORK = 20_000_000
"""Work (as :class:`Endgame` counts it) the endgame may spend valuing the candidates of one
decision for the comparison; past it their values are left out (``None``)."""
MATCH = 1e-9
"""An endgame value and a play-out value this close are equal."""
REPLAYS = 4
"""Layouts per decision played again by a fresh agent, advice not remembered: the check
that the remembered play is search's own."""


def every_layout(board: Board, cap: int) -> Layouts | None:
    """Every layout of ``board`` (its mine total known), or ``None`` past ``cap`` of them."""
    if board.mines_left is None:
        return None
    try:
        return Layouts(board, cap)
    except TooManyLayouts:
        return None


def mine_grids(board: Board, layouts: Layouts) -> list[np.ndarray]:
    """The layouts as whole boards of mines (flags included), in the listing's order."""
    base = (board.grid == FLAGGED).reshape(-1)
    grids = []
    for mask in layouts.masks:
        flat = base.copy()
        for bit, cell in enumerate(layouts.cells):
            if mask >> bit & 1:
                flat[cell] = True
        grids.append(flat.reshape(board.grid.shape))
    return grids


def undecided_cells(layouts: Layouts) -> list[int]:
    """The cells a mine in some layouts and safe in others (every sensible probe), by index."""
    union, common = 0, -1
    for mask in layouts.masks:
        union |= mask
        common &= mask
    undecided = union & ~common
    return sorted(cell for bit, cell in enumerate(layouts.cells) if undecided >> bit & 1)


@dataclass
class RememberedAdvice:
    """``search``'s advice, asked once per position (it depends on the position alone).

    :ivar asked: how many times advice was wanted; ``len(advice)``: how many positions.
    """

    agent: SearchAgent
    advice: dict[tuple[bytes, int | None], Advice] = field(default_factory=dict)
    asked: int = 0

    def advise(
        self,
        board: Board,
        valid: np.ndarray | None = None,
        weights: Weights | None = None,
        *,
        every: bool = True,
    ) -> Advice:
        """The agent's advice on ``board``; ``valid`` must be its covered cells (as in
        a game): the advice is remembered by the position only (its cell does not
        depend on ``every``; its candidates are those of the first call)."""
        if valid is not None and not np.array_equal(valid, board.grid.reshape(-1) == COVERED):
            raise ValueError("remembered advice allows the covered cells only")
        self.asked += 1
        key = (board.grid.tobytes(), board.total_mines)
        known = self.advice.get(key)
        if known is None:
            known = self.advice[key] = self.agent.advise(board, valid, weights, every=every)
        return known


def play_every_layout(
    adviser: RememberedAdvice,
    grid: np.ndarray,
    probes: int,
    cells: list[int],
    grids: list[np.ndarray],
) -> tuple[dict[int, list[int]], int]:
    """Each cell's outcome (1 won, 0 lost) on every layout in ``grids``, in their order,
    and the number of games played on (a cell holding the layout's mine loses unplayed)."""
    outcomes: dict[int, list[int]] = {cell: [] for cell in cells}
    played = 0
    for mines in grids:
        flat = mines.reshape(-1)
        for cell in cells:
            if flat[cell]:
                outcomes[cell].append(0)
                continue
            game = position_game(grid, mines, probes)
            outcomes[cell].append(int(play_on(adviser, game, cell, share_weights=False)))
            played += 1
    return outcomes, played


def endgame_values(
    layouts: Layouts, cells: list[int], work: int = ENDGAME_CHECK_WORK
) -> dict[int, float | None]:
    """The exact endgame's win probability of probing each cell first (one solver, its
    memo shared); ``None`` for the cells left when its work passes ``work``."""
    endgame = Endgame(layouts, work)
    bits = {cell: bit for bit, cell in enumerate(layouts.cells)}
    values: dict[int, float | None] = dict.fromkeys(cells)
    try:
        for cell in cells:
            values[cell] = endgame.probe_value(layouts.masks, bits[cell])
    except TooMuchWork:
        pass  # the cells not yet valued stay None
    return values


def matches(played: dict[int, float], modelled: dict[int, float | None]) -> bool | None:
    """Whether the endgame's values equal the play-out's on every cell it valued
    (``None`` when it valued none)."""
    pairs = [(played[c], v) for c, v in modelled.items() if v is not None]
    if not pairs:
        return None
    return all(abs(a - b) <= MATCH for a, b in pairs)


def check_layouts(layouts: Layouts, weights: Weights) -> None:
    """The listing holds as many layouts as the engine counts (so each is one of the
    engine's equally likely layouts, every one of them once)."""
    if len(layouts) != weights.layouts:
        raise InconsistentBoardError(
            f"{len(layouts)} layouts listed where the engine counts {weights.layouts}"
        )


def safety(weights: Weights, cell: int) -> float:
    """The chance that ``cell`` is safe, as the engine counts it (rounded for a results line)."""
    return round(1.0 - (weights.mine_weight[cell] or 0) / weights.layouts, 6)


def exact_listing(board: Board, weights: Weights, cap: int) -> Layouts | None:
    """Every layout of ``board`` when the engine counts at most ``cap`` (and the mine
    total is known), checked against the engine's count; ``None`` otherwise."""
    if cap <= 0 or weights.mines_left is None or weights.layouts > cap:
        return None
    layouts = every_layout(board, cap)
    if layouts is not None:
        check_layouts(layouts, weights)
    return layouts


def replays_alike(
    agent: SearchAgent, decision: Decision, grids: list[np.ndarray], outcomes: list[int]
) -> bool:
    """Whether a fresh agent, asked afresh at every move, wins the same games from search's
    own cell as the remembered play did, on the first :data:`REPLAYS` layouts where the
    cell is safe."""
    fresh = type(agent)(agent.settings)
    tried = 0
    for mines, outcome in zip(grids, outcomes, strict=True):
        if mines.reshape(-1)[decision.cell]:
            continue
        game = position_game(decision.grid, mines, decision.move)
        if int(play_on(fresh, game, decision.cell)) != outcome:
            return False
        tried += 1
        if tried == REPLAYS:
            break
    return True


def exact_line(
    agent: SearchAgent, decision: Decision, weights: Weights, layouts: Layouts, cells: list[int]
) -> dict[str, Any]:
    """The results line of a decision played on every layout: each candidate's exact win
    probability under search's continuation (every undecided cell is a candidate when
    the games stay within :data:`EVERY_CELL_GAMES`), the exact endgame's value of it,
    and whether the two agree. There is no noise: the verdict is ``best`` or ``worse``,
    and the held-out gain is the exact regret."""
    undecided = undecided_cells(layouts)
    every = len(layouts) * len(undecided) <= EVERY_CELL_GAMES
    if every:
        cells = cells + [c for c in undecided if c not in cells]
    grids = mine_grids(decision.board, layouts)
    adviser = RememberedAdvice(agent)
    replayed = adviser.advise(decision.board).cell == decision.cell
    outcomes, played = play_every_layout(adviser, decision.grid, decision.move, cells, grids)
    wins = {cell: sum(won) / len(layouts) for cell, won in outcomes.items()}
    modelled = endgame_values(layouts, cells)
    own = wins[decision.cell]
    rows = [
        {
            "cell": cell,
            "safety": safety(weights, cell),
            "samples": len(layouts),
            "wins": sum(outcomes[cell]),
            "win": round(wins[cell], 9),
            "gain": round(wins[cell] - own, 9),
            "gain_se": 0.0,
            "endgame": None if modelled[cell] is None else round(modelled[cell], 9),
        }
        for cell in cells
    ]
    best = max(cells, key=lambda c: (wins[c], c == decision.cell))
    regret = wins[best] - own if wins[best] > own + MATCH else 0.0
    return {
        **describe(decision),
        "exact": True,
        "every_cell": every,
        "candidates": rows,
        "best": best if regret else decision.cell,
        "regret": round(regret, 9),
        "regret_se": 0.0,
        "held_out_gain": round(regret, 9),
        "verdict": "worse" if regret else "best",
        "samples": len(layouts),
        "rollouts": played,
        "positions": len(adviser.advice),
        "replayed": replayed,
        "deterministic": replays_alike(agent, decision, grids, outcomes[decision.cell]),
        "endgame_matches": matches(wins, modelled),
        "mismatched": sorted(
            c for c, v in modelled.items() if v is not None and abs(v - wins[c]) > MATCH
        ),
    }
