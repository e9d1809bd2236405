"""Tables of a results file: how often search's choice is the best, and what it costs.

Per group of decisions: how many; the share where search's choice was the best
candidate measured, the share where another was ahead but within noise, and the
share where one was clearly better (its lead over two paired standard errors);
the plain regret (best candidate's win probability minus search's, 0 when search's
is best) per decision, biased upward by taking a maximum of noisy estimates; the
held-out gain (the best chosen on half the layouts, measured on the other half) per
decision; and the win probability lost per game, the group's held-out gains summed
and divided by the games they came from (games with no guess too), with a 95%
interval that takes the game as the unit: decisions of one game are not
independent (one 50/50 can stay on the board for several guesses).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import sqrt
from typing import Any

from .decisions import LAYOUT_BANDS, PHASES
from .noise import Calibrated, calibrate, clearly_better

MATCH = 1e-9
"""An endgame value and a play-out value this close are equal (stored rounded to 1e-9)."""

Row = dict[str, Any]
REASONS = ("search", "forced", "endgame")


def held_out(row: Row) -> float:
    """A decision's held-out gain; lines written before it was stored unclipped hold it
    clipped at 0 (``held_out_regret``), an overstatement the summary counts."""
    return row["held_out_gain"] if "held_out_gain" in row else row["held_out_regret"]


def per_game(gains: list[tuple[int, float]], games: int, digits: int = 2) -> str:
    """``gains`` (game, value) summed per game and averaged over ``games`` games (those
    with no entry count 0), in points, ``"+m ± h"`` with the 95% half-width from the
    spread of the per-game sums; ``"n/a"`` for the half-width below two games."""
    by_game: dict[int, float] = {}
    for game, value in gains:
        by_game[game] = by_game.get(game, 0.0) + value
    mean = sum(by_game.values()) / games
    if games < 2 or len(by_game) < 2:
        return f"{100 * mean:+.{digits}f} ± n/a"
    squares = sum(v * v for v in by_game.values())
    variance = max(squares - games * mean * mean, 0.0) / (games - 1)
    return f"{100 * mean:+.{digits}f} ± {100 * 1.96 * sqrt(variance / games):.{digits}f}"


def _group_line(label: str, rows: list[Row], games: int) -> str:
    n = len(rows)
    if not n:
        return f"| {label} | 0 | | | | | | |"
    share = {v: 100 * sum(r["verdict"] == v for r in rows) / n for v in ("best", "noise", "worse")}
    regret = sum(r["regret"] for r in rows) / n
    gains = [(int(r["game"]), held_out(r)) for r in rows]
    return (
        f"| {label} | {n} | {share['best']:.0f}% | {share['noise']:.0f}% | {share['worse']:.0f}% "
        f"| {100 * regret:.2f} | {100 * sum(g for _, g in gains) / n:+.2f} "
        f"| {per_game(gains, games)} |"
    )


HEADER = (
    "| {what} | decisions | search best | other ahead, within noise | other clearly better "
    "| plain regret per decision (points, biased up) | held-out gain per decision (points) "
    "| lost per game, held out (points, ± 95%) |\n"
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


def _se(entry: Row, exact: bool) -> float:
    """A candidate's paired standard error: 0 when played on every layout (any gap is
    then real); infinite when sampling gave none, or 0 from too few differing games."""
    return 0.0 if exact else entry["gain_se"] or float("inf")


PEER_HEADER = (
    "| phase | decisions where the cells differ | JSMinesweeper clearly better | search "
    "clearly better | within noise or level | JSMinesweeper - search (points per decision) "
    "| JSMinesweeper - search per game (points, ± 95%) |\n"
    "|---|---:|---:|---:|---:|---:|---:|"
)


COIN = 1e-6
"""A safety this close to 1/2 is a coin flip (safeties are stored rounded to 1e-6)."""

Differing = tuple[int, Row, bool]
"""Where JSMinesweeper's cell differs: the game, its cell's candidate entry, and whether
the decision was played on every layout."""


def _peer_line(label: str, differ: list[Differing], games: int) -> str:
    n = len(differ)
    ahead = sum(e["gain"] > 2 * _se(e, exact) for _, e, exact in differ)
    behind = sum(-e["gain"] > 2 * _se(e, exact) for _, e, exact in differ)
    gains = [(game, e["gain"]) for game, e, _ in differ]
    return (
        f"| {label} | {n} | {ahead} | {behind} | {n - ahead - behind} "
        f"| {100 * sum(g for _, g in gains) / n:+.2f} | {per_game(gains, games, 3)} |"
    )


def peer_table(rows: list[Row], games: int) -> str:
    """Where JSMinesweeper's cell differs from search's: who was ahead, by how much, per
    game phase. Per game, the gains of JSMinesweeper's cell are summed and divided by the
    games they came from: what playing its cell at exactly these decisions would have
    won or lost, with ``search`` playing on."""
    differ: list[tuple[str, Differing]] = []
    coin_first: list[Differing] = []
    for row in rows:
        peer = row.get("jsminesweeper")
        if peer is None or peer == row["cell"]:
            continue
        entry = next(c for c in row["candidates"] if c["cell"] == peer)
        ours = next(c for c in row["candidates"] if c["cell"] == row["cell"])
        found = (int(row["game"]), entry, bool(row.get("exact")))
        differ.append((row["phase"], found))
        theirs, own = entry.get("safety"), ours.get("safety")
        if theirs is not None and own is not None and abs(theirs - 0.5) < COIN < own - 0.5:
            coin_first.append(found)
    if not differ:
        return "No decision here where JSMinesweeper's cell differs from search's was measured."
    lines = [PEER_HEADER]
    for label in PHASES:
        group = [d for phase, d in differ if phase == label]
        if group:
            lines.append(_peer_line(label, group, games))
    lines.append(_peer_line("all", [d for _, d in differ], games))
    if coin_first:
        lines.append(_peer_line("of all: its cell a 50/50, search's safer", coin_first, games))
    return "\n".join(lines)


NOISE_HEADER = (
    "| phase | sampled decisions | search best | search best, noise alone | other clearly "
    "better | other clearly better, noise alone (± 1 sd) | plain regret per decision "
    "(points) | plain regret, noise alone |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|"
)
SHUFFLES = 200
"""Shuffles per decision for the null's verdict shares (a fixed seed: the page is
the same on every run)."""


def _noise_line(label: str, group: list[Calibrated]) -> str:
    n = len(group)
    best = 100 * sum(c.measured == 0 for c in group) / n
    best_null = 100 * sum(float(c.null[0]) for c in group) / n
    measured, expected, spread = clearly_better(group)
    return (
        f"| {label} | {n} | {best:.0f}% | {best_null:.0f}% "
        f"| {measured} ({100 * measured / n:.1f}%) "
        f"| {expected:.1f} ± {spread:.1f} ({100 * expected / n:.1f}%) "
        f"| {100 * sum(c.regret for c in group) / n:.2f} "
        f"| {100 * sum(c.null_regret for c in group) / n:.2f} |"
    )


def noise_table(found: list[Calibrated]) -> str | None:
    """The sampled decisions' verdicts beside what noise alone gives when every
    candidate is as good as search's (``found``: :func:`.noise.calibrate`), per phase;
    ``None`` when no sampled decision has two candidates."""
    if not found:
        return None
    lines = [NOISE_HEADER]
    for label in PHASES:
        group = [c for c in found if c.row["phase"] == label]
        if group:
            lines.append(_noise_line(label, group))
    lines.append(_noise_line("all", found))
    return "\n".join(lines)


EXACT_HEADER = (
    "| decided by | decisions | layouts per decision (mean; max) | every undecided cell "
    "played | search exactly best | another exactly better | exact regret per decision "
    "(points) | lost per game (points, ± 95%) | endgame value = play-out "
    "(decisions) |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def _exact_line(label: str, rows: list[Row], games: int) -> str:
    n = len(rows)
    layouts = [r["samples"] for r in rows]
    best = sum(r["verdict"] == "best" for r in rows)
    regrets = [r["regret"] for r in rows]
    compared = [r for r in rows if r.get("endgame_matches") is not None]
    equal = sum(bool(r["endgame_matches"]) for r in compared)
    return (
        f"| {label} | {n} | {sum(layouts) / n:.0f}; {max(layouts)} "
        f"| {sum(bool(r.get('every_cell')) for r in rows)} | {best} | {n - best} "
        f"| {100 * sum(regrets) / n:.3f} "
        f"| {per_game([(int(r['game']), r['regret']) for r in rows], games, 3)} "
        f"| {equal} of {len(compared)} |"
    )


def exact_table(rows: list[Row], games: int) -> str | None:
    """The decisions played on every layout (``"exact"`` lines): how often search's
    choice is exactly the best, the exact regret, and whether the exact endgame's value
    of every candidate equals its play-out value; ``None`` when there are none."""
    exact = [r for r in rows if r.get("exact")]
    if not exact:
        return None
    lines = [EXACT_HEADER]
    for reason in REASONS:
        group = [r for r in exact if r["reason"] == reason]
        if group:
            lines.append(_exact_line(reason, group, games))
    lines.append(_exact_line("all", exact, games))
    odd = [
        f"{sum(not r.get(k, True) for r in exact)} {what}"
        for k, what in (
            ("replayed", "where search's advice on the logged position is not the logged cell"),
            ("deterministic", "where a fresh agent's replay differs from the remembered play"),
        )
    ]
    valued = [c for r in exact for c in r["candidates"] if c.get("endgame") is not None]
    above = sum(c["win"] > c["endgame"] + MATCH for c in valued)
    below = sum(c["win"] < c["endgame"] - MATCH for c in valued)
    notes = (
        f"Of {len(valued):,} candidate cells the endgame valued, {above + below} differ from "
        f"the play-out: {above} above the endgame's value (which a faithful model of the "
        f"game rules out) and {below} below it (search's continuation short of the "
        "endgame's: a position past its reach). "
    )
    return "\n".join(lines) + "\n\n" + notes + "Decisions " + "; ".join(odd) + "."


def report(rows: list[Row], games: int, calibrated: list[Calibrated] | None = None) -> str:
    """Every table of a results file, as markdown; ``calibrated`` is
    :func:`.noise.calibrate` of ``rows`` when the caller has it already."""
    bands = [label for _, label in LAYOUT_BANDS] + ["> 1e12", "unknown"]
    places = [
        f"{w}, {f}" for w in ("corner", "edge", "interior") for f in ("frontier", "off frontier")
    ]
    samples = [r["samples"] for r in rows]
    rollouts = sum(r["rollouts"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    played_exactly = sum(bool(r.get("exact")) for r in rows)
    kind = (
        f"layouts per decision, every one at the {played_exactly} played exactly"
        if played_exactly
        else "sampled layouts per decision"
    )
    summary = (
        f"{len(rows)} decisions from {games} games; {min(samples, default=0)} to "
        f"{max(samples, default=0)} {kind} (mean "
        f"{sum(samples) / max(len(rows), 1):.0f}), {rollouts:,} games played on, "
        f"{seconds / 60:.0f} minutes of play (summed over workers)."
    )
    exact = exact_table(rows, games)
    noise = noise_table(calibrate(rows, SHUFFLES) if calibrated is None else calibrated)
    clipped = sum("held_out_gain" not in r for r in rows)
    if clipped:
        summary += (
            f" The held-out gains of {clipped} decisions were stored clipped at 0 (measured "
            "before the unclipped figure was kept): they overstate the loss a little."
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
            "### Where JSMinesweeper's choice differs\n\n" + peer_table(rows, games),
        ]
        + ([f"### Against noise alone\n\n{noise}"] if noise else [])
        + ([f"### Played on every layout\n\n{exact}"] if exact else [])
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
- *plain regret*: the best candidate's win probability minus search's (0 when
  search's is best), in percentage points: a maximum of noisy estimates, so biased
  upward, by about the noise when candidates are level.
- *held-out gain*: the best candidate picked on the even-numbered layouts, its gain
  over search's choice measured on the odd-numbered ones (0 when search's own is
  picked; negative when the pick does worse there): an unbiased estimate of the picked
  candidate's true gain, so on average at most the true regret.
- *lost per game*: the group's held-out gains summed and divided by the games the
  decisions came from (games with no guess count too); ± is 1.96 standard errors
  with the game as the unit: each game's gains summed, the spread taken over all
  the games (decisions of one game are not independent).
- Phases: the *first guess* after the first click; then by the share of safe cells
  open: *early* below 35 %, *mid* 35-75 %, *endgame* from 75 %. *decided by*:
  `forced` is a 50/50 no later number can resolve, `endgame` an exact solve,
  `search` the look-ahead.
- *against noise alone*: with several candidates level, one of them still leads by
  two standard errors now and then. Under the null that every candidate at a decision
  is as good as search's, the outcomes of one layout are exchangeable among the
  candidates drawn on it; shuffling them (200 times per decision) and taking the
  verdict again gives the shares noise alone produces, and the plain regret noise
  alone produces (a measured plain regret below it is no sign of any). The race's
  stopping rule (stop once a leader is separated) is not replayed: it can only raise
  the measured share of separated leaders, so the comparison leans against search.
- A position of at most 2,000 layouts (`--exact-layouts`) is not sampled: every
  layout is played, every undecided cell a candidate when that stays within 10,000
  games, so its figures are exact (no noise: search's choice is exactly the best, or
  another is exactly better by the regret shown). Beside each candidate's play-out
  value stands the exact endgame's own value of probing it; the two must agree where
  the endgame models the real game."""


ONLY_DIFFERING = """\
Measured here: only the decisions where JSMinesweeper's cell differs from search's
(`--only-differing`), so the tables by phase, by decider, by layouts and by place
describe those decisions alone, not search's guesses in general. With `--candidates
1` the two cells are the only candidates: "search best" then means search's cell was
measured at or above JSMinesweeper's."""


def page(tables: str, command: str, at_scale: str, only_differing: bool = False) -> str:
    """The results page: the command that made it, how to read it (and which decisions it
    measured), the ``tables`` (:func:`report`'s), and the command that runs the
    instrument at scale."""
    reading = READING + ("\n\n" + ONLY_DIFFERING if only_differing else "")
    return (
        "# Where `search`'s guesses lose: every candidate played on\n\n"
        f"```sh\n{command}\n```\n\n{reading}\n\n## Tables\n\n{tables}\n\n"
        f"## At scale\n\nSeveral thousand decisions, in the background (resumable: run it "
        f"again after a stop and it goes on):\n\n```sh\n{at_scale}\n```\n"
    )
