"""The native vector env plays exactly as a sync vector env of the single env, faster.

The equivalence tests step both with the same seed and the same actions (drawn
from the masks, with some invalid actions mixed in) through hundreds of steps
and autoresets, and compare everything they return.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from paths import REPO

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env import FirstClick, Minefield, MineLayout
from minesweep_env.envs.board_batch import neighbour_array, open_cells
from minesweep_env.envs.vector import SemiAutoMinesVectorEnv

MAPS = REPO / "maps"

STEP_KEYS = ("opened", "flagged", "mine_probability", "invalid_action")


def make_pair(num_envs: int, **kwargs):
    sync = gym.make_vec("SemiAutoMines-v0", num_envs=num_envs, vectorization_mode="sync", **kwargs)
    native = gym.make_vec(
        "SemiAutoMines-v0", num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )
    return sync, native


def same_value(a, b) -> bool:
    if isinstance(a, list):  # opened / flagged: the same cells, the order may differ
        return sorted(a) == sorted(b)
    if isinstance(a, float) and np.isnan(a):
        return isinstance(b, float) and np.isnan(b)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def assert_same_infos(expected: dict, actual: dict) -> None:
    assert set(expected) == set(actual)
    for key, values in expected.items():
        if key.startswith("_"):
            assert np.array_equal(values, actual[key]), key
        elif key == "final_info":
            assert_same_infos(values, actual[key])
        else:
            for i in np.flatnonzero(expected[f"_{key}"]):
                assert same_value(values[i], actual[key][i]), (key, i, values[i], actual[key][i])


def play_both(sync, native, steps: int, seed: int, invalid_share: float = 0.1) -> dict:
    """Step both envs alike; assert every output agrees; return what was seen."""
    rng = np.random.default_rng(seed)
    obs_a, info_a = sync.reset(seed=seed)
    obs_b, info_b = native.reset(seed=seed)
    assert obs_a.dtype == obs_b.dtype and np.array_equal(obs_a, obs_b)
    assert_same_infos(info_a, info_b)
    seen = {"won": 0, "lost": 0, "invalid": 0, "truncated": 0, "autoresets": 0}
    for _ in range(steps):
        masks = info_a["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        wild = rng.random(len(actions)) < invalid_share
        actions[wild] = rng.integers(masks.shape[1], size=int(wild.sum()))
        obs_a, rew_a, term_a, trunc_a, info_a = sync.step(actions)
        obs_b, rew_b, term_b, trunc_b, info_b = native.step(actions)
        assert np.array_equal(obs_a, obs_b)
        assert np.array_equal(rew_a, rew_b) and rew_b.dtype == np.float64
        assert np.array_equal(term_a, term_b) and np.array_equal(trunc_a, trunc_b)
        assert np.array_equal(info_a["action_mask"], native.unwrapped.action_masks())
        assert_same_infos(info_a, info_b)
        done = term_a | trunc_a
        seen["won"] += int((term_a & (info_a["state"] == "won")).sum())
        seen["lost"] += int((term_a & (info_a["state"] == "lost")).sum())
        seen["truncated"] += int(trunc_a.sum())
        seen["autoresets"] += int(done.sum())
        if "invalid_action" in info_a:
            seen["invalid"] += int((info_a["invalid_action"] & info_a["_invalid_action"]).sum())
    return seen


@pytest.mark.parametrize("rule_set", ["complete", "endoh"])
def test_same_as_sync_on_beginner(rule_set):
    sync, native = make_pair(6, rule_set=rule_set)
    seen = play_both(sync, native, steps=300, seed=11, invalid_share=0.5)
    assert seen["won"] > 5 and seen["lost"] > 5 and seen["invalid"] > 20


@pytest.mark.parametrize("rule_set", ["complete", "endoh"])
def test_same_as_sync_on_a_small_board_with_progress_rewards_and_truncation(rule_set):
    # max_steps=4 truncates games kept alive by invalid actions.
    sync, native = make_pair(
        5,
        width=6,
        height=5,
        mines=6,
        rule_set=rule_set,
        reward="progress",
        first_click="endoh",
        max_steps=4,
    )
    seen = play_both(sync, native, steps=300, seed=3, invalid_share=0.4)
    assert seen["won"] > 5 and seen["lost"] > 5 and seen["truncated"] > 5


@pytest.mark.parametrize("obs_mode", ["grid", "planes+probabilities"])
def test_same_as_sync_in_other_observation_modes(obs_mode):
    sync, native = make_pair(4, obs_mode=obs_mode, first_click="none", board="intermediate")
    seen = play_both(sync, native, steps=60, seed=2)
    assert seen["autoresets"] > 4


def test_same_as_sync_on_maps_with_endoh_alt():
    # endoh-alt's own win rule can leave the game going with every safe cell open.
    sync, native = make_pair(4, maps=MAPS / "suites" / "beginner", rule_set="endoh-alt")
    seen = play_both(sync, native, steps=150, seed=8)
    assert seen["won"] > 3


def test_same_as_sync_on_expert_without_probabilities():
    sync, native = make_pair(3, board="expert", info_probability=False)
    play_both(sync, native, steps=40, seed=4)


def test_same_step_autoreset_matches_sync():
    kwargs = {"num_envs": 4, "rule_set": "endoh"}
    sync = gym.make_vec(
        "SemiAutoMines-v0",
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
        **kwargs,
    )
    native = gym.make_vec(
        "SemiAutoMines-v0",
        vectorization_mode="vector_entry_point",
        autoreset_mode=AutoresetMode.SAME_STEP,
        **kwargs,
    )
    assert native.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    seen = play_both(sync, native, steps=120, seed=6)
    assert seen["autoresets"] > 10


def test_seeds_give_the_sync_layouts_board_by_board():
    sync, native = make_pair(3, board="expert")
    sync.reset(seed=[7, None, 9])
    native.reset(seed=[7, None, 9])
    seeds_a = [env.unwrapped.layout_seed for env in sync.envs]
    seeds_b = list(native.unwrapped.layout_seed)
    assert seeds_a[0] == seeds_b[0] and seeds_a[2] == seeds_b[2]
    assert seeds_a[1] != seeds_b[1]  # unseeded: drawn from entropy on each side
    assert native.unwrapped.boards.layouts[0] == sync.envs[0].unwrapped.game.layout


def test_reset_mask_and_options_reset_only_the_masked_boards():
    _, native = make_pair(3)
    obs, _ = native.reset(seed=0)
    native.step(np.array([40, 40, 40]))
    layout = MineLayout.from_rows(["x" + "o" * 8] + ["o" * 9] * 8)
    mask = np.array([False, True, False])
    obs, infos = native.reset(options={"reset_mask": mask, "layout": layout})
    assert list(infos["_state"]) == [False, True, False]
    assert native.unwrapped.boards.layouts[1] == layout
    assert native.unwrapped.boards.view[1].tolist() == [-1] * 81
    assert (native.unwrapped.boards.view[[0, 2]] >= 0).any(axis=1).all()


def test_board_generators_pass_between_the_compiled_step_and_python(monkeypatch):
    """The compiled step draws the layout seeds from each board's generator held as words;
    a reset playing a map (a draw in Python) and a reseeding take the generator back, and
    the next compiled step takes it again: every game stays the Python path's, whose
    generators never leave numpy. (A sync env cannot batch these infos: a map's
    ``layout_seed`` None beside a random game's int.)"""
    from minesweep_env.compiled import python_only, ready

    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    compiled, python = (
        gym.make_vec("SemiAutoMines-v0", num_envs=4, vectorization_mode="vector_entry_point")
        for _ in range(2)
    )

    def both(call):
        a = call(compiled)
        with python_only():
            b = call(python)
        for value_a, value_b in zip(a, b, strict=True):
            if isinstance(value_a, dict):
                # The compiled floats are the exact ones within 1e-12.
                key = "mine_probability"
                chances = value_a.pop(key, None), value_b.pop(key, None)
                assert (chances[0] is None) == (chances[1] is None)
                if chances[0] is not None:
                    assert np.allclose(*chances, atol=1e-12, equal_nan=True)
                assert_same_infos(value_a, value_b)
            else:
                assert np.array_equal(value_a, value_b)

    both(lambda env: env.reset(seed=21))
    rng = np.random.default_rng(22)
    mask = np.array([True, False, True, False])
    options = {"map": str(MAPS / "suites" / "beginner" / "beginner-001.txt")}
    for seed in (None, [None, 5, None, 6]):
        reset_options = {**options, "reset_mask": mask}
        both(lambda env, seed=seed, kept=reset_options: env.reset(seed=seed, options=dict(kept)))
        for _ in range(60):
            masks = compiled.unwrapped.action_masks()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            both(lambda env, actions=actions: env.step(actions))
        mask = ~mask
    assert compiled.unwrapped._step_arrays is not None  # the compiled steps ran


def test_draw_seed_is_numpys_raw_draw_shifted():
    """The compiled step's seed draw from a generator's words is ``draw_layout_seed``'s."""
    from minesweep_env.compiled import ready
    from minesweep_env.envs.semi_auto_mines import draw_layout_seed

    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    from minesweep_env.envs.board_batch_step_compiled import draw_seed

    for seed in (0, 1, 12345, 2**40 + 7):
        generator = np.random.default_rng(seed)
        generator.random(3)  # a state with a kept 32-bit half, which a raw draw leaves alone
        generator.integers(10, dtype=np.int32)
        state = generator.bit_generator.state["state"]
        low = 2**64 - 1
        words = np.array(
            [state["state"] >> 64, state["state"] & low, state["inc"] >> 64, state["inc"] & low],
            dtype=np.uint64,
        )
        for _ in range(5):
            assert draw_seed(words) == draw_layout_seed(generator)
        assert generator.bit_generator.state["state"]["state"] == (
            (int(words[0]) << 64) | int(words[1])
        )


def test_spaces_determinism_and_fresh_arrays():
    from gymnasium.utils.env_checker import data_equivalence

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # make_vec warns when autoreset metadata is missing
        envs = gym.make_vec("SemiAutoMines-v0", num_envs=5, board="expert")
    assert isinstance(envs, SemiAutoMinesVectorEnv)
    assert envs.spec is not None and envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.observation_space.shape == (5, 11, 16, 30)
    assert envs.single_action_space == gym.spaces.Discrete(480)
    assert envs.action_space == gym.spaces.MultiDiscrete([480] * 5)
    obs, infos = envs.reset(seed=1)
    assert obs in envs.observation_space
    assert infos["action_mask"].shape == (5, 480) and infos["action_mask"].all()
    again, again_infos = envs.reset(seed=1)
    assert data_equivalence(obs, again) and data_equivalence(infos, again_infos)
    assert again is not obs  # copy=True: a returned observation is never reused
    for _ in range(10):
        obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())
        assert obs in envs.observation_space
        assert rewards.shape == terminated.shape == truncated.shape == (5,)
    envs.close()


