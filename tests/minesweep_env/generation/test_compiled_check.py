"""The generator's compiled check gives the Python check's verdict, layout by layout.

Once the kernels are loaded, :func:`~minesweep_env.generation.generator_check.solvable`
plays its cheap rules through ``generator_check_compiled.settle``
(:mod:`minesweep_env.generation.compiled_check`); with them not loaded it plays
them in Python. Either way the no-guess generator must accept the same layouts,
or a seed would make another map. Both paths are run here on random layouts of
the generator's kind (solvable and not) and on layouts with mines anywhere, and
a whole seeded generation is compared.
"""

from __future__ import annotations

import numpy as np
import pytest

from minesweep_env import compiled
from minesweep_env.generation import generator_check
from minesweep_env.generation.compiled_check import solvable_compiled
from minesweep_env.generation.no_guess import draw_outside_zone, generate_no_guess
from minesweep_env.solver.registry import get_rule_set

BOARDS = [((30, 16, 99), (0, 0)), ((30, 16, 99), (15, 8)), ((16, 16, 40), (0, 15)),
          ((9, 9, 10), (4, 4)), ((8, 8, 16), (7, 0))]


@pytest.fixture(autouse=True)
def _compiled() -> None:
    if not compiled.ready():
        pytest.skip("the compiled kernels are not loaded")
    assert generator_check._use_compiled()  # loaded: ``solvable`` takes the compiled path


def _python_verdict(monkeypatch: pytest.MonkeyPatch, mines: np.ndarray, start, rules) -> bool:
    with monkeypatch.context() as patch:
        patch.setattr(generator_check, "_use_compiled", lambda: False)
        return generator_check.solvable(mines, start, rules)


@pytest.mark.parametrize("rule_set", ["substitution", "complete"])
@pytest.mark.parametrize(("board", "start"), BOARDS)
def test_same_verdict_on_generator_layouts(monkeypatch, rule_set, board, start) -> None:
    rules = get_rule_set(rule_set)
    width, height, mines = board
    rng = np.random.default_rng([21, width, height, start[0], start[1]])
    verdicts = []
    for _ in range(60 if rule_set == "substitution" else 20):
        layout = draw_outside_zone(width, height, mines, start, rng)
        expected = _python_verdict(monkeypatch, layout, start, rules)
        # Called directly: the early rejections of ``solvable`` would hide most failures.
        assert solvable_compiled(layout, start, rules) == expected, layout.tolist()
        assert generator_check.solvable(layout, start, rules) == expected
        verdicts.append(expected)
    # Both answers occur, so the comparison could fail either way.
    assert any(verdicts) and not all(verdicts)


@pytest.mark.parametrize("rule_set", ["substitution", "complete"])
def test_same_verdict_with_mines_anywhere(monkeypatch, rule_set) -> None:
    """Starts on a number (and mines next to the start) take other paths through the play."""
    rules = get_rule_set(rule_set)
    rng = np.random.default_rng(2121)
    for _ in range(80):
        width, height = int(rng.integers(4, 12)), int(rng.integers(4, 12))
        layout = rng.random((height, width)) < rng.uniform(0.05, 0.3)
        start = (int(rng.integers(width)), int(rng.integers(height)))
        if layout[start[1], start[0]]:
            continue
        expected = _python_verdict(monkeypatch, layout, start, rules)
        assert solvable_compiled(layout, start, rules) == expected, (start, layout.tolist())


def test_generation_is_the_same_map(monkeypatch) -> None:
    """A seeded expert generation from the corner gives the same map on both paths."""
    for seed in range(6):
        fast = generate_no_guess(30, 16, 99, np.random.default_rng([0, seed]), (0, 0))
        with monkeypatch.context() as patch:
            patch.setattr(generator_check, "_use_compiled", lambda: False)
            slow = generate_no_guess(30, 16, 99, np.random.default_rng([0, seed]), (0, 0))
        assert fast.draws == slow.draws
        assert np.array_equal(fast.layout.mines, slow.layout.mines)
        assert np.array_equal(fast.layout.priorities, slow.layout.priorities)


def test_python_first_unless_loaded(monkeypatch) -> None:
    """A fresh process checks COMPILE_AFTER layouts in Python before it loads the kernels
    (a short run would not pay the load); kernels already loaded are used at once."""
    monkeypatch.setattr(generator_check, "kernels_loaded", lambda: False)
    asked: list[int] = []
    monkeypatch.setattr(generator_check, "kernels_ready", lambda: bool(asked.append(1)))
    monkeypatch.setattr(generator_check, "_checked_in_python", 0)
    for _ in range(generator_check.COMPILE_AFTER):
        assert not generator_check._use_compiled()
    assert not asked
    assert not generator_check._use_compiled()  # asked now; the stub says "not loaded"
    assert asked
    monkeypatch.setattr(generator_check, "kernels_loaded", lambda: True)
    assert generator_check._use_compiled()
