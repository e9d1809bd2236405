"""The settings object both envs build: its checks, its resolution, and the two envs agreeing."""

from __future__ import annotations

import pytest
from paths import REPO

from minesweep_env import MapFormatError
from minesweep_env.core.first_click import FirstClick
from minesweep_env.core.layout import MineLayout
from minesweep_env.envs.config import EnvConfig
from minesweep_env.envs.semi_auto_mines import SemiAutoMinesEnv
from minesweep_env.envs.vector import SemiAutoMinesVectorEnv
from minesweep_env.solver.registry import get_rule_set

BEGINNER_SUITE = REPO / "maps" / "suites" / "beginner"


TWO_MAPS = [str(BEGINNER_SUITE / f"beginner-00{k}.txt") for k in range(2)]
"""Two maps of the beginner suite (9x9, 10 mines each)."""


def test_defaults_resolve_to_the_beginner_board():
    config = EnvConfig.from_kwargs()
    assert (config.width, config.height, config.mines) == (9, 9, 10)
    assert config.first_click is FirstClick.SAFE
    assert config.max_steps == 81 and config.cells == 81
    assert config.maps == () and config.obs_mode == "planes" and config.reward == "win-loss"
    assert config.invalid_action_reward == -0.1 and config.info_probability is True
    assert config.action_space().n == 81
    assert config.observation_space().shape == (11, 9, 9)


def test_overrides_and_types_are_resolved():
    config = EnvConfig.from_kwargs(
        board="expert", mines=50, max_steps=7, invalid_action_reward=-1, info_probability=0
    )
    assert (config.width, config.height, config.mines, config.max_steps) == (30, 16, 50, 7)
    assert isinstance(config.invalid_action_reward, float)
    assert config.info_probability is False


def test_the_settings_are_frozen():
    config = EnvConfig.from_kwargs()
    with pytest.raises(AttributeError):
        config.width = 10  # type: ignore[misc]


def test_a_named_rule_set_gives_each_board_its_own_instance():
    config = EnvConfig.from_kwargs(rule_set="endoh")
    other = config.board_rule_set()
    assert type(other) is type(config.rule_set) and other is not config.rule_set


def test_a_given_rule_set_is_shared():
    rules = get_rule_set("groups")
    config = EnvConfig.from_kwargs(rule_set=rules)
    assert config.rule_set is rules and config.board_rule_set() is rules


def test_maps_set_the_size_and_the_mines():
    config = EnvConfig.from_kwargs(maps=TWO_MAPS, width=9)
    assert (config.width, config.height, config.mines) == (9, 9, 10)
    assert [entry.path for entry in config.maps] == TWO_MAPS
    assert config.named_map(config.maps[1].path) is config.maps[1]


def test_given_layouts_are_checked_against_the_size():
    config = EnvConfig.from_kwargs(board="3x3x1")
    layout = MineLayout.from_rows(["xoo", "ooo", "ooo"])
    assert config.given_layout(layout) is layout
    with pytest.raises(ValueError, match="the given layout is 2x2 but this env plays 3x3"):
        config.given_layout(MineLayout.from_rows(["xo", "oo"]))
    with pytest.raises(TypeError, match="must be a MineLayout, got str"):
        config.given_layout("xoo")


BAD_SETTINGS = [
    ({"board": "huge"}, ValueError, "unknown board 'huge'"),
    ({"board": 9}, TypeError, "board must be"),
    ({"obs_mode": "pixels"}, ValueError, "unknown obs_mode 'pixels'; known: planes"),
    ({"reward": "dense"}, ValueError, "unknown reward 'dense'; known: win-loss, progress"),
    ({"rule_set": "magic"}, ValueError, "unknown rule set 'magic'"),
    ({"first_click": "lucky"}, ValueError, "unknown first_click 'lucky'; known: "),
    ({"mines": 81}, ValueError, "mines must be in 0..80"),
    ({"first_click": "zero", "mines": 73}, ValueError, "9 cells kept free"),
    ({"width": 0}, ValueError, "at least 1x1"),
    ({"width": 4097, "height": 1, "mines": 0}, ValueError, "too large"),
    ({"width": 8.5}, TypeError, "width must be an integer"),
    ({"height": True}, TypeError, "height must be an integer"),
    ({"max_steps": 0}, ValueError, "max_steps must be at least 1, got 0"),
    ({"max_steps": 2.5}, TypeError, "max_steps must be an integer"),
    ({"maps": 3}, TypeError, "maps must be a path or a list of paths, got int"),
    ({"maps": "/no/such/folder/map.txt"}, MapFormatError, "no such file"),
    ({"invalid_action_reward": "a lot"}, ValueError, "a lot"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_SETTINGS, ids=repr)
def test_bad_settings_say_what_is_wrong(kwargs, error, message):
    with pytest.raises(error, match=message):
        EnvConfig.from_kwargs(**kwargs)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"mines": 3}, "mines cannot be given with maps"),
        ({"width": 4}, r"width=4 but the maps are 9x9"),
        ({"height": 2}, r"height=2 but the maps are 9x9"),
    ],
)
def test_maps_refuse_a_size_of_their_own(extra, message):
    with pytest.raises(ValueError, match=message):
        EnvConfig.from_kwargs(maps=TWO_MAPS, **extra)


# -- the two envs accept and refuse the same arguments ------------------------------------

SHARED_KWARGS = [
    {},
    {"board": "intermediate", "obs_mode": "grid", "reward": "progress"},
    {"board": "8x8x10", "first_click": "zero", "max_steps": 5},
    {"width": 5, "height": 4, "mines": 3, "rule_set": "endoh", "obs_mode": "planes+probabilities"},
    {"invalid_action_reward": -1, "info_probability": False, "first_click": "none"},
    {"maps": TWO_MAPS, "rule_set": "groups"},
    *(kwargs for kwargs, _, _ in BAD_SETTINGS),
]


def _outcome(make, kwargs):
    """What making an env from ``kwargs`` gives: its resolved settings, or the error."""
    try:
        env = make(**kwargs)
    except (TypeError, ValueError, MapFormatError) as error:
        return type(error), str(error)
    seen = env.config
    return (
        seen.width,
        seen.height,
        seen.mines,
        seen.first_click,
        type(seen.rule_set),
        [entry.path for entry in seen.maps],
        seen.obs_mode,
        seen.reward,
        seen.invalid_action_reward,
        seen.max_steps,
        seen.info_probability,
        env.width,
        env.max_steps,
        env.reward_mode,
    )


@pytest.mark.parametrize("kwargs", SHARED_KWARGS, ids=repr)
def test_single_and_vector_env_agree(kwargs):
    single = _outcome(SemiAutoMinesEnv, kwargs)
    vector = _outcome(lambda **given: SemiAutoMinesVectorEnv(num_envs=2, **given), kwargs)
    assert single == vector
    expected_error = any(kwargs == bad for bad, _, _ in BAD_SETTINGS)
    assert isinstance(single[0], type) == expected_error


def test_both_envs_read_their_spaces_from_the_settings():
    single = SemiAutoMinesEnv(board="intermediate", obs_mode="grid")
    vector = SemiAutoMinesVectorEnv(num_envs=3, board="intermediate", obs_mode="grid")
    assert single.observation_space == vector.single_observation_space
    assert single.action_space == vector.single_action_space
    assert vector.observation_space.shape == (3, 16, 16)


def test_the_vector_env_makes_no_single_env(monkeypatch):
    made = []
    monkeypatch.setattr(SemiAutoMinesEnv, "__init__", lambda self, **kw: made.append(kw))
    SemiAutoMinesVectorEnv(num_envs=2)
    assert made == []
