"""What breaking search's near ties another way would win, read off a regret map.

At a look-ahead guess, the candidates that score within a small gap of the best
(:func:`near_ties`) are where a longer-term value of a guess could overrule the
two-move survival. The regret map (``benchmarks/guess_regret.py``) has already
played every measured candidate on the same layouts, so any rule that picks one of
them is worth, at that decision, the paired difference of its candidate against
search's choice: no new games are needed to gate a tie-break before building it.

Fixed rules (the safest, the most progress, JSMinesweeper's cell...) pick from the
tie without looking at outcomes, so their gains are unbiased. Two rules do look:

- *learned*: a ridge regression from a candidate's figures, less those of search's
  choice, to its measured gain, fitted on the decisions of even-numbered games and
  applied to the odd ones, and the other way round (cross-fitted), so every gain it
  is credited with comes from games it never saw;
- *best of half the layouts*: the candidate that won most on the even-numbered
  layouts, credited with its gain on the odd-numbered ones. A rule that knew the
  true best of the tie would win at least this much on average: it says how much is
  there to be had at this gap, at the least.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from semiautomines_agents.search.agent import SearchAgent
from semiautomines_agents.search.lookahead import Assessment

from .decisions import Decision
from .report import per_game

Row = dict[str, Any]

FEATURES = (
    "safety",
    "survival",
    "factor",
    "progress",
    "expected clears",
    "numbers",
    "sure clears",
    "score gap",
    "corner",
    "edge",
    "covered neighbours",
    "number neighbours",
)
"""A candidate's figures the learned rule weighs, each less search's choice's."""

RIDGE = 1.0
"""The ridge penalty per training example, on standardised figures."""


@dataclass(frozen=True)
class Tie:
    """One look-ahead decision's measured candidates within the gap of the best score."""

    key: str
    game: int
    search: int
    cells: tuple[int, ...]
    """The tie, search's choice first."""
    gains: dict[int, float]
    """Each cell's measured win probability less search's choice's (all layouts)."""
    halves: dict[int, tuple[float, float]] | None
    """Each cell's mean win on the even- and the odd-numbered layouts (``None``:
    played on every layout, where the gains are exact)."""
    figures: dict[int, np.ndarray]
    """Each cell's :data:`FEATURES`, raw."""
    assessments: dict[int, Assessment]
    jsminesweeper: int | None


def neighbourhood(grid: np.ndarray, cell: int) -> tuple[int, int, int, int]:
    """Corner (0/1), edge (0/1), covered neighbours, shown-number neighbours."""
    height, width = grid.shape
    y, x = divmod(cell, width)
    sides = (x in (0, width - 1)) + (y in (0, height - 1))
    near = grid[max(y - 1, 0) : y + 2, max(x - 1, 0) : x + 2]
    covered = int(np.count_nonzero(near < 0)) - int(grid[y, x] < 0)
    return int(sides == 2), int(sides == 1), covered, int(np.count_nonzero(near >= 0))


def figures(agent: SearchAgent, grid: np.ndarray, a: Assessment, best: float) -> np.ndarray:
    """The :data:`FEATURES` of one weighed candidate, ``best`` the best score."""
    gap = (best - agent.score(a)) / best if best > 0 else 0.0
    return np.array(
        [
            a.safety,
            a.survival,
            a.factor,
            a.progress,
            a.expected_clears,
            a.numbers,
            len(a.clears),
            gap,
            *neighbourhood(grid, a.cell),
        ],
        dtype=float,
    )


def _halves(entry: Row) -> tuple[float, float]:
    wins = np.frombuffer(entry["outcomes"].encode(), dtype=np.uint8) - ord("0")
    return float(wins[0::2].mean()), float(wins[1::2].mean())


def near_ties(
    agent: SearchAgent, rows: Iterable[Row], decisions: dict[str, Decision], gap: float
) -> list[Tie]:
    """The ties at the look-ahead decisions of ``rows``: measured candidates whose score
    is within ``gap`` (relative) of the best, when more than search's choice is.

    Search weighs each position again (:meth:`SearchAgent.advise`, every candidate
    whole); a decision whose choice it no longer makes, or whose candidates lack
    outcomes, is left out.
    """
    ties = []
    for row in rows:
        decision = decisions.get(row["key"])
        if row["reason"] != "search" or decision is None:
            continue
        advice = agent.advise(decision.board)
        if advice.cell != row["cell"] or not advice.candidates:
            continue
        weighed = {a.cell: a for a in advice.candidates}
        best = max(agent.score(a) for a in weighed.values())
        measured = {c["cell"]: c for c in row["candidates"]}
        exact = bool(row.get("exact"))
        if not exact and any("outcomes" not in c for c in measured.values()):
            continue
        cells = [row["cell"]] + [
            cell
            for cell, a in weighed.items()
            if cell in measured and cell != row["cell"] and agent.score(a) >= best - gap * abs(best)
        ]
        if len(cells) < 2:
            continue
        ties.append(
            Tie(
                key=row["key"],
                game=int(row["game"]),
                search=row["cell"],
                cells=tuple(cells),
                gains={c: float(measured[c]["gain"]) for c in cells},
                halves=None if exact else {c: _halves(measured[c]) for c in cells},
                figures={c: figures(agent, decision.grid, weighed[c], best) for c in cells},
                assessments={c: weighed[c] for c in cells},
                jsminesweeper=row.get("jsminesweeper"),
            )
        )
    return ties


