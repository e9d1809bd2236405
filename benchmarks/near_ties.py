"""How close ``search``'s runner-up scores at its look-ahead guesses: where a tie-break could act.

At every guess of a guess log (``benchmarks/guess_log.py``) that the look-ahead
decided, ``search`` weighs its candidates again (every one whole) and the gap
between the best score and the runner-up's, relative to the best, is taken.
Where the two are within a fraction of a percent, the look-ahead's two-move
horizon barely prefers one: that is where a longer-term value of a guess (a
value network, or rollouts) would have to act, and how often that is bounds
what it can be worth.

Run: ``python benchmarks/near_ties.py --guesses runs/expert_guesses.jsonl --games 300``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from regret.decisions import add_log_arguments, check_log_arguments, read_decisions
from tqdm import tqdm

from semiautomines_agents import make_agent
from semiautomines_agents.search.agent import SearchAgent
from semiautomines_agents.search.lookahead import Assessment

GAPS = (0.001, 0.005, 0.01, 0.02, 0.05)
"""Relative gaps the table counts the runner-up within."""


def score(agent: SearchAgent, candidate: Assessment) -> float:
    """The agent's ranking score of a weighed candidate (see :mod:`.search.agent`)."""
    return (
        candidate.survival * candidate.factor
        + agent.progress_weight * candidate.safety * candidate.progress
    )


def runner_up_gap(agent: SearchAgent, candidates: tuple[Assessment, ...]) -> float:
    """The runner-up's score below the best's, relative to the best (1 with no
    runner-up, or a best score of 0)."""
    scores = sorted((score(agent, c) for c in candidates), reverse=True)
    if len(scores) < 2 or scores[0] <= 0:
        return 1.0
    return (scores[0] - scores[1]) / scores[0]


def table(gaps: list[float]) -> str:
    """How many look-ahead guesses have the runner-up within each of :data:`GAPS`."""
    values = np.asarray(gaps)
    lines = [
        "| runner-up within (of the best score) | look-ahead guesses | share |",
        "|---:|---:|---:|",
    ]
    for gap in GAPS:
        hits = int((values <= gap).sum())
        lines.append(f"| {gap:.1%} | {hits:,} | {hits / max(len(values), 1):.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_log_arguments(parser)
    parser.add_argument("--agent", default="search", help="a search setting string")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    check_log_arguments(parser, args)
    try:
        agent = make_agent(args.agent)
    except ValueError as error:
        parser.error(str(error).splitlines()[0])
    if not isinstance(agent, SearchAgent):
        parser.error(f"--agent {args.agent!r} is not a search agent")
    decisions, games = read_decisions(args.guesses, args.games)
    ahead = [d for d in decisions if d.reason == "search"]
    gaps = []
    try:
        for decision in tqdm(ahead, "guesses", disable=args.no_progress):
            advice = agent.advise(decision.board)
            gaps.append(runner_up_gap(agent, advice.candidates))
    except KeyboardInterrupt:
        print(f"stopped after {len(gaps):,} guesses", file=sys.stderr)
        return 130
    print(f"{len(gaps):,} look-ahead guesses of {len(decisions):,} in {len(games):,} games.\n")
    print(table(gaps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
