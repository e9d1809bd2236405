"""An outcome read from the compiled count's groups answers as one read from the engine's
weights: the same progress, next-guess values, living cells and proven-safe cells."""

from __future__ import annotations

import numpy as np
import pytest
from positions import undecided_positions

from minesweep_env import compiled
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.probability import count_position
from semiautomines_agents.grouped_count import GroupedCount
from semiautomines_agents.search.lookahead import Outcome, outcomes


def _trial_positions() -> list:
    """Each number each covered cell of some small positions can show, as trial boards."""
    trials = []
    for board in undecided_positions(12, tries_per_position=40, flag_share=0.2):
        for cell in np.flatnonzero(board.grid.reshape(-1) == COVERED).tolist()[:4]:
            trials.extend(outcome.board for outcome in outcomes(board, cell))
    return trials


TRIALS = _trial_positions()


def _answers(outcome: Outcome) -> tuple:
    return (
        outcome.layouts,
        outcome.progress,
        outcome.secondary_safety(),
        outcome.must_guess,
        outcome.living_clears(),
        outcome.safe_cells(),
        outcome.next_guesses(4),
        outcome.best_safety(),
    )


@pytest.mark.parametrize("case", range(len(TRIALS)))
def test_an_outcome_from_groups_answers_as_one_from_weights(case):
    board = TRIALS[case]
    assert compiled.ready()  # tests load the compiled path (conftest)
    from semiautomines_agents.float_weights import exact_groups

    grouped = exact_groups(board)
    if grouped is None:
        pytest.skip("the compiled count defers this position to the engine")
    assert isinstance(grouped, GroupedCount)
    from_groups = Outcome(-1, board, grouped)
    from_weights = Outcome(-1, board, count_position(board))
    assert _answers(from_groups) == _answers(from_weights)
    assert from_groups.weights.mine_weight == from_weights.weights.mine_weight


def test_the_trial_positions_include_progress_and_guesses():
    """The cases above are not all alike: some outcomes prove a cell safe, some do not."""
    progress = [Outcome(-1, b, count_position(b)).progress for b in TRIALS]
    assert len(TRIALS) > 30 and any(progress) and not all(progress)
