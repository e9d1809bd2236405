"""SemiAutoMines-v0: the env's contract (spaces, masks, rewards, episode end, info, maps)."""

from __future__ import annotations

from collections.abc import Iterator

import gymnasium as gym
import numpy as np
import pytest
from brute_force import exact_probabilities
from paths import REPO

import minesweep_env
from minesweep_env import Game, MineLayout
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.envs import ENV_ID, PLANE_CODES, SemiAutoMinesEnv, maps_by_size

IOCCC_MAPS = REPO / "maps" / "ioccc"
BEGINNER_SUITE = REPO / "maps" / "suites" / "beginner"


def random_masked_action(info: dict, rng: np.random.Generator) -> int:
    valid = np.flatnonzero(info["action_mask"])
    return int(valid[rng.integers(len(valid))])


def steps(env: gym.Env, rng: np.random.Generator, info: dict) -> Iterator[tuple]:
    """Play to the end with random valid actions, yielding each step as it is made."""
    done = False
    while not done:
        action = random_masked_action(info, rng)
        observation, reward, terminated, truncated, info = env.step(action)
        yield action, observation, reward, terminated, truncated, info
        done = terminated or truncated


def play(env: gym.Env, rng: np.random.Generator, info: dict) -> list[tuple]:
    """The whole trajectory of :func:`steps`."""
    return list(steps(env, rng, info))


def test_import_registers_the_env_and_exposes_the_game():
    assert ENV_ID in gym.registry
    env = gym.make("SemiAutoMines-v0")
    assert isinstance(env.unwrapped, SemiAutoMinesEnv)
    env.reset(seed=0)
    game = env.unwrapped.game
    assert isinstance(game, Game)
    assert game.rows() == ["?" * 9] * 9
    assert game.state == "playing"
    assert game.layout.mine_count == 10


@pytest.mark.parametrize(
    ("board", "shape", "mines"),
    [("beginner", (9, 9), 10), ("intermediate", (16, 16), 40), ("expert", (16, 30), 99)],
)
def test_standard_boards_set_the_spaces(board, shape, mines):
    env = gym.make("SemiAutoMines-v0", board=board)
    height, width = shape
    assert env.action_space == gym.spaces.Discrete(width * height)
    assert env.observation_space.shape == (11, height, width)
    assert env.observation_space.dtype == np.uint8
    obs, info = env.reset(seed=1)
    assert obs.shape == (11, height, width)
    assert env.unwrapped.game.layout.mine_count == mines
    assert info["action_mask"].shape == (width * height,)