Rule = Callable[[Tie], int]


def by_most(field: Callable[[Assessment], float]) -> Rule:
    """The tie's cell with the largest ``field``; search's choice keeps an exact tie."""
    return lambda tie: max(tie.cells, key=lambda c: (field(tie.assessments[c]), c == tie.search))


def jsminesweeper(tie: Tie) -> int:
    return tie.jsminesweeper if tie.jsminesweeper in tie.cells else tie.search


def border_first(tie: Tie) -> int:
    """A corner, else an edge cell, of the tie; search's choice when it is one."""
    corner, edge = FEATURES.index("corner"), FEATURES.index("edge")
    return max(
        tie.cells,
        key=lambda c: (2 * tie.figures[c][corner] + tie.figures[c][edge], c == tie.search),
    )


FIXED_RULES: dict[str, Rule] = {
    "the safest": by_most(lambda a: a.safety),
    "the most progress": by_most(lambda a: a.progress),
    "the most expected clears": by_most(lambda a: a.expected_clears),
    "the most numbers it can show": by_most(lambda a: a.numbers),
    "a corner, else an edge": border_first,
    "JSMinesweeper's cell": jsminesweeper,
}


def half_best_gain(tie: Tie) -> float:
    """The candidate best on the even-numbered layouts, its gain on the odd-numbered
    ones (the exact best's gain where every layout was played)."""
    if tie.halves is None:
        return max(tie.gains.values())
    halves = tie.halves
    best = max(tie.cells, key=lambda c: (halves[c][0], c == tie.search))
    return halves[best][1] - halves[tie.search][1]


def _examples(ties: list[Tie]) -> tuple[np.ndarray, np.ndarray]:
    x = [t.figures[c] - t.figures[t.search] for t in ties for c in t.cells[1:]]
    y = [t.gains[c] for t in ties for c in t.cells[1:]]
    return np.array(x).reshape(-1, len(FEATURES)), np.array(y)


@dataclass(frozen=True)
class Ridge:
    """A linear estimate of a candidate's gain over search's choice."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    intercept: float

    def predict(self, differences: np.ndarray) -> np.ndarray:
        return ((differences - self.mean) / self.scale) @ self.weights + self.intercept


def fit(ties: list[Tie], penalty: float = RIDGE) -> Ridge:
    """Ridge regression of the measured gains on the figures' differences."""
    x, y = _examples(ties)
    if not len(y):
        return Ridge(np.zeros(len(FEATURES)), np.ones(len(FEATURES)), np.zeros(len(FEATURES)), 0.0)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    intercept = float(y.mean())
    gram = z.T @ z + penalty * len(y) * np.eye(len(FEATURES))
    weights = np.linalg.solve(gram, z.T @ (y - intercept))
    return Ridge(mean, scale, weights, intercept)


def learned_choices(ties: list[Tie]) -> dict[str, int]:
    """Each tie's cell by the ridge fitted on the games of the other parity: the
    candidate with the largest predicted gain when that is above 0, else search's."""
    choices = {}
    for parity in (0, 1):
        model = fit([t for t in ties if t.game % 2 != parity])
        for tie in (t for t in ties if t.game % 2 == parity):
            others = tie.cells[1:]
            predicted = model.predict(
                np.array([tie.figures[c] - tie.figures[tie.search] for c in others])
            )
            top = int(np.argmax(predicted))
            choices[tie.key] = others[top] if predicted[top] > 0 else tie.search
    return choices


def _line(label: str, gains: list[tuple[int, float]], changed: int, games: int) -> str:
    per_change = 100 * sum(g for _, g in gains) / changed if changed else 0.0
    return f"| {label} | {changed} | {per_change:+.2f} | {per_game(gains, games)} |"


HEADER = (
    "| tie broken by | decisions it changes | gain per changed decision (points) "
    "| gain per game (points, ± 95%) |\n|---|---:|---:|---:|"
)


def table(ties: list[Tie], games: int, extra: dict[str, dict[str, int]] | None = None) -> str:
    """Each rule's gain over search's own choice at the ties, per game of ``games``;
    ``extra``: more rules' choices (tie key -> cell), by name."""
    lines = [HEADER]
    rules: dict[str, dict[str, int]] = {
        name: {t.key: rule(t) for t in ties} for name, rule in FIXED_RULES.items()
    }
    rules["learned (cross-fitted by game)"] = learned_choices(ties)
    rules |= extra or {}
    for name, choices in rules.items():
        picked = [(t, choices[t.key]) for t in ties]
        gains = [(t.game, t.gains[c]) for t, c in picked if c != t.search]
        lines.append(_line(name, gains, len(gains), games))
    ceiling = [(t.game, half_best_gain(t)) for t in ties]
    lines.append(
        _line("best of half the layouts (there to be had, at least)", ceiling, len(ties), games)
    )
    return "\n".join(lines)
