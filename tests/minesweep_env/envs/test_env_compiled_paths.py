"""The env's fast paths play exactly as the plain code they stand in for.

``Complete.probe_and_play_out`` (a probe, its flood and the auto-solver's rounds in
one compiled call) against ``Minefield.probe`` and then the compiled rounds;
``BoardBatch.start_random`` against a ``MineLayout`` started board by board;
:func:`adjacent_mine_counts` against counting each cell's neighbours; the
first-click shortcut against ``protect_first_click`` itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep_env import compiled
from minesweep_env.core.cells import (
    COVERED,
    adjacent_mine_counts,
    cell_coordinates,
    covered_view,
    neighbour_table,
)
from minesweep_env.core.first_click import DeferredGenerator, FirstClick, protect_first_click
from minesweep_env.core.layout import MineLayout
from minesweep_env.core.minefield import Minefield, WinRule
from minesweep_env.envs.board_batch import BoardBatch
from minesweep_env.envs.observations import encode_grid, encode_planes
from minesweep_env.game import Game
from minesweep_env.solver.rules.complete import Complete


class _ProbeThenRounds(Complete):
    """``complete`` without the fused call: the probe in Python, then the compiled rounds."""

    def probe_and_play_out(self, minefield, x, y):
        return None


@pytest.fixture(autouse=True)
def _compiled() -> None:
    if not compiled.ready():
        pytest.skip("the compiled kernels are not loaded")


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20)]),
    st.sampled_from(list(FirstClick)),
    st.sampled_from(list(WinRule)),
)
def test_the_fused_probe_plays_as_probe_then_rounds(seed, size, first_click, win_rule) -> None:
    """Same views, states, counts, and the cells opened and flagged in the same order."""
    width, height, mines = size
    rng = np.random.default_rng(seed)
    for _ in range(2):
        layout = MineLayout.random(width, height, mines, rng)
        games = [
            Game(layout, rules, first_click, seed=seed, win_rule=win_rule)
            for rules in (Complete(), _ProbeThenRounds())
        ]
        fused, plain = games
        while fused.state == "playing":
            covered = np.flatnonzero(fused.view.reshape(-1) == COVERED)
            cell = int(covered[rng.integers(len(covered))])
            for game in games:
                game.probe(cell % width, cell // width)
            assert np.array_equal(fused.view, plain.view)
            assert fused.state == plain.state
            assert fused.layout == plain.layout
            assert fused.minefield.safe_cells_left == plain.minefield.safe_cells_left
            assert fused.minefield.probes == plain.minefield.probes
            assert fused.minefield.exploded == plain.minefield.exploded
            assert fused.last_opened == plain.last_opened
            assert fused.last_flagged == plain.last_flagged
        assert plain.state == fused.state


def test_the_fused_probe_hands_out_the_settled_probabilities() -> None:
    """After a fused probe, ``known_probabilities`` of the position are the full count's."""
    rules = Complete()
    rng = np.random.default_rng(3)
    game = Game(MineLayout.random(30, 16, 99, rng), rules, "safe", seed=3)
    game.probe(15, 8)
    if game.state != "playing":
        pytest.skip("the first probe ended this game")
    plane = rules.known_probabilities(game.minefield.board())
    assert plane is not None
    covered = game.view == COVERED
    assert ((plane[covered] > 0) & (plane[covered] < 1)).all()  # all proven cells are played


@pytest.mark.parametrize("policy", list(FirstClick))
def test_the_first_click_shortcut_moves_and_draws_as_the_policy(policy) -> None:
    """``apply_first_click`` leaves the mines and the generator as ``protect_first_click``."""
    for seed in range(40):
        layout = MineLayout.random(9, 9, 30, np.random.default_rng(seed))
        cell = seed % 81
        x, y = cell % 9, cell // 9
        field = Minefield(layout, policy, np.random.default_rng(seed))
        field.apply_first_click(x, y)
        rng = np.random.default_rng(seed)
        expected = protect_first_click(layout.mines, x, y, policy, rng)
        assert np.array_equal(field.layout.mines, expected)
        assert field.layout.priorities is layout.priorities
        assert field._rng.bit_generator.state == rng.bit_generator.state


