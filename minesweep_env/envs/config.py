"""One validated settings object shared by the single env and the vector env.

Both envs take the same keyword arguments (board, size, maps, rule set, first
click, observation mode, reward, step limit). :meth:`EnvConfig.from_kwargs`
checks them once, with the error messages the envs have always given, and
resolves them (a board name to its size, a map source to its maps, a rule-set
name to an instance): the envs then only read the result, so no check is
written twice and the two envs cannot drift apart on what they accept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym

from ..core.board_spec import as_count, check_board_size, parse_board_spec
from ..core.first_click import FirstClick
from ..core.layout import MineLayout
from ..solver.base import RuleSet
from ..solver.registry import get_rule_set
from .maps import Map, MapSource, check_same_size, load_maps
from .observations import OBS_MODES, observation_space

REWARD_MODES = ("win-loss", "progress")
"""The ``reward`` names the env accepts."""


@dataclass(frozen=True)
class EnvConfig:
    """The checked, resolved settings of ``SemiAutoMines-v0``: what every board plays by.

    Build it with :meth:`from_kwargs`; the fields are the resolved values
    (``max_steps`` is a number even when ``None`` was given, ``first_click`` a
    :class:`FirstClick`, ``maps`` the loaded maps).
    """

    width: int
    height: int
    mines: int
    rule_set: RuleSet
    """The checked rule set: an instance made from the name, or the instance given."""
    rule_set_source: str | RuleSet
    """The ``rule_set`` argument: a name gives every board its own instance."""
    first_click: FirstClick
    maps: tuple[Map, ...]
    obs_mode: str
    reward: str
    invalid_action_reward: float
    max_steps: int
    info_probability: bool

    @classmethod
    def from_kwargs(
        cls,
        board: str = "beginner",
        width: int | None = None,
        height: int | None = None,
        mines: int | None = None,
        rule_set: str | RuleSet = "complete",
        first_click: str = "safe",
        maps: MapSource | None = None,
        obs_mode: str = "planes",
        reward: str = "win-loss",
        invalid_action_reward: float = -0.1,
        max_steps: int | None = None,
        info_probability: bool = True,
    ) -> EnvConfig:
        """The settings the env keywords name, every one checked.

        :raises TypeError: for a size, count or ``max_steps`` that is not an
            integer, or ``maps`` that is not a path or a list of paths.
        :raises ValueError: for an unknown name (board, rule set, first click,
            obs mode, reward) or a size, count or step limit out of bounds.
        :raises minesweep_env.MapFormatError: for a map file that cannot be read.
        """
        if obs_mode not in OBS_MODES:
            raise ValueError(f"unknown obs_mode {obs_mode!r}; known: {', '.join(OBS_MODES)}")
        if reward not in REWARD_MODES:
            raise ValueError(f"unknown reward {reward!r}; known: {', '.join(REWARD_MODES)}")
        policy = _first_click_policy(first_click)
        resolved_rule_set = get_rule_set(rule_set)
        if maps is not None and not isinstance(maps, str | Path | Iterable):
            raise TypeError(f"maps must be a path or a list of paths, got {type(maps).__name__}")
        loaded = tuple(load_maps(maps)) if maps is not None else ()
        if loaded:
            size = _map_size(loaded, width, height, mines)
        else:
            size = _board_size(board, width, height, mines, policy)
        cells = size[0] * size[1]
        steps = cells if max_steps is None else as_count(max_steps, "max_steps")
        if steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        return cls(
            width=size[0],
            height=size[1],
            mines=size[2],
            rule_set=resolved_rule_set,
            rule_set_source=rule_set,
            first_click=policy,
            maps=loaded,
            obs_mode=obs_mode,
            reward=reward,
            invalid_action_reward=float(invalid_action_reward),
            max_steps=steps,
            info_probability=bool(info_probability),
        )

    @property
    def cells(self) -> int:
        """W * H: the number of actions."""
        return self.width * self.height

    def action_space(self) -> gym.spaces.Discrete:
        """``Discrete(W * H)``: one action per cell."""
        return gym.spaces.Discrete(self.cells)

    def observation_space(self) -> gym.spaces.Box:
        """The Box of one board's observation in ``obs_mode``."""
        return observation_space(self.obs_mode, self.width, self.height)

    def board_rule_set(self) -> RuleSet:
        """The rule set of one more board: a new instance of the named set, as every
        sub-env of a sync vector env makes its own, or the one instance given, as
        ``make_vec`` hands the same one to every sub-env."""
        return get_rule_set(self.rule_set_source)

    def first_click_loses(self) -> bool:
        """Whether a first probe can hit a mine (only under the ``"none"`` policy)."""
        return self.first_click is FirstClick.NONE

    # -- layouts and maps handed to reset ---------------------------------------------------

    def given_layout(self, layout: Any) -> MineLayout:
        """``reset(options={"layout": layout})``'s layout, checked.

        :raises TypeError: when it is not a :class:`MineLayout`.
        :raises ValueError: when its size is not the env's.
        """
        if not isinstance(layout, MineLayout):
            raise TypeError(f'options["layout"] must be a MineLayout, got {type(layout).__name__}')
        self.check_size(layout, "the given layout")
        return layout

    def named_map(self, path: str | Path) -> Map:
        """``reset(options={"map": path})``'s map: one of the env's maps, or read from file.

        :raises ValueError: when the file's map is not of the env's size.
        :raises minesweep_env.MapFormatError: when the file cannot be read.
        """
        wanted = str(path)
        for entry in self.maps:
            if entry.path == wanted:
                return entry
        (entry,) = load_maps(Path(path))
        self.check_size(entry.layout, entry.path)
        return entry

    def check_size(self, layout: MineLayout, what: str) -> None:
        """:raises ValueError: naming ``what`` when ``layout`` is not of the env's size."""
        if (layout.width, layout.height) != (self.width, self.height):
            raise ValueError(
                f"{what} is {layout.width}x{layout.height} but this env plays "
                f"{self.width}x{self.height} boards; make an env of that size"
            )


