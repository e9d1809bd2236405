"""Tables of a results file: how often search's choice is the best, and what it costs.

Per group of decisions: how many; the share where search's choice was the best
candidate measured, the share where another was ahead but within noise, and the
share where one was clearly better (its lead over two paired standard errors);
the regret (best candidate's win probability minus search's, 0 when search's is
best) per decision, plain and held out (the best chosen on half the layouts,
measured on the other half: the plain figure is biased upward by taking a maximum
of noisy estimates); and the win probability lost per game, the group's plain
regret summed over the games it came from (divided by the games played, those
with no guess too). The standard errors treat decisions as independent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import sqrt
from typing import Any

from .decisions import LAYOUT_BANDS, PHASES

Row = dict[str, Any]
REASONS = ("search", "forced", "endgame")


def _group_line(label: str, rows: list[Row], games: int) -> str:
    n = len(rows)
    if not n:
        return f"| {label} | 0 | | | | | | |"
    share = {v: 100 * sum(r["verdict"] == v for r in rows) / n for v in ("best", "noise", "worse")}
    regret = sum(r["regret"] for r in rows)
    se = sqrt(sum((r["regret_se"] or 0.0) ** 2 for r in rows))
    held = sum(r["held_out_regret"] for r in rows) / n
    return (
        f"| {label} | {n} | {share['best']:.0f}% | {share['noise']:.0f}% | {share['worse']:.0f}% "
        f"| {100 * regret / n:.2f} | {100 * held:.2f} | {100 * regret / games:.2f} ± "
        f"{100 * 1.96 * se / games:.2f} |"
    )


HEADER = (
    "| {what} | decisions | search best | other ahead, within noise | other clearly better "
    "| regret per decision (points) | held out (points) | lost per game (points, ± 95%) |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|"
)


def table(
    rows: list[Row], games: int, what: str, key: Callable[[Row], str], order: Iterable[str]
) -> str:
    """One table: a line per group of ``key``, in ``order`` (groups absent are left out),
    then all decisions."""
    lines = [HEADER.format(what=what)]
    for label in order:
        group = [r for r in rows if key(r) == label]
        if group:
            lines.append(_group_line(label, group, games))
    lines.append(_group_line("all", rows, games))
    return "\n".join(lines)


def peer_table(rows: list[Row]) -> str:
    """Where JSMinesweeper's cell differs from search's: who was ahead, by how much."""
    differ = []
    for row in rows:
        peer = row.get("jsminesweeper")
        if peer is None or peer == row["cell"]:
            continue
        entry = next(c for c in row["candidates"] if c["cell"] == peer)
        differ.append(entry)
    if not differ:
        return "No decision here where JSMinesweeper's cell differs from search's was measured."
    n = len(differ)
    ahead = sum(e["gain"] > 2 * (e["gain_se"] or float("inf")) for e in differ)
    behind = sum(-e["gain"] > 2 * (e["gain_se"] or float("inf")) for e in differ)
    mean = sum(e["gain"] for e in differ) / n
    return (
        "| decisions where the cells differ | JSMinesweeper clearly better | search clearly "
        "better | within noise | JSMinesweeper - search (points per decision) |\n"
        "|---:|---:|---:|---:|---:|\n"
        f"| {n} | {ahead} | {behind} | {n - ahead - behind} | {100 * mean:+.2f} |"
    )


def report(rows: list[Row], games: int) -> str:
    """Every table of a results file, as markdown."""
    bands = [label for _, label in LAYOUT_BANDS] + ["> 1e12", "unknown"]
    places = [
        f"{w}, {f}" for w in ("corner", "edge", "interior") for f in ("frontier", "off frontier")
    ]
    samples = [r["samples"] for r in rows]
    rollouts = sum(r["rollouts"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    summary = (
        f"{len(rows)} decisions from {games} games; {min(samples, default=0)} to "
        f"{max(samples, default=0)} sampled layouts per decision (mean "
        f"{sum(samples) / max(len(rows), 1):.0f}), {rollouts:,} games played on, "
        f"{seconds / 60:.0f} minutes of play (summed over workers)."
    )
    return "\n\n".join(
        [
            summary,
            "### By game phase\n\n" + table(rows, games, "phase", lambda r: r["phase"], PHASES),
            "### By how search decided\n\n"
            + table(rows, games, "decided by", lambda r: r["reason"], REASONS),
            "### By layouts the position admits\n\n"
            + table(rows, games, "layouts", lambda r: r["band"], bands),
            "### By where search's cell lies\n\n"
            + table(rows, games, "cell", lambda r: r["place"], places),
            "### Where JSMinesweeper's choice differs\n\n" + peer_table(rows),
        ]
    )


READING = """\
Every decision is one guess of `search` in the games of a guess log
(`benchmarks/guess_log.py`: the games of `semiautomines evaluate`, rule set
`complete`). At each, layouts consistent with the position are drawn exactly in
proportion to the engine's weights, and every candidate (search's choice, the safest
cell, the other cells search weighed, best scored first, and JSMinesweeper's cell when
it differs) is probed in the same layouts, `search` playing each game on to its end.
Sampling stops when the best candidate leads every other by two paired standard
errors, or at the cap; a candidate more than three behind leaves early.

- *search best*: no candidate measured ahead of search's choice; *within noise*:
  one ahead by less than two paired standard errors; *clearly better*: one ahead
  by more.
- *regret*: the best candidate's win probability minus search's (0 when search's is
  best), in percentage points. It is a maximum of noisy estimates, so biased upward;
  *held out* picks the best candidate on the even-numbered layouts and measures its
  gain on the odd-numbered ones (unbiased for the candidate so chosen, and noisier).
- *lost per game*: the group's regret summed and divided by the games the decisions
  came from (games with no guess count too); ± is 1.96 standard errors, decisions
  taken as independent.
- Phases: the *first guess* after the first click; then by the share of safe cells
  open: *early* below 35 %, *mid* 35-75 %, *endgame* from 75 %. *decided by*:
  `forced` is a 50/50 no later number can resolve, `endgame` an exact solve,
  `search` the look-ahead."""


def page(rows: list[Row], games: int, command: str, at_scale: str) -> str:
    """The results page: the command that made it, how to read it, the tables, and the
    command that runs the instrument at scale."""
    return (
        "# Where `search`'s guesses lose: every candidate played on\n\n"
        f"```sh\n{command}\n```\n\n{READING}\n\n## Tables\n\n{report(rows, games)}\n\n"
        f"## At scale\n\nSeveral thousand decisions, in the background (resumable: run it "
        f"again after a stop and it goes on):\n\n```sh\n{at_scale}\n```\n"
    )