@pytest.mark.parametrize("size", [(9, 9, 10), (30, 16, 99), (1, 7, 3), (5, 1, 2)])
def test_batched_starts_equal_layouts_started_one_by_one(size) -> None:
    width, height, mines = size
    rng = np.random.default_rng(1)
    priorities = np.array([rng.permutation(width * height) for _ in range(3)])
    batch = BoardBatch(4, width, height, FirstClick.SAFE, WinRule.SAFE_CELLS_OPENED)
    batch.start_random(np.array([0, 2, 3]), priorities, mines, [rng] * 3)
    for board, order in zip((0, 2, 3), priorities, strict=True):
        layout = MineLayout.from_priorities(order.reshape(height, width), mines)
        single = BoardBatch(1, width, height, FirstClick.SAFE, WinRule.SAFE_CELLS_OPENED)
        single.start(0, layout, rng)
        assert batch.layouts[board] == layout
        assert np.array_equal(batch.mines[board], single.mines[0])
        assert np.array_equal(batch.numbers[board], single.numbers[0])
        assert batch.safe_left[board] == single.safe_left[0]
        assert batch.mine_count[board] == single.mine_count[0]


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_mine_numbers_count_the_neighbours(width, height, seed) -> None:
    """One board or a stack of them: each cell counts the mines of its neighbours."""
    mines = np.random.default_rng(seed).random((3, height, width)) < 0.4
    stacked = adjacent_mine_counts(mines)
    assert stacked.dtype == np.int8 and stacked.shape == mines.shape
    table = neighbour_table(width, height)
    for board in range(3):
        flat = mines[board].reshape(-1)
        expected = [sum(bool(flat[n]) for n in table[cell]) for cell in range(width * height)]
        single = adjacent_mine_counts(mines[board])
        assert single.flags.c_contiguous
        assert single.reshape(-1).tolist() == expected
        assert np.array_equal(stacked[board], single)


def test_cell_coordinates_name_every_flat_index() -> None:
    assert cell_coordinates(3, 2) == ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1))


@pytest.mark.parametrize("policy", list(FirstClick))
def test_a_deferred_generator_is_made_only_when_the_first_click_draws(policy) -> None:
    """A DeferredGenerator in place of the generator: made when the first-click policy
    draws (under "zero" whenever a mine lies in the zone; under "safe" only through
    choose_one), never otherwise; the game is the one an eager generator plays."""
    for seed in range(40):
        layout = MineLayout.random(9, 9, 30, np.random.default_rng(seed))
        cell = seed % 81
        x, y = cell % 9, cell // 9
        calls: list[int] = []

        def make(seed=seed, calls=calls):
            calls.append(seed)
            return np.random.default_rng(seed)

        lazy = Game(layout, "complete", policy, seed=DeferredGenerator(make))
        eager = Game(layout, "complete", policy, seed=np.random.default_rng(seed))
        assert calls == []
        lazy.probe(x, y)
        eager.probe(x, y)
        zone = [cell, *neighbour_table(9, 9)[cell]] if policy is FirstClick.ZERO else [cell]
        moving = policy in (FirstClick.SAFE, FirstClick.ZERO)
        draws = moving and layout.mines.reshape(-1)[zone].any()
        assert calls == ([seed] if draws else [])
        assert lazy.layout == eager.layout
        assert np.array_equal(lazy.view, eager.view)
        lazy.probe(0, 0)  # no later probe draws
        assert len(calls) <= 1


