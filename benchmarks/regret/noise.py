"""What noise alone would show at the regret map's decisions: the verdicts, the plain
regret and the best other candidate's lead, if no candidate were better than search's.

A decision races several candidates, and its verdict looks at the best of them: with
five candidates level with search's choice, one of them still leads by two paired
standard errors now and then. So the share of decisions where "another is clearly
better" means nothing until it is set beside the share noise alone produces.

The null here is that every candidate at a decision is exactly as good as search's:
then, layout by layout, the candidates' outcomes are exchangeable, and shuffling them
among the candidates drawn on that layout gives a decision as likely as the one
measured. The verdict is taken again on each shuffle, with the measured rule (the best
mean, search's choice winning a tie; "clearly better" past two paired standard errors,
a zero spread counting as none). A measured share of "clearly better" no higher than the
shuffled one is what a search with no better cell on offer would show.

The shuffle keeps each candidate's number of layouts (a candidate dropped early keeps
its short record). It does not replay the race's stopping rule, which stops once a
leader is separated: that can only raise the measured share of separated leaders, so
the comparison leans against search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

Row = dict[str, Any]


def _outcomes(row: Row) -> tuple[np.ndarray, int] | None:
    """A sampled decision's outcomes as a candidates x layouts array (NaN where a
    candidate was not drawn) and search's row; ``None`` for a decision played on every
    layout or with fewer than two sampled candidates."""
    if row.get("exact"):
        return None
    candidates = [c for c in row["candidates"] if c.get("outcomes")]
    if len(candidates) < 2:
        return None
    cells = [c["cell"] for c in candidates]
    if row["cell"] not in cells:
        return None
    length = max(len(c["outcomes"]) for c in candidates)
    values = np.full((len(candidates), length), np.nan)
    for k, entry in enumerate(candidates):
        record = entry["outcomes"]
        values[k, : len(record)] = [int(ch) for ch in record]
    return values, cells.index(row["cell"])


def _means(values: np.ndarray) -> np.ndarray:
    """Each candidate's win rate over the layouts it was drawn on (0 with none)."""
    counts = (~np.isnan(values)).sum(axis=2)
    return np.where(counts > 0, np.nansum(values, axis=2) / np.maximum(counts, 1), 0.0)


def _paired_gain(
    values: np.ndarray, pick: np.ndarray, search: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per decision of the stack, the picked candidate's mean gain over search's on the
    layouts both were drawn on, and its standard error (infinite from under two layouts
    or a zero spread, as the measured verdict counts it)."""
    repeats = np.arange(values.shape[0])
    chosen, own = values[repeats, pick], values[:, search]
    both = ~np.isnan(chosen) & ~np.isnan(own)
    n = both.sum(axis=1)
    difference = np.where(both, chosen - own, 0.0)
    mean = difference.sum(axis=1) / np.maximum(n, 1)
    squares = np.where(both, (difference - mean[:, None]) ** 2, 0.0).sum(axis=1)
    spread = np.sqrt(squares / np.maximum(n - 1, 1))
    standard_error = np.where((n > 1) & (spread > 0), spread / np.sqrt(np.maximum(n, 1)), np.inf)
    return mean, standard_error


def judge(values: np.ndarray, search: int) -> tuple[np.ndarray, np.ndarray]:
    """The verdict of each of a stack of decisions (``values``: repeats x candidates x
    layouts, NaN where not drawn) as 0 best, 1 within noise, 2 clearly better, and its
    plain regret (the best candidate's paired gain over search's, 0 when search's is
    the best)."""
    # Search's choice wins a tie; among the others the first listed does (as measured).
    tie_break = np.zeros(values.shape[1])
    tie_break[search] = 1e-9
    best = np.argmax(_means(values) + tie_break, axis=1)
    mean, standard_error = _paired_gain(values, best, search)
    mine = best == search
    worse = mean > 2 * standard_error
    return np.where(mine, 0, np.where(worse, 2, 1)), np.where(mine, 0.0, np.maximum(mean, 0.0))


def best_other_z(values: np.ndarray, search: int) -> np.ndarray:
    """Per decision of the stack, the best other candidate's gain over search's choice in
    paired standard errors (0 when the spread is none): the figure whose tail the
    verdict "clearly better" cuts at 2."""
    means = _means(values)
    means[:, search] = -np.inf
    mean, standard_error = _paired_gain(values, np.argmax(means, axis=1), search)
    finite = np.isfinite(standard_error)
    return np.where(finite, mean / np.where(finite, standard_error, 1.0), 0.0)


def shuffled(values: np.ndarray, repeats: int, rng: np.random.Generator) -> np.ndarray:
    """``repeats`` copies of ``values`` with each layout's outcomes shuffled among the
    candidates drawn on it (the cells not drawn stay NaN)."""
    present = ~np.isnan(values)
    rows, columns = values.shape
    keys = rng.random((repeats, rows, columns))
    keys[:, ~present] = np.inf
    # Per layout, the drawn rows in a random order (the undrawn after them) ...
    source = np.argsort(keys, axis=1)
    # ... are written to the drawn rows in their own order (the undrawn after them).
    slots = np.argsort(np.where(present, np.arange(rows)[:, None], rows + 1), axis=0, kind="stable")
    taken = np.take_along_axis(np.broadcast_to(values, keys.shape), source, axis=1)
    result = np.empty_like(taken)
    np.put_along_axis(result, np.broadcast_to(slots, keys.shape), taken, axis=1)
    return result


@dataclass(frozen=True)
class Calibrated:
    """One sampled decision: its verdict and plain regret as measured, each verdict's
    chance under the null (0 best, 1 within noise, 2 clearly better, as :func:`judge`)
    and the null's mean plain regret; the best other candidate's lead in standard errors
    (:func:`best_other_z`), as measured and on each shuffle."""

    row: Row
    measured: int
    null: np.ndarray
    regret: float
    null_regret: float
    z: float
    null_z: np.ndarray


def calibrate(rows: list[Row], repeats: int = 200, seed: int = 0) -> list[Calibrated]:
    """Every sampled decision of ``rows`` with at least two candidates, its verdict, and
    the verdicts' shares over ``repeats`` shuffles under the null that every candidate
    is as good as search's (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    found = []
    for row in rows:
        outcomes = _outcomes(row)
        if outcomes is None:
            continue
        values, search = outcomes
        stack = shuffled(values, repeats, rng)
        null, null_regret = judge(stack, search)
        measured, regret = judge(values[None], search)
        found.append(
            Calibrated(
                row,
                int(measured[0]),
                np.bincount(null, minlength=3) / repeats,
                float(regret[0]),
                float(null_regret.mean()),
                float(best_other_z(values[None], search)[0]),
                best_other_z(stack, search),
            )
        )
    return found


def clearly_better(group: list[Calibrated]) -> tuple[int, float, float]:
    """How many of ``group`` measured "another clearly better", how many the null
    expects, and the null's standard deviation of that count (a sum of independent
    decisions, each with its own chance)."""
    chances = np.array([c.null[2] for c in group])
    measured = sum(c.measured == 2 for c in group)
    return measured, float(chances.sum()), float(np.sqrt((chances * (1 - chances)).sum()))
