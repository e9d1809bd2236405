"""Every candidate's win probability at one decision, by playing on sampled layouts.

Layouts are drawn exactly in proportion to the engine's weights
(:class:`~minesweep_env.solver.probability.sampling.LayoutSampler`), in batches,
and every candidate still in the race is played on *the same* layouts (common
random numbers): a difference between two candidates is then measured on pairs
of games that differ only in the first probe, so its standard error is that of
the paired differences, far below that of two separate estimates.

Sampling stops at a decision when the best candidate is separated from every
other one still racing (its lead over each above ``z`` paired standard errors),
or at ``max_samples``. A candidate whose deficit to the leader exceeds
``drop_z`` paired standard errors leaves the race early (search's own choice
never does: every difference is reported against it).

A position with few layouts (at most ``Budget.exact_layouts``) needs no sampling:
every layout is played instead (:mod:`.exact`) and the line says ``"exact": true``.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from math import sqrt
from time import perf_counter
from typing import Any

import numpy as np

from minesweep_env.solver.probability import Weights, count_position
from minesweep_env.solver.probability.sampling import LayoutSampler
from semiautomines_agents.search.agent import SearchAgent
from semiautomines_agents.search.candidates import rank

from .decisions import Decision, covered_cells, describe
from .exact import EXACT_LAYOUTS, exact_line, exact_listing, safety
from .rollouts import play_on, position_game


@dataclass(frozen=True)
class Budget:
    """How hard to look at one decision."""

    min_samples: int = 32
    max_samples: int = 128
    batch: int = 16
    z: float = 2.0
    """The lead, in paired standard errors, that separates the best candidate."""
    drop_z: float = 3.0
    """The deficit, in paired standard errors, that takes a candidate out of the race."""
    max_candidates: int = 6
    exact_layouts: int = EXACT_LAYOUTS
    """Positions with at most this many layouts are played on every layout instead
    (:mod:`.exact`); 0: never."""


def candidate_cells(
    agent: SearchAgent, decision: Decision, weights: Weights, limit: int
) -> list[int]:
    """Search's choice, the safest cell(s), then the other cells search weighed, best
    scored first; at most ``limit``, and JSMinesweeper's cell on top when it differs."""
    board = decision.board
    covered = covered_cells(decision.grid)
    valid = np.zeros(decision.grid.size, dtype=bool)
    valid[covered] = True
    cells = [decision.cell]
    ranked = rank(decision.grid, weights, covered)
    lowest = weights.mine_weight[ranked[0]]
    cells += [c for c in ranked[:2] if weights.mine_weight[c] == lowest]
    weighed = sorted(agent.weigh(board, weights, valid), key=agent.score, reverse=True)
    cells += [a.cell for a in weighed]
    chosen = list(dict.fromkeys(cells))[:limit]
    if decision.jsminesweeper is not None and decision.jsminesweeper not in chosen:
        chosen.append(decision.jsminesweeper)
    return chosen


def paired(a: list[int], b: list[int]) -> tuple[float, float, int]:
    """Mean of ``a - b`` over their common samples, its standard error, and how many."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, float("inf"), 0
    d = np.asarray(a[:n], dtype=float) - np.asarray(b[:n], dtype=float)
    se = float(d.std(ddof=1) / sqrt(n)) if n > 1 else float("inf")
    return float(d.mean()), se, n


@dataclass
class Race:
    """The outcomes (1 won, 0 lost) of each candidate on the layouts drawn so far."""

    cells: list[int]
    search: int
    outcomes: dict[int, list[int]] = field(default_factory=dict)
    racing: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.outcomes = {c: [] for c in self.cells}
        self.racing = list(self.cells)

    def mean(self, cell: int) -> float:
        wins = self.outcomes[cell]
        return sum(wins) / len(wins) if wins else 0.0

    def leader(self) -> int:
        return max(self.racing, key=lambda c: (self.mean(c), c == self.search))

    def settle(self, budget: Budget) -> bool:
        """Drop the clearly beaten; whether the leader is separated from all the rest."""
        lead = self.leader()
        separated = True
        for cell in list(self.racing):
            if cell == lead:
                continue
            gap, se, _ = paired(self.outcomes[lead], self.outcomes[cell])
            if cell != self.search and gap > budget.drop_z * se:
                self.racing.remove(cell)
            elif not gap > budget.z * se:
                separated = False
        return separated


def decision_seed(key: str, seed: int) -> int:
    """The sampler's seed at a decision: the same layouts whichever process, whenever."""
    return zlib.crc32(f"{seed}/{key}".encode())