def test_width_height_mines_override_the_board():
    env = gym.make("SemiAutoMines-v0", board="expert", width=7, height=5, mines=6)
    env.reset(seed=0)
    game = env.unwrapped.game
    assert (game.width, game.height, game.layout.mine_count) == (7, 5, 6)
    assert env.action_space.n == 35


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"board": "huge"}, "unknown board 'huge'"),
        ({"obs_mode": "pixels"}, "unknown obs_mode 'pixels'"),
        ({"reward": "dense"}, "unknown reward 'dense'"),
        ({"rule_set": "magic"}, "unknown rule set 'magic'"),
        ({"first_click": "lucky"}, "unknown first_click 'lucky'"),
        ({"render_mode": "video"}, "unknown render_mode 'video'"),
        ({"mines": 81}, "mines must be in 0..80"),
        ({"first_click": "zero", "mines": 73}, "mines must be in 0..72"),
        ({"width": 0}, "at least 1x1"),
        ({"max_steps": 0}, "max_steps must be at least 1"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SemiAutoMinesEnv(**kwargs)


def test_planes_are_one_hot_codes_of_the_view():
    env = gym.make("SemiAutoMines-v0", rule_set="endoh", board="intermediate")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _, obs, *_ in steps(env, rng, info):
        view = env.unwrapped.game.view
        assert obs.dtype == np.uint8
        assert (obs.sum(axis=0) == 1).all()
        assert np.array_equal(PLANE_CODES[obs.argmax(axis=0)], view)


def test_grid_observation_is_the_view():
    env = gym.make("SemiAutoMines-v0", obs_mode="grid", rule_set="endoh")
    obs, info = env.reset(seed=4)
    assert obs.dtype == np.int8 and obs.shape == (9, 9)
    assert (obs == COVERED).all()
    rng = np.random.default_rng(4)
    for _, obs, *_ in steps(env, rng, info):
        assert np.array_equal(obs, env.unwrapped.game.view)
        assert obs is not env.unwrapped.game.view  # a copy the agent may keep


@pytest.mark.parametrize(
    ("rule_set", "obs_mode"),
    [("endoh", "planes+probabilities"), ("complete", "planes+probabilities"), ("complete", "grid")],
)
def test_probability_plane_and_chosen_probability_are_exact(rule_set, obs_mode):
    """Checked against the brute-force enumerator on small boards, every step.

    With ``complete`` the probabilities come from the rule set's own last count;
    in ``grid`` mode the chosen cell's probability is computed at the step.
    """
    env = gym.make(
        "SemiAutoMines-v0", width=5, height=5, mines=6, rule_set=rule_set, obs_mode=obs_mode
    )
    with_plane = obs_mode == "planes+probabilities"
    checked = 0
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        if with_plane:
            assert obs.dtype == np.float32 and obs.shape == (12, 5, 5)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            game = env.unwrapped.game
            exact = {}
            if game.minefield.probes:
                board = game.minefield.board()
                _, exact = exact_probabilities(board, board.total_mines)
                if with_plane:
                    plane = obs[11].reshape(-1)
                    for cell, probability in exact.items():
                        assert plane[cell] == pytest.approx(float(probability), abs=1e-6)
                    flat = board.grid.reshape(-1)
                    assert (plane[flat == FLAGGED] == 1).all()
                    assert (plane[flat >= 0] == 0).all()
            action = random_masked_action(info, rng)
            obs, _, terminated, truncated, info = env.step(action)
            expected = float(exact[action]) if exact else 0.0  # the safe first click
            assert info["mine_probability"] == pytest.approx(expected, abs=1e-12)
            checked += 1
            done = terminated or truncated
    assert checked > 30


def test_first_click_probability_under_none_is_the_mine_density():
    env = gym.make("SemiAutoMines-v0", first_click="none")
    env.reset(seed=0)
    _, _, _, _, info = env.step(40)
    assert info["mine_probability"] == pytest.approx(10 / 81)


def test_info_probability_can_be_switched_off():
    env = gym.make("SemiAutoMines-v0", info_probability=False)
    env.reset(seed=0)
    _, _, _, _, info = env.step(0)
    assert np.isnan(info["mine_probability"])


def test_action_mask_is_the_covered_unflagged_cells():
    env = gym.make("SemiAutoMines-v0", rule_set="endoh", board="intermediate")
    _, info = env.reset(seed=5)
    assert info["action_mask"].dtype == bool and info["action_mask"].all()
    rng = np.random.default_rng(5)
    for *_, terminated, _, step_info in steps(env, rng, info):
        flat = env.unwrapped.game.view.reshape(-1)
        mask = env.unwrapped.action_masks()
        assert np.array_equal(mask, step_info["action_mask"])
        if terminated:
            assert mask.all()  # the game is over: every action is ignored, none is empty
        else:
            assert np.array_equal(mask, flat == COVERED)
    # MaskablePPO's own lookup finds the method through gymnasium's wrappers.
    from sb3_contrib.common.maskable.utils import get_action_masks

    assert np.array_equal(get_action_masks(env), env.unwrapped.action_masks())


def test_invalid_action_changes_nothing_and_costs_the_penalty():
    layout = MineLayout.from_rows(["xooo", "oooo", "oooo", "ooox"])
    env = gym.make(
        "SemiAutoMines-v0",
        width=4,
        height=4,
        mines=2,
        rule_set="mysweeper",
        invalid_action_reward=-0.25,
    )
    env.reset(seed=0, options={"layout": layout})
    obs, reward, terminated, truncated, info = env.step(5)  # (1, 1) shows 1: no proof
    assert (reward, terminated) == (0.0, False)
    view = env.unwrapped.game.view.copy()
    guesses = info["guesses"]
    obs2, reward, terminated, truncated, info = env.step(5)  # probed already
    assert reward == -0.25
    assert not terminated and not truncated
    assert info["invalid_action"] and info["opened"] == [] and info["flagged"] == []
    assert info["guesses"] == guesses == 1
    assert info["mine_probability"] == 0.0  # a probed cell is known safe
    assert np.array_equal(obs, obs2)
    assert np.array_equal(view, env.unwrapped.game.view)


def test_invalid_action_on_a_flag():
    layout = MineLayout.from_rows(["xoxoo"])
    env = gym.make("SemiAutoMines-v0", width=5, height=1, mines=2, rule_set="complete")
    env.reset(seed=0, options={"layout": layout})
    _, reward, terminated, _, info = env.step(4)  # floods to the 1 at x=3, which flags x=2
    assert (reward, terminated, info["flagged"]) == (0.0, False, [(2, 0)])
    assert env.unwrapped.game.rows() == ["??!10"]
    _, reward, terminated, _, info = env.step(2)
    assert (reward, terminated, info["invalid_action"]) == (-0.1, False, True)
    assert info["mine_probability"] == 1.0
    assert env.unwrapped.game.rows() == ["??!10"]


def test_win_and_loss_rewards_and_termination():
    layout = MineLayout.from_rows(["xoo", "ooo", "ooo"])
    env = gym.make("SemiAutoMines-v0", width=3, height=3, mines=1, rule_set="complete")
    _, info = env.reset(seed=0, options={"layout": layout})
    _, reward, terminated, truncated, info = env.step(8)  # a zero: floods, solver finishes
    assert (reward, terminated, truncated, info["state"]) == (1.0, True, False, "won")
    assert info["flagged"] == []  # the flood won the game before the solver ran
    assert len(info["opened"]) == 8

    env = gym.make("SemiAutoMines-v0", width=3, height=3, mines=1, rule_set="complete")
    env.reset(seed=0, options={"layout": layout})
    env.step(4)  # the centre shows 1: eight candidates, no proof
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["state"]) == (-1.0, True, "lost")
    assert env.unwrapped.game.state == "lost"
    assert info["mine_probability"] == pytest.approx(1 / 8)


