"""Win rates of the baseline agents at benchmark scale, against published figures.

Plays ``--games`` (default 5,000) games per agent, board and first-click policy
with the evaluation harness (rule set ``complete``, paired seeded layouts,
``--workers`` processes) and prints, per first-click policy, each agent's win
rate with its 95% Wilson interval, mean guesses and speed, next to greedy's
target floor and the published references. ``greedy-plain`` (random ties, first
click included), ``greedy-opening`` (known-best first click, random ties),
``greedy-zero`` (ties to the likeliest zero) and ``greedy`` (ties by one-step
look-ahead for progress) split what the opening and each tie-break are worth.

Run: ``.venv/bin/python benchmarks/baselines.py`` (``--help`` for options);
about 20 minutes on 2 free cores with the defaults.
"""

from __future__ import annotations

import argparse
import time

from semiautomines_agents.evaluation import Settings, board_target, evaluate, markdown_table

TARGETS = {
    ("safe", "beginner"): 0.90,
    ("safe", "intermediate"): 0.76,
    ("safe", "expert"): 0.38,
    ("zero", "expert"): 0.50,
}
"""Greedy's floor: the plain lowest-probability player's figures."""

REFERENCES = {
    "safe": "Tu et al. (PSEQ, safe corner): 91.7 / 78.2 / 40.1%; DavidNHill's solver: expert 41%; "
    "plain lowest probability: expert ~38.6%",
    "zero": "Tu et al. (first click's neighbours safe): 97.2 / 89.1 / 53.5%; DavidNHill's solver "
    "at (3, 3): expert 54.3%; plain lowest probability: expert ~50.2%",
}
"""Published results on the same boards (beginner / intermediate / expert)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="games per agent and board")
    parser.add_argument(
        "--agents",
        default="greedy,greedy-zero,greedy-opening,greedy-plain",
        help="comma-separated agents",
    )
    parser.add_argument("--boards", default="beginner,intermediate,expert")
    parser.add_argument("--first-clicks", default="safe,zero", help="comma-separated policies")
    parser.add_argument("--rule-set", default="complete")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    agents = args.agents.split(",")
    targets = [board_target(name) for name in args.boards.split(",")]
    for policy in args.first_clicks.split(","):
        settings = Settings(args.rule_set, policy, args.seed)
        start = time.perf_counter()
        run = evaluate(agents, targets, settings, args.games, workers=args.workers)
        wall = time.perf_counter() - start
        print(f"\n## rule set {args.rule_set}, first click {policy}, seed {args.seed}")
        print(f"{run.played_games} games in {wall:.0f} s wall, {args.workers} workers")
        print(markdown_table(run.rows))
        for row in run.rows:
            target = TARGETS.get((policy, row["board"]))
            if row["agent"] == "greedy" and target is not None:
                verdict = "meets" if row["win_rate"] >= target else "MISSES"
                interval = f"{100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%"
                print(
                    f"greedy {row['board']}: {100 * row['win_rate']:.1f}% ({interval}) "
                    f"{verdict} the target {100 * target:.0f}%"
                )
        print(f"references: {REFERENCES.get(policy, 'none')}")
        if run.interrupted:
            print("interrupted: the figures above are partial")
            break


if __name__ == "__main__":
    main()