@pytest.mark.parametrize("options", [False, True])
def test_the_env_first_click_draws_from_default_rng_of_its_layout_seed(options) -> None:
    """A mine under the env's first click moves as ``default_rng(layout_seed)`` moves it
    after drawing the layout, whether the generator was restated from the compiled draw
    (random layouts) or made when asked (a given layout)."""
    import gymnasium as gym

    from minesweep_env.envs.semi_auto_mines import draw_layout_seed

    env = gym.make("SemiAutoMines-v0", board="beginner", first_click="safe")
    moved = 0
    for seed in range(60):
        layout_seed = draw_layout_seed(gym.utils.seeding.np_random(seed)[0])
        rng = np.random.default_rng(layout_seed)
        layout = MineLayout.random(9, 9, 10, rng)
        if options:
            env.reset(seed=seed, options={"layout": layout})
            rng = np.random.default_rng(layout_seed)
        else:
            _, info = env.reset(seed=seed)
            assert info["layout_seed"] == layout_seed
            assert env.unwrapped.game.layout == layout
        cell = int(np.flatnonzero(layout.mines)[seed % 10])  # always a mine
        expected = Game(layout, "complete", "safe", seed=rng)
        expected.probe(cell % 9, cell // 9)
        env.step(cell)
        game = env.unwrapped.game
        assert game.layout == expected.layout
        assert np.array_equal(game.view, expected.view)
        moved += game.layout != layout
    assert moved == 60


def test_the_generator_state_words_are_the_kernels() -> None:
    from minesweep_env.envs.layout_generator import STATE_WORDS as ENV_STATE_WORDS
    from minesweep_env.envs.layout_generator_compiled import STATE_WORDS

    assert ENV_STATE_WORDS == STATE_WORDS


@pytest.mark.parametrize("obs_mode", ["planes", "grid", "planes+probabilities"])
def test_a_new_game_shows_fresh_covered_arrays(obs_mode) -> None:
    """reset's observation and mask (copies of kept arrays in "planes" mode) are the
    encoded covered view, all valid, and fresh: changing them changes no later reset."""
    import gymnasium as gym

    from minesweep_env.envs.observations import encode_planes_with_probabilities

    env = gym.make("SemiAutoMines-v0", board="8x6x5", obs_mode=obs_mode)
    encoders = {
        "planes": encode_planes,
        "grid": encode_grid,
        "planes+probabilities": lambda v: encode_planes_with_probabilities(v, np.zeros(v.shape)),
    }
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        assert np.array_equal(observation, encoders[obs_mode](covered_view(8, 6)))
        assert observation.dtype == env.observation_space.dtype
        assert info["action_mask"].dtype == bool and info["action_mask"].all()
        assert info["action_mask"].shape == (48,)
        observation[...] = 0
        info["action_mask"][:] = False
        env.step(int(np.flatnonzero(env.unwrapped.game.layout.mines.reshape(-1) == 0)[0]))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_the_compiled_view_encoding_is_the_numpy_one(width, height, seed) -> None:
    """Planes and mask of any view, codes no plane shows (KNOWN_SAFE, stray bytes) included."""
    from minesweep_env.envs.observations_compiled import PLANES, encode_view_into

    view = np.random.default_rng(seed).integers(-4, 10, (height, width)).astype(np.int8)
    planes = np.full((PLANES, height, width), 7, np.uint8)
    mask = np.zeros(width * height, bool)
    encode_view_into(view.reshape(-1), planes, mask)
    assert np.array_equal(planes, encode_planes(view))
    assert np.array_equal(mask, view.reshape(-1) == COVERED)


@pytest.mark.parametrize("board", ["beginner", "expert"])
def test_the_env_steps_show_the_encoded_view_and_its_mask(board) -> None:
    """Each step's observation and mask (one compiled pass) are ``encode_planes`` of the view
    and its covered cells, all valid once the game is over; fresh arrays every step."""
    import gymnasium as gym

    env = gym.make("SemiAutoMines-v0", board=board)
    rng = np.random.default_rng(3)
    shown = []
    for seed in range(6):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            valid = np.flatnonzero(info["action_mask"])
            observation, _, terminated, truncated, info = env.step(valid[rng.integers(len(valid))])
            game = env.unwrapped.game
            assert np.array_equal(observation, encode_planes(game.view))
            playing = game.state == "playing"
            want = game.view.reshape(-1) == COVERED if playing else np.ones(game.view.size, bool)
            assert np.array_equal(info["action_mask"], want)
            assert np.array_equal(env.unwrapped.action_masks(), want)
            shown.append((observation, info["action_mask"]))
            done = terminated or truncated
    # Every step handed out arrays of its own.
    assert len({id(observation) for observation, _ in shown}) == len(shown)
    assert len({id(mask) for _, mask in shown}) == len(shown)