def _first_click_policy(first_click: str) -> FirstClick:
    """The :class:`FirstClick` named ``first_click``; an unknown name lists the known ones."""
    try:
        return FirstClick(first_click)
    except ValueError:
        known = ", ".join(policy.value for policy in FirstClick)
        raise ValueError(f"unknown first_click {first_click!r}; known: {known}") from None


def _map_size(
    maps: tuple[Map, ...], width: int | None, height: int | None, mines: int | None
) -> tuple[int, int, int]:
    """(width, height, mines) of the maps; a given width or height must match them."""
    if mines is not None:
        raise ValueError("mines cannot be given with maps: each map has its own mines")
    map_width, map_height = check_same_size(list(maps))
    given_sizes = (("width", width, map_width), ("height", height, map_height))
    for name, given, actual in given_sizes:
        if given is not None and as_count(given, name) != actual:
            raise ValueError(
                f"{name}={given} but the maps are {map_width}x{map_height} ({maps[0].path})"
            )
    return map_width, map_height, maps[0].layout.mine_count


def _board_size(
    board: str,
    width: int | None,
    height: int | None,
    mines: int | None,
    first_click: FirstClick,
) -> tuple[int, int, int]:
    """(width, height, mines) of the named board with any overrides, checked to fit."""
    base_width, base_height, base_mines = parse_board_spec(board)
    width = base_width if width is None else as_count(width, "width")
    height = base_height if height is None else as_count(height, "height")
    mines = base_mines if mines is None else as_count(mines, "mines")
    # The first-click zone must always fit: a cell, or for a zero a cell and its neighbours.
    zone = min(3, width) * min(3, height) if first_click is FirstClick.ZERO else 1
    return check_board_size(width, height, mines, mine_free=zone)
