"""What a larger exact endgame could win: where the search agent's losses come from.

Plays the default ``search`` agent on seeded games (rule set ``complete``, the
harness's games) and prints two tables:

1. Every guess the agent makes (a probe not proven safe, the first click
   aside), by the decade of its position's layout count: how many guesses, and
   the losses they are expected to cost (the chosen cell's mine probability,
   summed). This says how much of the losing is left at each size, hence the
   most that solving positions of that size exactly could win back.
2. Every guess position with more layouts than the agent solves exactly
   (``ENDGAME_LAYOUTS``) and at most ``--limit``: the exact win probability of
   the best probe (:class:`semiautomines_agents.search.endgame.Endgame`, work
   budget ``--budget``) against that of the agent's own probe followed by
   perfect play. Their difference, summed and divided by the games, estimates
   what raising the threshold to ``--limit`` adds to the win rate (the agent
   below the threshold plays exactly already, so what it loses after its probe
   is mostly what perfect play would lose too).

It measures positions, not outcomes: a paired game screen
(``benchmarks/variants.py``) of a threshold that changes a few hundredths of a
point cannot resolve it, while this reads the exact win probabilities. Times
are process CPU of each exact solve (listing the layouts included).

Run: ``PYTHONPATH=. python benchmarks/endgame_gain.py --board beginner --games 5000``
(``--limit``, ``--budget``: the largest position solved and the solver's work budget).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from minesweep_env.core.board import Board
from minesweep_env.solver.probability import Weights, count_position
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.evaluation.play import Chunk, make_env, play_game
from semiautomines_agents.search.agent import Advice, SearchAgent
from semiautomines_agents.search.endgame import Endgame, Layouts, TooMuchWork


@dataclass
class Tally:
    """What the recording agent saw."""

    guesses: Counter[int] = field(default_factory=Counter)
    """Guesses per decade of layouts."""
    losses: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    """Expected losses (mine probability of the chosen cell) per decade."""
    solved: int = 0
    gave_up: int = 0
    other_cell: int = 0
    """Solved positions where the exact best probe is not the agent's cell."""
    gain: float = 0.0
    """Summed win probability the exact probe adds over the agent's."""
    slowest: float = 0.0
    rows: list[str] = field(default_factory=list)


class RecordingSearch(SearchAgent):
    """The default search agent, noting each guess (its choices are unchanged)."""

    def __init__(self, tally: Tally, limit: int, budget: int):
        super().__init__()
        self.tally, self.limit, self.budget = tally, limit, budget
        self.game = -1

    def advise(
        self,
        board: Board,
        valid: np.ndarray | None = None,
        weights: Weights | None = None,
        *,
        every: bool = True,
    ) -> Advice:
        advice = super().advise(board, valid, weights, every=every)
        if advice.reason in ("safe", "opening"):
            return advice
        weights = weights if weights is not None else count_position(board)
        decade = int(math.log10(weights.layouts))
        self.tally.guesses[decade] += 1
        self.tally.losses[decade] += 1.0 - advice.safety
        if weights.mines_left is not None and self.endgame_layouts < weights.layouts <= self.limit:
            self._compare(board, weights.layouts, advice.cell)
        return advice

    def _compare(self, board: Board, count: int, cell: int) -> None:
        """The exact best probe's win probability against the agent's cell's."""
        start = time.process_time()
        layouts = Layouts(board, self.limit)
        endgame = Endgame(layouts, self.budget)
        try:
            best_cell, best = endgame.best_probe()
            mine = (
                best
                if best_cell == cell
                else endgame.probe_value(layouts.masks, layouts.cells.index(cell))
            )
        except TooMuchWork:
            self.tally.gave_up += 1
            self.tally.rows.append(f"| {self.game} | {count} | gave up | | | |")
            return
        spent = time.process_time() - start
        tally = self.tally
        tally.solved += 1
        tally.other_cell += best_cell != cell
        tally.gain += best - mine
        tally.slowest = max(tally.slowest, spent)
        tally.rows.append(
            f"| {self.game} | {count} | {best:.4f} | {mine:.4f} | {best - mine:+.4f} "
            f"| {1000 * spent:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="beginner")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--limit", type=int, default=100_000, help="largest position solved")
    parser.add_argument("--budget", type=float, default=3e7, help="exact solver work budget")
    args = parser.parse_args()
    tally = Tally()
    agent = RecordingSearch(tally, args.limit, int(args.budget))
    target = board_target(args.board)
    settings = Settings("complete", args.first_click, args.seed)
    env = make_env(target, settings, agent.obs_mode)
    won = 0
    for index in range(args.first_game, args.first_game + args.games):
        agent.game = index
        won += play_game(env, agent, Chunk("search", target, (index,), settings), index).won
    games = args.games
    total = sum(tally.losses.values())
    print(
        f"{args.board}, first click {args.first_click}, games {args.first_game}-"
        f"{args.first_game + games - 1}: won {won} ({100 * won / games:.2f}%), "
        f"expected losses at guesses {total:.1f}\n"
    )
    print("| layouts | guesses | expected losses | share of the losses |")
    print("|---|---:|---:|---:|")
    for decade in sorted(tally.guesses):
        print(
            f"| 10^{decade}-10^{decade + 1} | {tally.guesses[decade]} "
            f"| {tally.losses[decade]:.1f} | {100 * tally.losses[decade] / total:.1f}% |"
        )
    window = f"{agent.endgame_layouts + 1}-{args.limit}"
    print(f"\nPositions of {window} layouts, budget {args.budget:g}:\n")
    print("| game | layouts | exact best | agent's probe, then exact | gain | ms CPU |")
    print("|---:|---:|---:|---:|---:|---:|")
    print("\n".join(tally.rows))
    print(
        f"\nsolved {tally.solved}, gave up {tally.gave_up}, another cell {tally.other_cell}; "
        f"summed gain {tally.gain:.4f} = {100 * tally.gain / games:+.4f} points of win rate "
        f"over {games} games; slowest solve {tally.slowest:.2f} s"
    )


if __name__ == "__main__":
    main()