@pytest.mark.parametrize(
    ("rule_set", "first_click"),
    [("endoh", "endoh"), ("complete", "safe"), ("mysweeper", "none"), ("groups", "zero")],
)
def test_progress_reward_adds_the_share_of_safe_cells_opened(rule_set, first_click):
    env = gym.make(
        "SemiAutoMines-v0",
        reward="progress",
        rule_set=rule_set,
        first_click=first_click,
        board="intermediate",
    )
    for seed in range(6):
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trajectory = play(env, rng, info)
        game = env.unwrapped.game
        safe = game.width * game.height - game.layout.mine_count
        opened = int((game.view >= 0).sum())
        outcome = 1.0 if trajectory[-1][-1]["state"] == "won" else -1.0
        total = sum(step[2] for step in trajectory)
        assert total == pytest.approx(outcome + opened / safe)
        for _, _, reward, terminated, _, step_info in trajectory:
            share = len(step_info["opened"]) / safe
            end = 0.0 if not terminated else (1.0 if step_info["state"] == "won" else -1.0)
            assert reward == pytest.approx(end + share)


def test_endoh_alt_stuck_position_ends_as_a_win():
    """unwinnable.txt: the corner mine touches no number; endoh-alt never flags it."""
    path = str(IOCCC_MAPS / "unwinnable.txt")
    env = gym.make("SemiAutoMines-v0", maps=path, rule_set="endoh-alt", first_click="endoh")
    _, info = env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(24)  # (4, 4): floods everything safe
    game = env.unwrapped.game
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["state"] == game.state == "won"  # the program would wait: the env does not
    assert game.minefield.all_safe_opened
    assert game.rows()[0][0] == "?"
    _, reward, terminated, _, after = env.step(0)  # the stuck mine: the game is over
    assert (reward, terminated, after["state"]) == (0.0, True, "won")
    assert game.rows()[0][0] == "?"

    env = gym.make("SemiAutoMines-v0", maps=path, rule_set="endoh", first_click="endoh")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(24)
    assert (reward, terminated, info["state"], env.unwrapped.game.state) == (
        1.0,
        True,
        "won",
        "won",
    )


# A mine no number touches, as unwinnable.txt's corner: only a count rule can flag it.
CORNERED = MineLayout.from_rows(["xxoooo", "xxoooo", "oooooo", "oooooo", "ooooxo", "oooooo"])


@pytest.mark.parametrize("rule_set", sorted(minesweep_env.RULE_SETS))
def test_the_env_and_its_game_give_one_verdict(rule_set):
    """info["state"] is game.state on every step, and a won episode is a won game.

    Random games, unwinnable.txt and a cornered mine, where rule sets without
    the count rule leave a mine covered once every safe cell is open.
    """
    unwinnable = str(IOCCC_MAPS / "unwinnable.txt")
    envs = [
        (gym.make("SemiAutoMines-v0", rule_set=rule_set, width=6, height=6, mines=5), None),
        (gym.make("SemiAutoMines-v0", maps=unwinnable, rule_set=rule_set), None),
        (gym.make("SemiAutoMines-v0", rule_set=rule_set, width=6, height=6), CORNERED),
    ]
    rng = np.random.default_rng(3)
    outcomes = set()
    left_covered = 0
    for env, layout in envs:
        for seed in range(15):
            options = {"layout": layout} if layout is not None else None
            _, first = env.reset(seed=seed, options=options)
            game = env.unwrapped.game
            assert first["state"] == game.state == "playing"
            for step in steps(env, rng, first):
                assert step[-1]["state"] == game.state  # on every step, not only the last
            outcomes.add(game.state.value)
            if step[3] and game.state != "lost":  # terminated, not lost
                assert game.state == "won" and game.minefield.all_safe_opened
                left_covered += bool(np.any(game.view == COVERED))
    assert outcomes == {"won", "lost"}
    if rule_set == "endoh-alt":
        assert left_covered, "no won game left a mine unflagged: the hard case was not played"


