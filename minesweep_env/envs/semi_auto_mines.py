"""The Gymnasium environment ``SemiAutoMines-v0``: a thin adapter over :class:`Game`.

The game core decides everything (mines, probing, the auto-solver, win and
loss); this module only turns a flat action into a probe, the view into an
observation, and the outcome into a reward.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from types import ModuleType
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from ..compiled import loaded as kernels_loaded
from ..compiled import ready as kernels_ready
from ..core.board import Board
from ..core.cells import COVERED, FLAGGED, covered_view
from ..core.first_click import DeferredGenerator, FirstClick
from ..core.layout import MineLayout
from ..core.minefield import GameState, GeneratorSource, Minefield, WinRule
from ..game import Game
from ..solver.base import RuleSet
from .checks import action_index, check_reset_options
from .config import REWARD_MODES as REWARD_MODES  # re-exported for callers of this module
from .config import EnvConfig
from .layout_generator import STATE_WORDS, LayoutGenerator, layout_kernels
from .maps import Map, MapSource
from .observations import (
    PLANE_CODES,
    encode_grid,
    encode_planes,
    encode_planes_with_probabilities,
)
from .probabilities import ProbabilityPlane

_SEED_BOUND = 2**63
"""Layout and first-click seeds are drawn below this bound from ``np_random``."""

_STATE_NAMES = {state: state.value for state in GameState}
"""``info["state"]`` of each game state (a dict lookup is cheaper than ``.value``)."""


@cache
def view_kernels() -> ModuleType:
    """The compiled view encoder, imported once it is wanted (importing it imports numba)."""
    from . import observations_compiled as kernels

    return kernels


def draw_layout_seed(np_random: np.random.Generator) -> int:
    """``int(np_random.integers(_SEED_BOUND))``, the same number and generator state after it.

    Below 2**63, ``integers`` (Lemire's method, no rejection for this bound) is one raw
    64-bit draw shifted right once; taken directly that costs a sixth as much, on every
    reset. Only for PCG64 (Gymnasium's generator), whose raw draw is 64 bits; any other
    bit generator is asked through ``integers`` itself.
    """
    bit_generator = np_random.bit_generator
    if type(bit_generator) is np.random.PCG64:
        return bit_generator.random_raw() >> 1
    return int(np_random.integers(_SEED_BOUND))


class SemiAutoMinesEnv(gym.Env[np.ndarray, np.int64]):
    """
    ## Description

    Semi-automatic Minesweeper, after Yusuke Endoh's IOCCC 2020 entry: after
    every probe a rule-based auto-solver opens every cell its rule set proves
    safe and flags every cell it proves to be a mine. The agent only makes the
    real decisions, the guesses: with the default rule set ``"complete"``
    every action left to it is a genuine guess. ``env.unwrapped.game`` is the
    :class:`minesweep_env.Game` being played. The full guide, with the vector
    env and SB3 use, is ``docs/environment.md``.

    ## Action Space

    ``Discrete(W * H)``: the flat index ``y * W + x`` of the cell to probe.
    Valid actions are the covered, unflagged cells: ``action_masks()`` (on
    what ``gymnasium.make`` returns, ``env.unwrapped.action_masks()``) and
    ``info["action_mask"]`` give them as ``bool`` (W*H,). An action that is not
    an integer raises ``TypeError``, one outside ``0..W*H-1`` ``ValueError``.
    An invalid action (a probed or flagged cell) changes nothing and is
    rewarded ``invalid_action_reward``. Once the game is over the mask is all
    ``True`` and a further step changes nothing (reward 0, terminated again).

    ## Observation Space

    | `obs_mode`               | dtype     | shape        | content                               |
    |--------------------------|-----------|--------------|---------------------------------------|
    | `"planes"` (default)     | `uint8`   | `(11, H, W)` | one-hot: covered, flagged, number 0-8 |
    | `"grid"`                 | `int8`    | `(H, W)`     | -1 covered, -2 flagged, 0-8 number    |
    | `"planes+probabilities"` | `float32` | `(12, H, W)` | the 11 planes, then mine probability  |

    The 12th plane is the exact probability that each cell holds a mine given
    everything visible and the mine count (1 on flags, 0 on probed cells).

    ## Rewards

    | `reward`               | win | loss | other steps                                    |
    |------------------------|-----|------|------------------------------------------------|
    | `"win-loss"` (default) | +1  | -1   | 0                                              |
    | `"progress"`           | +1  | -1   | + the share of the safe cells the step opened  |

    An invalid action gets ``invalid_action_reward`` instead.

    ## Starting State

    Every cell covered: ``mines`` mines placed uniformly at random, or one of
    ``maps`` chosen uniformly. The agent makes the first click; ``first_click``
    decides what happens to a mine under it. ``reset(seed=S)`` gives the same
    layout for every agent, and the layouts of later plain resets do not
    depend on the agent's moves. ``reset(options={"layout": MineLayout})`` or
    ``{"map": path}`` plays a given game; any other option raises an error.

    ## Episode End

    1. Termination, won: every safe cell is probed (mines need not be flagged).
    2. Termination, lost: the probed cell held a mine.
    3. Truncation: ``max_steps`` steps (default ``W * H``).

    ``info`` holds ``"action_mask"``, ``"guesses"``, ``"state"`` (``"playing"``,
    ``"won"`` or ``"lost"``), ``"map"``, ``"start"`` and ``"layout_seed"``; a step
    adds ``"opened"``, ``"flagged"``, ``"mine_probability"`` and ``"invalid_action"``.

    ## Arguments

    ```python
    >>> import gymnasium as gym
    >>> import minesweep_env  # registers SemiAutoMines-v0
    >>> env = gym.make("SemiAutoMines-v0", board="expert", rule_set="complete")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, info["action_mask"].sum()
    ((11, 16, 30), np.int64(480))

    ```

    - ``board="beginner"``: ``"beginner"``, ``"intermediate"``, ``"expert"`` or
      ``"WIDTHxHEIGHTxMINES"``. Ignored with ``maps``.
    - ``width=None``, ``height=None``, ``mines=None``: override the board's size and mines.
    - ``rule_set="complete"``: the auto-solver's rules, a name in
      ``minesweep_env.RULE_SETS`` or a ``RuleSet``.
    - ``first_click="safe"``: ``"safe"`` moves a mine under the first click,
      ``"zero"`` clears its neighbours too, ``"endoh"`` deletes it, ``"none"`` loses.
    - ``maps=None``: a map file, a folder of ``*.txt`` maps, or a list; one size.
    - ``obs_mode="planes"``: see Observation Space.
    - ``reward="win-loss"``: see Rewards.
    - ``invalid_action_reward=-0.1``: the reward of an invalid action.
    - ``max_steps=None``: truncate after this many steps; ``None`` means ``W * H``.
    - ``info_probability=True``: whether ``info["mine_probability"]`` is computed.
    - ``render_mode=None``: ``"ansi"``, ``"rgb_array"`` or ``"human"``.

    Bad arguments fail when the env is made, naming the argument
    (:class:`~minesweep_env.envs.config.EnvConfig` checks them for this env
    and the vector env alike).

    ```python
    >>> envs = gym.make_vec("SemiAutoMines-v0", num_envs=8, vectorization_mode="sync")
    >>> obs, infos = envs.reset(seed=0)
    >>> infos["action_mask"].shape
    (8, 81)

    ```

    ## Version History
    * v0: Initial version.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}

    def __init__(
        self,
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
        render_mode: str | None = None,
    ):
        config = EnvConfig.from_kwargs(
            board=board,
            width=width,
            height=height,
            mines=mines,
            rule_set=rule_set,
            first_click=first_click,
            maps=maps,
            obs_mode=obs_mode,
            reward=reward,
            invalid_action_reward=invalid_action_reward,
            max_steps=max_steps,
            info_probability=info_probability,
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            known = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"unknown render_mode {render_mode!r}; known: {known}, or None")
        self.config = config
        self.first_click = config.first_click
        self.rule_set = config.rule_set
        self.maps: list[Map] = list(config.maps)
        self.width, self.height, self.mines = config.width, config.height, config.mines
        self.obs_mode = config.obs_mode
        self.reward_mode = config.reward
        self.invalid_action_reward = config.invalid_action_reward
        self.max_steps = config.max_steps
        self.info_probability = config.info_probability
        self.render_mode = render_mode

        self._cells = self.width * self.height
        self.action_space = config.action_space()
        self.observation_space = config.observation_space()

        self.game: Game | None = None
        self._flat_view = np.empty(0, np.int8)  # the game's view, flat (set by reset)
        self._live_board = Board(np.empty((0, 0), np.int8))  # the game's view (set by reset)
        self.map_path: str | None = None
        self.map_start: tuple[int, int] | None = None
        self.layout_seed: int | None = None
        self.steps = 0
        self._probabilities: np.ndarray | None = None
        # complete hands out its last full count: the position the auto-solver left.
        self._probability_plane = ProbabilityPlane(
            self.rule_set.known_weights, self.rule_set.known_probabilities
        )
        self._known_probabilities = self.rule_set.known_probabilities
        # The compiled layout's seed and generator state, and the games' generator (see
        # _random_layout).
        self._seeds = np.empty(1, np.int64)
        self._states = np.empty((1, STATE_WORDS), np.uint64)
        self._game_rng = LayoutGenerator(self._states[0], np.random.default_rng(0))
        # What a new game shows: every action valid and, in "planes" mode, all covered.
        self._all_valid = np.ones(self._cells, dtype=bool)
        self._covered_planes = (
            encode_planes(covered_view(self.width, self.height))
            if self.obs_mode == "planes"
            else None
        )
        self._planes_shape = (len(PLANE_CODES), self.height, self.width)
        # The compiled encoder of "planes" mode, held once loaded (see _observation_and_mask).
        self._encode_view: Callable[[np.ndarray, np.ndarray, np.ndarray], None] | None = None
        self._renderer: Any = None
        self._window: Any = None

    # -- the Gymnasium API ------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game: a random layout, a map, or ``options["map"]`` / ``options["layout"]``.

        Always draws the same numbers from ``np_random`` (the map index when
        there are maps, then the layout seed), used or not, so the layouts of
        later resets do not depend on what happened in this one.
        """
        options = check_reset_options(options)
        super().reset(seed=seed)
        map_index = int(self.np_random.integers(len(self.maps))) if self.maps else 0
        layout_seed = draw_layout_seed(self.np_random)
        # One generator per game, default_rng(layout_seed): the layout is drawn from it
        # first, then the first-click policy draws from it, so the agent's moves never
        # reach np_random.
        self.map_path, self.map_start, self.layout_seed = None, None, None
        game_rng: GeneratorSource
        if "layout" in options or "map" in options or self.maps:
            # Made only if the first click draws: most games never do.
            game_rng = DeferredGenerator(partial(np.random.default_rng, layout_seed))
            if "layout" in options:
                layout = self.config.given_layout(options["layout"])
            elif "map" in options:
                layout = self._play_map(self.config.named_map(options["map"]))
            else:
                layout = self._play_map(self.maps[map_index])
        else:
            self.layout_seed = layout_seed
            layout, game_rng = self._random_layout(layout_seed)
        self.game = Game(
            layout,
            self.rule_set,
            self.first_click,
            seed=game_rng,
            win_rule=WinRule.SAFE_CELLS_OPENED,  # the only rule an agent can always reach
        )
        self.steps = 0
        self._probabilities = None
        view = self.game.minefield.view
        self._flat_view = view.reshape(-1)  # the view's own memory
        # The live view as a Board: the rule set's known floats are looked up on it every
        # step (see _chosen_probability). One Board, pointed at each new game's view.
        self._live_board.grid = view
        # A new game is all covered: every action is valid, and in "planes" mode the
        # observation is always the same one, copied (cheaper than encoding it again).
        info = self._info(self.game, self._all_valid.copy())
        if self.render_mode == "human":
            self.render()
        if self._covered_planes is not None:
            return self._covered_planes.copy(), info
        return self._observation(view), info

    def step(
        self, action: int | np.integer
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Probe the cell ``action`` (``y * W + x``); the auto-solver then plays out its proofs."""
        game = self.game
        if game is None:
            game = self._require_game()  # raises
        index = action_index(action, self._cells)
        self.steps += 1
        minefield = game.minefield
        valid = minefield.state is GameState.PLAYING and self._flat_view[index] == COVERED
        if valid:
            probability = (
                self._chosen_probability(minefield, index) if self.info_probability else np.nan
            )
            state = game.probe(index % self.width, index // self.width)
            won, lost = state is GameState.WON, state is GameState.LOST
            reward = 1.0 if won else -1.0 if lost else 0.0
            if self.reward_mode == "progress":
                # After the probe: an "endoh" first click may have deleted a mine.
                safe_total = minefield.width * minefield.height - minefield.mine_count
                reward += len(game.last_opened) / safe_total if safe_total else 0.0
            terminated = won or lost
            if not lost:  # a loss leaves the view as it was: the probabilities still hold
                self._probabilities = None
            opened_cells, flagged_cells = game.last_opened, game.last_flagged
        elif not self._playing():  # stepping after the end: ignored, as a vector env's reset
            probability = self._probability_of_shown(index)
            reward, terminated = 0.0, True
            opened_cells, flagged_cells = [], []
        else:
            probability = self._probability_of_shown(index)
            reward = self.invalid_action_reward
            terminated = False
            opened_cells, flagged_cells = [], []
        truncated = not terminated and self.steps >= self.max_steps
        observation, mask = self._observation_and_mask(minefield)
        info = self._info(game, mask)
        info["opened"] = opened_cells
        info["flagged"] = flagged_cells
        info["mine_probability"] = probability
        info["invalid_action"] = not valid and not terminated
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """``bool`` (W*H,): ``True`` on valid actions (covered, unflagged cells).

        sb3-contrib's MaskablePPO calls this by name. Once the game is over
        every entry is ``True``: no action changes anything then, and an empty
        mask would break masked samplers (a vector env's autoreset step feeds
        the last mask to the policy before the env resets).
        """
        return self._mask(self._require_game().minefield)

    def render(self) -> str | np.ndarray | None:
        """The position in ``render_mode``: text, an RGB array, or a window (returns None)."""
        if self.render_mode is None:
            gym.logger.warn(
                "render() called without a render_mode; make the env with "
                'render_mode="ansi", "rgb_array" or "human"'
            )
            return None
        game = self._require_game()
        from ..render import render_ansi

        if self.render_mode == "ansi":
            return render_ansi(game, color=True)
        if self._renderer is None:
            from ..render import BoardPainter

            self._renderer = BoardPainter()
        picture = self._renderer.paint(game)
        if self.render_mode == "rgb_array":
            return picture
        self._show(picture, game)
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None

    # -- internals --------------------------------------------------------------------------

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before step(), action_masks() or render()")
        return self.game

    def _playing(self) -> bool:
        assert self.game is not None
        return self.game.state is GameState.PLAYING

    def _random_layout(self, layout_seed: int) -> tuple[MineLayout, GeneratorSource]:
        """``MineLayout.random(W, H, mines, rng)``, ``rng`` being
        ``np.random.default_rng(layout_seed)``, and ``rng`` after that draw.

        Once the kernels are loaded the layout and the generator's state after it come
        from one compiled call, bit for bit
        (:mod:`~minesweep_env.envs.layout_generator_compiled`): making a numpy
        generator costs more than a beginner step, and even restating one costs more
        than the rest of a reset, so ``rng`` is handed back as this env's
        :class:`~.layout_generator.LayoutGenerator`, made only if the first click
        draws. Only the game being played draws from it, and the next reset's layout
        overwrites its state.
        """
        if not kernels_ready():
            rng = np.random.default_rng(layout_seed)
            return MineLayout.random(self.width, self.height, self.mines, rng), rng
        kernels = layout_kernels()
        cells = self._cells
        priorities = np.empty((1, cells), np.int64)
        mines = np.empty((1, cells), bool)
        numbers = np.empty((1, cells), np.int8)
        self._seeds[0] = layout_seed
        kernels.layouts_from_seeds(
            self._seeds, self.mines, self.height, self.width, priorities, mines, numbers,
            self._states,
        )
        shape = (self.height, self.width)
        layout = MineLayout.counted(
            mines.reshape(shape), priorities.reshape(shape), numbers.reshape(shape), self.mines
        )
        return layout, self._game_rng

    def _play_map(self, entry: Map) -> MineLayout:
        self.map_path, self.map_start = entry.path, entry.start
        return entry.layout

    def _mask(self, minefield: Minefield) -> np.ndarray:
        """:meth:`action_masks` of the game being played, whose minefield is ``minefield``."""
        if minefield.state is not GameState.PLAYING:
            return self._all_valid.copy()
        return np.equal(self._flat_view, COVERED)

    def _info(self, game: Game, action_mask: np.ndarray) -> dict[str, Any]:
        """The info keys of ``reset`` and ``step``, with the position's ``action_mask``."""
        return {
            "action_mask": action_mask,
            "guesses": game.guesses,
            "state": _STATE_NAMES[game.minefield.state],
            "map": self.map_path,
            "start": self.map_start,
            "layout_seed": self.layout_seed,
        }

    def _observation_and_mask(self, minefield: Minefield) -> tuple[np.ndarray, np.ndarray]:
        """The observation and :meth:`action_masks` of the game being played.

        In ``"planes"`` mode, once this process has loaded the compiled kernels (the
        probe did), one compiled pass over the view writes both
        (:mod:`~minesweep_env.envs.observations_compiled`): the same arrays as
        the two numpy comparisons, in a third of their time.
        """
        encode = self._encode_view
        if encode is None:
            if self._covered_planes is None or not kernels_loaded():
                return self._observation(minefield.view), self._mask(minefield)
            encode = self._encode_view = view_kernels().encode_view_into
        planes = np.empty(self._planes_shape, np.uint8)
        mask = np.empty(self._cells, bool)
        encode(self._flat_view, planes, mask)
        if minefield.state is not GameState.PLAYING:
            mask.fill(True)
        return planes, mask

    def _observation(self, view: np.ndarray) -> np.ndarray:
        """The observation of ``view``, the view of the game being played."""
        if self.obs_mode == "planes":
            return encode_planes(view)
        if self.obs_mode == "grid":
            return encode_grid(view)
        return encode_planes_with_probabilities(view, self._current_probabilities())

    def _current_probabilities(self) -> np.ndarray:
        """Mine probability of every cell of the current position (cached until it changes)."""
        if self._probabilities is None:
            game = self._require_game()
            minefield = game.minefield
            if game.state is GameState.WON:
                # Every covered cell left is a mine.
                self._probabilities = (minefield.view < 0).astype(np.float64)
            elif minefield.probes == 0:
                self._probabilities = np.full(
                    minefield.view.shape, self._first_click_probability(), dtype=np.float64
                )
            else:
                self._probabilities = self._probability_plane(minefield.board())
        return self._probabilities

    def _first_click_probability(self) -> float:
        """The chance the first probe loses: zero unless the policy is ``none``."""
        if self.first_click is not FirstClick.NONE:
            return 0.0
        return self._require_game().minefield.mine_count / (self.width * self.height)

    def _chosen_probability(self, minefield: Minefield, index: int) -> float:
        """Mine probability of cell ``index`` on the position before the move.

        One cell needs one division, not the whole float plane: the plane is
        built only when the observation shows it (or was built already).
        """
        if self._probabilities is not None or self.obs_mode == "planes+probabilities":
            return float(self._current_probabilities().flat[index])
        if minefield.probes == 0:
            return self._first_click_probability()
        # The rule set's floats of this very position when it has them: the live view
        # is only compared with its record, so it need not be copied.
        board = self._live_board
        board.total_mines = minefield.mine_count  # an "endoh" first click deletes a mine
        known = self._known_probabilities(board)
        if known is not None:
            return known.item(index)  # a Python float, as float() of the element
        return self._probability_plane.probability(minefield.board(), index)

    def _probability_of_shown(self, index: int) -> float:
        """What an invalid action's cell is known to be: a flag is a mine, a number is not."""
        value = self._require_game().minefield.view.flat[index]
        if value == FLAGGED:
            return 1.0
        if value >= 0:
            return 0.0
        return np.nan  # a covered cell after the game ended

    def _show(self, picture: np.ndarray, game: Game) -> None:
        from ..render import Window, render_ansi

        if self._window is None:
            self._window = Window("SemiAutoMines", self.metadata["render_fps"])
        if not self._window.show(picture):
            print(render_ansi(game, color=True), flush=True)
