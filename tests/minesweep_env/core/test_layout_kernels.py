"""The compiled new games draw exactly what ``np.random.default_rng(seed)`` draws.

:func:`layout_generator_compiled.layouts_from_seeds` stands in for ``MineLayout.random(W, H,
mines, np.random.default_rng(seed))`` in both envs: the same priorities, mines and
numbers, and the generator left in the same state (the first-click policy draws on
from it). Checked against numpy itself, so a numpy that changed its streams fails
here rather than changing games quietly; and the envs' layouts and first clicks
against the plain ``default_rng`` route, and :func:`layout_generator_compiled.choose_one` (a
mine moved off a ``safe`` first click without a generator) against numpy's ``choice``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env import compiled
from minesweep_env.core.first_click import FirstClick, protect_first_click
from minesweep_env.core.layout import MineLayout


@pytest.fixture(autouse=True)
def _compiled() -> None:
    if not compiled.ready():
        pytest.skip("the compiled kernels are not loaded")


def _draw(seeds: list[int], width: int, height: int, mines: int):
    from minesweep_env.envs import layout_generator_compiled as layout_kernels

    count, cells = len(seeds), width * height
    priorities = np.empty((count, cells), np.int64)
    mine_rows = np.empty((count, cells), bool)
    numbers = np.empty((count, cells), np.int8)
    states = np.empty((count, layout_kernels.STATE_WORDS), np.uint64)
    layout_kernels.layouts_from_seeds(
        np.array(seeds, np.int64), mines, height, width, priorities, mine_rows, numbers, states
    )
    return priorities, mine_rows, numbers, [layout_kernels.generator_state(row) for row in states]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(0, 2**32 - 1), st.integers(2**32, 2**63 - 1), st.just(0)),
        min_size=1,
        max_size=4,
    ),
    # 64 and 65 cells: the shuffle's rejection mask halves as its bound falls past 2**k.
    st.sampled_from(
        [(9, 9, 10), (16, 16, 40), (30, 16, 99), (1, 1, 0), (2, 1, 1), (5, 3, 15), (8, 8, 10),
         (13, 5, 20)]
    ),
)
def test_layouts_and_generator_states_are_numpys(seeds, size) -> None:
    """Seeds of one and of two 32-bit words (``SeedSequence`` hashes them differently)."""
    width, height, mines = size
    priorities, mine_rows, numbers, states = _draw(seeds, width, height, mines)
    for k, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        layout = MineLayout.random(width, height, mines, rng)
        assert priorities[k].tolist() == layout.priorities.reshape(-1).tolist()
        assert mine_rows[k].tolist() == layout.mines.reshape(-1).tolist()
        assert numbers[k].tolist() == layout.numbers.reshape(-1).tolist()
        assert states[k] == rng.bit_generator.state
        # And the generator draws on as numpy's does.
        restated = np.random.default_rng(1)
        restated.bit_generator.state = states[k]
        assert restated.integers(1000, size=5).tolist() == rng.integers(1000, size=5).tolist()


@pytest.mark.parametrize("board", ["beginner", "expert"])
def test_the_env_plays_the_layouts_and_first_clicks_of_default_rng(board) -> None:
    """Games whose first click is on a mine too: ``safe`` moves it with the game's generator."""
    env = gym.make("SemiAutoMines-v0", board=board, rule_set="complete")
    width, height = env.unwrapped.width, env.unwrapped.height
    moved = 0
    for seed in range(40):
        _, info = env.reset(seed=seed)
        game = env.unwrapped.game
        rng = np.random.default_rng(info["layout_seed"])
        expected = MineLayout.random(width, height, env.unwrapped.mines, rng)
        assert game.layout == expected
        mine_cells = np.flatnonzero(expected.mines.reshape(-1))
        cell = int(mine_cells[seed % len(mine_cells)])  # a first click on a mine
        env.step(cell)
        assert game.state != "lost"
        x, y = cell % width, cell // width
        after = protect_first_click(expected.mines, x, y, FirstClick.SAFE, rng)
        assert (game.layout.mines == after).all()
        moved += not np.array_equal(after, expected.mines)
    assert moved > 0


def test_the_vector_env_plays_the_single_envs_first_clicks_on_mines() -> None:
    """Every board's first click on a mine: the lazily made generators draw as the env's."""
    envs = gym.make_vec(
        "SemiAutoMines-v0", num_envs=4, vectorization_mode="vector_entry_point", board="expert"
    )
    _, infos = envs.reset(seed=3)
    seeds = infos["layout_seed"]
    actions = []
    for seed in seeds:
        layout = MineLayout.random(30, 16, 99, np.random.default_rng(int(seed)))
        actions.append(int(np.flatnonzero(layout.mines.reshape(-1))[0]))
    envs.step(np.array(actions))
    for board, seed in enumerate(seeds):
        rng = np.random.default_rng(int(seed))
        layout = MineLayout.random(30, 16, 99, rng)
        cell = actions[board]
        expected = protect_first_click(layout.mines, cell % 30, cell // 30, FirstClick.SAFE, rng)
        assert (envs.unwrapped.boards.layout(board).mines == expected).all()


def _words(state: dict) -> np.ndarray:
    """A PCG64 ``bit_generator.state`` as the kernels' state words (generator_state's inverse)."""
    inner = state["state"]
    mask = 2**64 - 1
    return np.array(
        [
            inner["state"] >> 64,
            inner["state"] & mask,
            inner["inc"] >> 64,
            inner["inc"] & mask,
            state["has_uint32"],
            state["uinteger"],
        ],
        np.uint64,
    )


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**63 - 1),
    st.one_of(
        st.integers(1, 2**20),
        st.integers(2**31, 2**32 - 1),  # Lemire rejects up to half the draws here
        st.sampled_from([1, 2, 3, 71, 381, 2**32 - 1]),
    ),
    st.integers(0, 3),
)
def test_choose_one_is_numpys_choice(seed, count, earlier) -> None:
    """From any state (a 32-bit half kept or not, after ``earlier`` draws): the item
    ``choice(count, size=1, replace=False)`` and ``choice(free, ...)`` pick."""
    from minesweep_env.envs.layout_generator_compiled import choose_one, choose_one_compiled

    rng = np.random.default_rng(seed)
    for _ in range(earlier):
        rng.choice(1000, size=1, replace=False)
    words = _words(rng.bit_generator.state)
    ours = choose_one(words, count)
    assert choose_one_compiled(words, count) == ours  # the vector env's batched step's
    again = np.random.default_rng(1)
    again.bit_generator.state = rng.bit_generator.state
    assert ours == int(rng.choice(count, size=1, replace=False)[0])
    if count <= 2**20:
        free = np.arange(count) * 3 + 1
        assert free[ours] == again.choice(free, size=1, replace=False)[0]


def test_choose_one_refuses_counts_out_of_its_range() -> None:
    from minesweep_env.envs.layout_generator_compiled import STATE_WORDS, choose_one

    for count in (0, 2**32):
        with pytest.raises(ValueError):
            choose_one(np.zeros(STATE_WORDS, np.uint64), count)