@pytest.mark.parametrize("rule_set", ["endoh-alt", "mysweeper", "groups"])
def test_no_episode_leaves_only_mines_to_probe(rule_set):
    env = gym.make("SemiAutoMines-v0", rule_set=rule_set, width=6, height=6, mines=12)
    for seed in range(25):
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            mines = env.unwrapped.game.layout.mines.reshape(-1)
            valid = np.flatnonzero(info["action_mask"])
            assert (~mines[valid]).any(), "every valid action is a mine"
            _, _, terminated, truncated, info = env.step(int(valid[rng.integers(len(valid))]))
            done = terminated or truncated
        assert not truncated


def test_truncation_stops_an_agent_that_only_takes_invalid_actions():
    layout = MineLayout.from_rows(["xoxoo"])
    env = gym.make(
        "SemiAutoMines-v0", width=5, height=1, mines=2, rule_set="complete", max_steps=5
    )
    env.reset(seed=0, options={"layout": layout})
    env.step(4)  # x=0 and x=1 stay a fifty-fifty guess
    results = [env.step(4) for _ in range(4)]
    assert [r[3] for r in results] == [False, False, False, True]
    assert not any(r[2] for r in results)
    assert results[-1][4]["state"] == "playing"


def test_same_seed_same_episodes():
    """Two envs, the same seeds and the same agent: identical whole episodes."""
    envs = [gym.make("SemiAutoMines-v0", rule_set="endoh", board="intermediate") for _ in range(2)]
    runs = []
    for env in envs:
        rng = np.random.default_rng(11)
        episodes = []
        _, info = env.reset(seed=123)
        for episode in range(4):
            if episode:
                _, info = env.reset()
            layout = env.unwrapped.game.minefield.initial_layout
            episodes.append((info["layout_seed"], layout.mines.copy(), play(env, rng, info)))
        runs.append(episodes)
    for (seed_a, mines_a, steps_a), (seed_b, mines_b, steps_b) in zip(*runs, strict=True):
        assert seed_a == seed_b and np.array_equal(mines_a, mines_b)
        assert len(steps_a) == len(steps_b)
        for a, b in zip(steps_a, steps_b, strict=True):
            assert a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:5] == b[2:5]
            assert a[5]["opened"] == b[5]["opened"] and a[5]["flagged"] == b[5]["flagged"]
            assert a[5]["mine_probability"] == b[5]["mine_probability"]