def run_race(
    agent: SearchAgent, decision: Decision, cells: list[int], budget: Budget, seed: int
) -> tuple[Race, int]:
    """Play the candidates on common sampled layouts until separated or capped;
    returns the race and the number of games played on."""
    sampler = LayoutSampler(decision.board)
    rng = random.Random(decision_seed(decision.key, seed))
    race = Race(cells, decision.cell)
    played = 0
    drawn = 0
    while drawn < budget.max_samples:
        for _ in range(min(budget.batch, budget.max_samples - drawn)):
            mines = sampler.sample(rng)
            flat = mines.reshape(-1)
            for cell in race.racing:
                if flat[cell]:
                    race.outcomes[cell].append(0)
                    continue
                game = position_game(decision.grid, mines, decision.move)
                race.outcomes[cell].append(int(play_on(agent, game, cell)))
                played += 1
            drawn += 1
        if drawn >= budget.min_samples and race.settle(budget):
            break
    return race, played


def held_out_gain(race: Race) -> float:
    """The best candidate chosen on the even-numbered layouts, its gain over search's
    choice measured on the odd-numbered ones (0 when search's own is chosen).

    Unlike the plain regret (a maximum over noisy estimates, biased upward) it is an
    unbiased estimate of the chosen candidate's true gain, so at most the true regret
    on average: it is not clipped at 0, and sums over decisions honestly.
    """

    def half(cell: int, parity: int) -> list[int]:
        return race.outcomes[cell][parity::2]

    best = max(race.cells, key=lambda c: (np.mean(half(c, 0) or [0]), c == race.search))
    gain, _, n = paired(half(best, 1), half(race.search, 1))
    return gain if n else 0.0


def sampled_line(
    agent: SearchAgent,
    decision: Decision,
    weights: Weights,
    cells: list[int],
    budget: Budget,
    seed: int,
) -> dict[str, Any]:
    """The candidates raced on sampled layouts: each one's estimate, its difference
    against search's choice with its paired standard error, the verdict."""
    race, played = run_race(agent, decision, cells, budget, seed)
    own = race.outcomes[decision.cell]
    rows = []
    for cell in cells:
        gain, se, n = paired(race.outcomes[cell], own)
        rows.append(
            {
                "cell": cell,
                "safety": safety(weights, cell),
                "samples": len(race.outcomes[cell]),
                "win": round(race.mean(cell), 6),
                "gain": round(gain, 6),
                "gain_se": None if se == float("inf") else round(se, 6),
                "outcomes": "".join(map(str, race.outcomes[cell])),
            }
        )
    best = max(rows, key=lambda r: (r["win"], r["cell"] == decision.cell))
    worse = best["cell"] != decision.cell and best["gain"] > 2 * (best["gain_se"] or float("inf"))
    return {
        **describe(decision),
        "candidates": rows,
        "best": best["cell"],
        "regret": round(max(best["gain"], 0.0), 6),
        "regret_se": best["gain_se"] if best["cell"] != decision.cell else 0.0,
        "held_out_gain": round(held_out_gain(race), 6),
        "verdict": "best" if best["cell"] == decision.cell else "worse" if worse else "noise",
        "samples": len(own),
        "rollouts": played,
    }


def estimate(agent: SearchAgent, decision: Decision, budget: Budget, seed: int) -> dict[str, Any]:
    """One results line: every candidate's win probability and its difference against
    search's choice, the best candidate, the regret and the verdict. Exact
    (:mod:`.exact`, ``"exact": true``) when the position has at most
    ``budget.exact_layouts`` layouts, estimated on sampled layouts otherwise."""
    begin = perf_counter()
    weights = count_position(decision.board)
    cells = candidate_cells(agent, decision, weights, budget.max_candidates)
    layouts = exact_listing(decision.board, weights, budget.exact_layouts)
    if layouts is not None:
        line = exact_line(agent, decision, weights, layouts, cells)
    else:
        line = sampled_line(agent, decision, weights, cells, budget, seed)
    return {**line, "seconds": round(perf_counter() - begin, 3)}
