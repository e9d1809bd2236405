"""The vector env's games: each board's generator, and its new games (random, maps, given)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode

from ..compiled import ready as kernels_ready
from ..core.first_click import FirstClick
from ..core.layout import MineLayout
from ..solver.base import RuleSet
from .board_batch import (
    BoardBatch,
    StepArrays,
)
from .config import EnvConfig
from .maps import Map
from .probabilities import ProbabilityPlane
from .semi_auto_mines import draw_layout_seed


class VectorGames:
    """The layer of :class:`~.vector.SemiAutoMinesVectorEnv` that starts games: each
    board's generator (a ``numpy`` object, or words inside the compiled step's
    arrays), the random games drawn together, maps and given layouts board by board."""

    # Set by SemiAutoMinesVectorEnv.__init__; declared here for the layers above.
    config: EnvConfig
    num_envs: int
    width: int
    height: int
    mines: int
    maps: list[Map]
    first_click: FirstClick
    obs_mode: str
    reward_mode: str
    invalid_action_reward: float
    max_steps: int
    info_probability: bool
    autoreset_mode: AutoresetMode
    copy: bool
    rule_sets: list[RuleSet]
    boards: BoardBatch
    steps: np.ndarray
    map_path: np.ndarray
    map_start: np.ndarray
    layout_seed: np.ndarray
    _np_randoms: list[np.random.Generator | None]
    _step_arrays: StepArrays | None
    _generators_in_words: bool
    _maps_shown: bool
    _autoreset: np.ndarray
    _observations: np.ndarray
    _observation_rows: np.ndarray | None
    _masks: np.ndarray
    _covered_planes: np.ndarray
    _probabilities: np.ndarray
    _planes: list[ProbabilityPlane]
    _stale: np.ndarray
    _started: bool
    _coordinates: np.ndarray

    def _board_rng(self, board: int) -> np.random.Generator:
        """Board ``board``'s generator: seeded by ``reset``, or from entropy on first use."""
        generator = self._np_randoms[board]
        if generator is None:
            generator, _ = seeding.np_random()
            self._np_randoms[board] = generator
        arrays = self._step_arrays
        if arrays is not None and arrays.in_words[board]:  # the compiled steps drew from it
            words = arrays.words[board].tolist()
            kept = {"state": _join_words(words[:2]), "inc": _join_words(words[2:])}
            # has_uint32 and uinteger as they were: a raw draw leaves them.
            generator.bit_generator.state = {**generator.bit_generator.state, "state": kept}
            arrays.in_words[board] = False
            self._generators_in_words = False
        return generator

    def _start_games(self, boards: np.ndarray, options: dict[str, Any]) -> None:
        """``SemiAutoMinesEnv.reset`` for each of ``boards``: the same draws, the same layouts.

        The draws are per board (each board has its generator); the random layouts
        then start in one batched call.
        """
        if "layout" in options or "map" in options or self.maps:
            self._start_given_games(boards, options)
        else:
            self._start_random_games(boards)
        self.steps[boards] = 0
        self._stale[boards] = True

    def _start_random_games(self, boards: np.ndarray) -> None:
        """:meth:`_start_games` without maps or given layouts: one seed drawn per board,
        then every layout drawn in one batched call."""
        if not len(boards):
            return
        seeds = self._draw_seeds(boards)
        if kernels_ready():
            self.boards.start_seeded(boards, seeds, self.mines)
            return
        game_rngs = [np.random.default_rng(seed) for seed in seeds.tolist()]
        cells = self.width * self.height
        permutations = np.array([rng.permutation(cells) for rng in game_rngs])
        self.boards.start_random(boards, permutations, self.mines, game_rngs)

    def _draw_seeds(self, boards: np.ndarray) -> np.ndarray:
        """The layout seed of each of ``boards``' new random game, drawn from the board's
        generator as ``SemiAutoMinesEnv.reset`` draws it (:meth:`_new_games_shown` then)."""
        if not len(boards):
            return np.empty(0, dtype=np.int64)
        seeds = np.array(
            [draw_layout_seed(self._board_rng(board)) for board in boards.tolist()], np.int64
        )
        self._new_games_shown(boards, seeds)
        return seeds

    def _new_games_shown(self, boards: np.ndarray, seeds: np.ndarray) -> None:
        """What starting random games from ``seeds`` on ``boards`` changes outside the
        batch: their rule sets reset (as Game does when a game starts), their info
        columns (no map; the seed, as an ``int``: ``MineLayout.random``'s draw from
        ``default_rng(layout_seed)``)."""
        rule_sets = self.rule_sets
        for board in boards.tolist():
            rule_sets[board].reset()
        if self._maps_shown:
            self.map_path[boards] = self.map_start[boards] = None
        self.layout_seed[boards] = seeds  # an int64 array assigned as Python ints

    def _start_given_games(self, boards: np.ndarray, options: dict[str, Any]) -> None:
        """:meth:`_start_games` with a given layout or a map: board by board."""
        for board in boards.tolist():
            np_random = self._board_rng(board)
            map_index = int(np_random.integers(len(self.maps))) if self.maps else 0
            layout_seed = draw_layout_seed(np_random)
            self.map_path[board] = self.map_start[board] = self.layout_seed[board] = None
            self.rule_sets[board].reset()  # as Game does when a game starts
            game_rng = np.random.default_rng(layout_seed)
            if "layout" in options:
                layout = self.config.given_layout(options["layout"])
            elif "map" in options:
                layout = self._play_map(board, self.config.named_map(options["map"]))
            else:
                layout = self._play_map(board, self.maps[map_index])
            self.boards.start(board, layout, game_rng)

    def _compiled_arrays(self) -> StepArrays:
        """The compiled step's arrays (made on first use), every board's generator in them."""
        arrays = self._step_arrays
        if arrays is None:
            assert self._observation_rows is not None  # _steps_compiled asked
            arrays = self._step_arrays = StepArrays(
                self._observation_rows,
                self._masks,
                self.steps,
                self._stale,
                mine_count=self.mines,
                invalid_reward=float(self.invalid_action_reward),
                first_click=self.first_click,
                info_probability=self.info_probability,
                progress=self.reward_mode == "progress",
                planes=self.obs_mode == "planes",
                max_steps=self.max_steps,
            )
        if not self._generators_in_words:
            for board in np.flatnonzero(~arrays.in_words).tolist():
                state = self._board_rng(board).bit_generator.state["state"]
                arrays.words[board] = _split_words(state["state"]) + _split_words(state["inc"])
                arrays.in_words[board] = True
            self._generators_in_words = True
        return arrays

    def _play_map(self, board: int, entry: Map) -> MineLayout:
        self._maps_shown = True
        self.map_path[board], self.map_start[board] = entry.path, entry.start
        return entry.layout


_LOW_WORD = (1 << 64) - 1


def _split_words(value: int) -> list[int]:
    """A 128-bit generator state or increment as its high and low 64-bit words."""
    return [value >> 64, value & _LOW_WORD]


def _join_words(words: list[int]) -> int:
    """:func:`_split_words` undone."""
    return (words[0] << 64) | words[1]