def test_layouts_do_not_depend_on_the_agent():
    """A paired comparison: after reset(seed=S), every agent meets the same layouts."""
    sequences = []
    for agent_seed in (1, 2):
        env = gym.make("SemiAutoMines-v0", rule_set="endoh")
        rng = np.random.default_rng(agent_seed)
        _, info = env.reset(seed=99)
        layouts = []
        for episode in range(5):
            if episode:
                _, info = env.reset()
            layouts.append(env.unwrapped.game.minefield.initial_layout.mines.copy())
            play(env, rng, info)
        sequences.append(layouts)
    for a, b in zip(*sequences, strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(sequences[0][0], sequences[0][1])


def test_layout_seed_recreates_the_layout():
    env = gym.make("SemiAutoMines-v0", board="expert")
    _, info = env.reset(seed=7)
    again = MineLayout.random(30, 16, 99, np.random.default_rng(info["layout_seed"]))
    assert again == env.unwrapped.game.minefield.initial_layout
    assert info["map"] is None


def test_maps_folder_plays_its_maps_and_reports_the_path():
    env = gym.make("SemiAutoMines-v0", maps=str(BEGINNER_SUITE))
    paths = sorted(str(p) for p in BEGINNER_SUITE.glob("*.txt"))
    seen = set()
    for seed in range(20):
        _, info = env.reset(seed=seed)
        assert info["map"] in paths and info["layout_seed"] is None
        layout = minesweep_env.load_layout(info["map"])
        assert env.unwrapped.game.minefield.initial_layout == layout
        seen.add(info["map"])
    assert len(seen) > 10  # sampled, not always the first


def test_reset_option_names_the_map():
    chosen = str(BEGINNER_SUITE / "beginner-042.txt")
    env = gym.make("SemiAutoMines-v0", maps=[str(BEGINNER_SUITE / "beginner-000.txt"), chosen])
    _, info = env.reset(seed=0, options={"map": chosen})
    assert info["map"] == chosen
    assert env.unwrapped.game.layout == minesweep_env.load_layout(chosen)
    # A map outside the list is read too, when it has the env's size.
    other = str(BEGINNER_SUITE / "beginner-077.txt")
    _, info = env.reset(options={"map": other})
    assert info["map"] == other


def test_maps_of_different_sizes_are_refused_with_a_pointer():
    with pytest.raises(ValueError, match="an env plays maps of one size"):
        SemiAutoMinesEnv(maps=str(IOCCC_MAPS))
    with pytest.raises(ValueError, match="width=10 but the maps are 9x9"):
        SemiAutoMinesEnv(maps=str(BEGINNER_SUITE), width=10)
    with pytest.raises(ValueError, match="each map has its own mines"):
        SemiAutoMinesEnv(maps=str(BEGINNER_SUITE), mines=10)
    env = SemiAutoMinesEnv(maps=str(BEGINNER_SUITE))
    with pytest.raises(ValueError, match="make an env of that size"):
        env.reset(options={"map": str(IOCCC_MAPS / "ioccc.txt")})
    groups = maps_by_size(str(IOCCC_MAPS))
    assert (25, 9) in groups and all(len(paths) >= 1 for paths in groups.values())
    for (width, height), paths in groups.items():
        env = SemiAutoMinesEnv(maps=paths, first_click="endoh")
        obs, _ = env.reset(seed=0)
        assert obs.shape == (11, height, width)


def test_bad_map_fails_at_construction_with_its_name(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3 3 2\n0 1 2\n")
    with pytest.raises(minesweep_env.MapFormatError, match="bad.txt"):
        SemiAutoMinesEnv(maps=str(bad))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="holds no map files"):
        SemiAutoMinesEnv(maps=str(empty))


def test_step_before_reset_is_a_clear_error():
    env = SemiAutoMinesEnv()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_docstring_teaches_the_whole_contract():
    doc = SemiAutoMinesEnv.__doc__
    for section in (
        "## Description",
        "## Action Space",
        "## Observation Space",
        "## Rewards",
        "## Starting State",
        "## Episode End",
        "## Arguments",
        "## Version History",
    ):
        assert section in doc
    import inspect

    for name, parameter in inspect.signature(SemiAutoMinesEnv).parameters.items():
        assert f"``{name}=" in doc, f"argument {name} is not documented"
        default = parameter.default
        assert f"``{name}={default!r}``".replace("'", '"') in doc


def test_docstring_examples_run():
    import doctest

    from minesweep_env.envs import semi_auto_mines

    result = doctest.testmod(semi_auto_mines)
    assert result.attempted >= 6 and result.failed == 0


def test_no_guess_map_reports_its_start_and_is_won_from_it_without_guessing():
    folder = REPO / "maps" / "no-guess" / "beginner"
    env = gym.make("SemiAutoMines-v0", maps=str(folder), rule_set="complete")
    for seed in range(3):
        _, info = env.reset(seed=seed)
        x, y = info["start"]
        _, reward, terminated, _, info = env.step(y * 9 + x)
        assert (reward, terminated, info["guesses"]) == (1.0, True, 1)
    env = gym.make("SemiAutoMines-v0", maps=str(BEGINNER_SUITE))
    _, info = env.reset(seed=0)
    assert info["start"] is None


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937, np.random.Philox])
def test_layout_seed_draw_is_numpys_integers_draw(bit_generator):
    # reset's seed draw reads PCG64's raw output directly; it must be the number
    # integers(2**63) gives, and leave the generator where integers leaves it.
    from minesweep_env.envs.semi_auto_mines import _SEED_BOUND, draw_layout_seed

    ours, numpys = np.random.Generator(bit_generator(11)), np.random.Generator(bit_generator(11))
    for _ in range(2000):
        assert draw_layout_seed(ours) == int(numpys.integers(_SEED_BOUND))
    assert ours.bit_generator.random_raw(8).tolist() == numpys.bit_generator.random_raw(8).tolist()


def test_make_skips_the_passive_checker_unless_asked_and_keeps_the_order_check():
    env = gym.make("SemiAutoMines-v0")
    assert isinstance(env, gym.wrappers.OrderEnforcing)
    assert env.env is env.unwrapped
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)
    checked = gym.make("SemiAutoMines-v0", disable_env_checker=False)
    assert isinstance(checked.env, gym.wrappers.PassiveEnvChecker)