def test_bad_actions_and_arguments_are_refused():
    envs = SemiAutoMinesVectorEnv(num_envs=2)
    with pytest.raises(RuntimeError):
        envs.step(np.array([0, 0]))
    envs.reset(seed=0)
    with pytest.raises(ValueError):
        envs.step(np.array([0, 81]))
    with pytest.raises(ValueError):
        envs.step(np.array([0]))
    with pytest.raises(ValueError):
        SemiAutoMinesVectorEnv(num_envs=2, board="huge")
    with pytest.raises(ValueError):
        SemiAutoMinesVectorEnv(num_envs=2, autoreset_mode=AutoresetMode.DISABLED)


def test_copy_false_hands_out_the_buffer():
    envs = SemiAutoMinesVectorEnv(num_envs=2, copy=False)
    first, _ = envs.reset(seed=0)
    second, *_ = envs.step(np.array([40, 40]))
    assert first is second


def test_open_cells_opens_what_the_minefield_flood_opens():
    # 300 boards in one call, each against Minefield's own flood from one safe cell.
    rng = np.random.default_rng(0)
    width, height = 7, 6
    layouts = [MineLayout.random(width, height, int(rng.integers(1, 12)), rng) for _ in range(300)]
    starts = [int(rng.choice(np.flatnonzero(~layout.mines.reshape(-1)))) for layout in layouts]
    view = np.full((len(layouts), width * height), -1, dtype=np.int8)
    numbers = np.stack([layout.numbers.reshape(-1) for layout in layouts])
    boards = np.arange(len(layouts))
    opened = open_cells(view, numbers, neighbour_array(width, height), boards, np.array(starts))
    for k, (layout, start) in enumerate(zip(layouts, starts, strict=True)):
        minefield = Minefield(layout, FirstClick.NONE)
        assert opened[k] == len(minefield.probe(start % width, start // width))
        assert np.array_equal(view[k], minefield.view.reshape(-1))
    assert opened.max() > 10  # some floods went far


def test_open_cells_stops_at_flags_and_skips_open_seeds():
    layout = MineLayout.from_rows(["ooooo", "ooooo", "oooxx", "oooxo"])
    numbers = layout.numbers.reshape(1, -1)
    view = np.full((1, 20), -1, dtype=np.int8)
    view[0, 13] = -2  # the flag on (3, 2)
    # Two seeds on one board: the second lies in the first one's flood.
    opened = open_cells(view, numbers, neighbour_array(5, 4), np.array([0, 0]), np.array([0, 6]))
    expected = np.array(
        [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0]], dtype=bool
    ).reshape(-1)
    assert opened.tolist() == [expected.sum()]
    assert np.array_equal(view[0] >= 0, expected)
    assert view[0, 13] == -2 and view[0, 19] == -1


def test_sb3_vec_env_plays_the_games_of_a_dummy_vec_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import DummyVecEnv

    from minesweep_env.envs.sb3_vec import SemiAutoMinesSB3VecEnv

    kwargs = {"rule_set": "endoh", "reward": "progress", "max_steps": 6}
    dummy = DummyVecEnv([lambda: gym.make("SemiAutoMines-v0", **kwargs) for _ in range(4)])
    native = SemiAutoMinesSB3VecEnv(num_envs=4, **kwargs)
    dummy.seed(21)
    native.seed(21)
    assert np.array_equal(dummy.reset(), native.reset())
    assert [info["layout_seed"] for info in dummy.reset_infos] == [
        info["layout_seed"] for info in native.reset_infos
    ]
    rng = np.random.default_rng(21)
    finished = truncated = 0
    for _ in range(200):
        masks = np.stack(dummy.env_method("action_masks"))
        assert np.array_equal(masks, native.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        actions[rng.random(4) < 0.3] = 0  # invalid once opened: lets max_steps truncate
        obs_a, rew_a, done_a, infos_a = dummy.step(actions)
        obs_b, rew_b, done_b, infos_b = native.step(actions)
        assert np.array_equal(obs_a, obs_b) and np.array_equal(done_a, done_b)
        assert np.array_equal(rew_a, rew_b) and rew_b.dtype == np.float32
        for a, b in zip(infos_a, infos_b, strict=True):
            for key in ("state", "guesses", "TimeLimit.truncated", "mine_probability"):
                assert a[key] == b[key], key
            if "terminal_observation" in a:
                assert np.array_equal(a["terminal_observation"], b["terminal_observation"])
            assert ("terminal_observation" in a) == ("terminal_observation" in b)
        finished += int(done_a.sum())
        truncated += sum(info["TimeLimit.truncated"] for info in infos_a)
    assert finished > 20 and truncated > 0
    assert [info["layout_seed"] for info in dummy.reset_infos] == [
        info["layout_seed"] for info in native.reset_infos
    ]


@pytest.mark.slow
def test_maskable_ppo_learns_on_the_sb3_vec_env_through_vec_monitor(tmp_path):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecMonitor

    from minesweep_env.envs.sb3_vec import SemiAutoMinesSB3VecEnv

    vec = SemiAutoMinesSB3VecEnv(num_envs=8, rule_set="endoh", info_probability=False)
    vec = VecMonitor(vec, str(tmp_path / "all"), info_keywords=("state",))
    vec.seed(0)
    assert is_masking_supported(vec)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, seed=0, verbose=0
    )
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    masks = get_action_masks(vec)
    assert masks.shape == (8, 81) and masks.any(axis=1).all()
    rows = (tmp_path / "all.monitor.csv").read_text().splitlines()[2:]
    assert len(rows) > 8 and all(row.split(",")[3] in ("won", "lost", "playing") for row in rows)



def test_compiled_batch_plays_as_the_python_rounds(monkeypatch):
    """The batch's compiled floods and ``complete`` rounds against its Python path."""
    from minesweep_env.compiled import python_only, ready

    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    kwargs = {"num_envs": 8, "board": "expert", "rule_set": "complete"}
    compiled = gym.make_vec("SemiAutoMines-v0", vectorization_mode="vector_entry_point", **kwargs)
    python = gym.make_vec("SemiAutoMines-v0", vectorization_mode="vector_entry_point", **kwargs)
    rng = np.random.default_rng(12)
    obs_a, info_a = compiled.reset(seed=12)
    with python_only():
        obs_b, info_b = python.reset(seed=12)
    for _ in range(60):
        masks = info_a["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs_a, rew_a, term_a, _, info_a = compiled.step(actions)
        with python_only():
            obs_b, rew_b, term_b, _, info_b = python.step(actions)
        assert np.array_equal(obs_a, obs_b)
        assert np.array_equal(rew_a, rew_b) and np.array_equal(term_a, term_b)
        for key in ("state", "opened", "flagged", "guesses"):
            for i in range(len(actions)):
                assert same_value(info_a[key][i], info_b[key][i]), key
        # The compiled floats are the exact ones within 1e-12.
        assert np.allclose(info_a["mine_probability"], info_b["mine_probability"], atol=1e-12)


def test_open_many_opens_what_open_cells_opens():
    from minesweep_env.compiled import ready

    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    from minesweep_env.solver.rules import complete_compiled as paths

    rng = np.random.default_rng(1)
    width, height = 9, 7
    layouts = [MineLayout.random(width, height, int(rng.integers(1, 15)), rng) for _ in range(200)]
    numbers = np.stack([layout.numbers.reshape(-1) for layout in layouts])
    boards = np.repeat(np.arange(len(layouts)), 2)  # two seeds a board, some flooded already
    safe = [np.flatnonzero(~layout.mines.reshape(-1)) for layout in layouts]
    cells = np.array([int(rng.choice(cells)) for cells in safe for _ in (0, 1)])
    view_a = np.full((len(layouts), width * height), -1, dtype=np.int8)
    view_a[rng.random(view_a.shape) < 0.05] = -2  # flags (on safe cells too: floods stop there)
    view_b = view_a.copy()
    opened_a = open_cells(view_a, numbers, neighbour_array(width, height), boards, cells)
    opened_b = np.zeros(len(layouts), dtype=np.int64)
    paths.open_many(view_b, numbers, boards, cells, height, width, opened_b)
    assert np.array_equal(view_a, view_b) and np.array_equal(opened_a, opened_b)
    assert opened_a.max() > 10


def test_opened_and_flagged_cells_are_listed_in_row_major_order():
    """``info["opened"]`` / ``["flagged"]`` list a board's cells sorted by (y, x), each once."""
    envs = gym.make_vec(
        "SemiAutoMines-v0", num_envs=8, vectorization_mode="vector_entry_point", board="expert"
    )
    rng = np.random.default_rng(4)
    _, info = envs.reset(seed=4)
    listed = 0
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        _, _, _, _, info = envs.step(actions)
        for key in ("opened", "flagged"):
            for i in np.flatnonzero(info.get(f"_{key}", np.zeros(8, dtype=bool))):
                cells = info[key][i]
                assert cells == sorted(set(cells), key=lambda xy: (xy[1], xy[0]))
                listed += len(cells)
    assert listed > 100  # floods and the solver's moves were listed


def test_a_seeded_games_safe_first_click_moves_its_mine_as_protect_first_click():
    """The batch moves a mine off a first click in place; the draw and the numbers are
    those of :func:`protect_first_click` with the layout's own generator."""
    from minesweep_env.compiled import ready
    from minesweep_env.core.cells import adjacent_mine_counts
    from minesweep_env.core.first_click import protect_first_click
    from minesweep_env.core.minefield import WinRule
    from minesweep_env.envs.board_batch import BoardBatch

    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    width, height, mines = 30, 16, 99
    seeds = np.arange(40, dtype=np.int64) * 7919 + 3
    batch = BoardBatch(len(seeds), width, height, FirstClick.SAFE, WinRule.SAFE_CELLS_OPENED)
    batch.start_seeded(np.arange(len(seeds)), seeds, mines)
    expected = []
    for seed in seeds.tolist():
        rng = np.random.default_rng(seed)
        layout = MineLayout.random(width, height, mines, rng)
        cell = int(np.flatnonzero(layout.mines)[seed % mines])  # a mine under the click
        expected.append((cell, protect_first_click(layout.mines, cell % width, cell // width,
                                                   FirstClick.SAFE, rng)))
    cells = np.array([cell for cell, _ in expected])
    batch._first_clicks(np.arange(len(seeds)), cells)
    for board, (cell, moved) in enumerate(expected):
        assert not batch.mines[board, cell] and batch.mines[board].sum() == mines
        assert np.array_equal(batch.mines[board].reshape(height, width), moved)
        assert np.array_equal(batch.numbers[board].reshape(height, width),
                              adjacent_mine_counts(moved))
        assert np.array_equal(batch.layout(board).mines, moved)


def test_the_batch_kernels_state_codes_are_the_batchs():
    from minesweep_env.envs import board_batch
    from minesweep_env.envs import board_batch_compiled as batch_kernels

    ours = (board_batch.PLAYING, board_batch.WON, board_batch.LOST)
    assert ours == (batch_kernels.PLAYING, batch_kernels.WON, batch_kernels.LOST)


def test_rounds_left_to_python_list_the_whole_steps_changes(monkeypatch):
    """Above ``MAX_COVERED`` covered cells the compiled probe hands its rounds to Python
    (a float weight could underflow): the step's opened and flagged cells are still all
    listed, as a sync env lists them."""
    from minesweep_env import compiled
    from minesweep_env.envs.board_batch import BoardBatch
    from minesweep_env.solver.rules.complete_proof_compiled import MAX_COVERED

    if not compiled.ready():
        pytest.skip("the compiled kernels are not loaded")
    handed = []
    play_rounds = BoardBatch._play_rounds

    def spy(self, active, rule_sets):
        handed.append(len(active))
        return play_rounds(self, active, rule_sets)

    monkeypatch.setattr(BoardBatch, "_play_rounds", spy)
    width, height = 40, 25
    assert width * height > MAX_COVERED
    sync, native = make_pair(3, width=width, height=height, mines=180, rule_set="complete")
    play_both(sync, native, steps=6, seed=8, invalid_share=0.0)
    assert sum(handed) > 0


@pytest.mark.parametrize("autoreset_mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_planes_and_masks_written_cell_by_cell_are_a_full_encoding(autoreset_mode):
    """The planes and masks a step writes only where it changed cells (and where boards
    restart) are, after every step, the encoding of the whole views; with ``complete``
    (the compiled step) and both autoreset modes, also as a sync env gives them."""
    from minesweep_env.compiled import ready
    from minesweep_env.envs.observations import PLANE_CODES

    if not ready():
        pytest.skip("the compiled kernels are not loaded")
    kwargs = {"num_envs": 8, "rule_set": "complete"}
    sync = gym.make_vec(
        "SemiAutoMines-v0",
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": autoreset_mode},
        **kwargs,
    )
    native = gym.make_vec(
        "SemiAutoMines-v0",
        vectorization_mode="vector_entry_point",
        autoreset_mode=autoreset_mode,
        **kwargs,
    )
    play_both(sync, native, steps=120, seed=5, invalid_share=0.2)
    env = native.unwrapped
    rng = np.random.default_rng(6)
    ended = 0
    for _ in range(150):
        actions = (rng.random(env._masks.shape) * env._masks).argmax(axis=1)
        obs, _, terminated, truncated, _ = env.step(actions)
        ended += int((terminated | truncated).sum())
        views = env.boards.view.reshape(len(obs), 1, env.height, env.width)
        assert np.array_equal(obs, np.equal(views, PLANE_CODES[:, None, None]))
        masks = env.boards.view == -1
        masks[env.boards.state != 0] = True
        assert np.array_equal(env.action_masks(), masks)
    assert ended > 20
