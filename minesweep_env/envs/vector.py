"""The native vector env of ``SemiAutoMines-v0``: N boards stepped together in one process."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..compiled import loaded as kernels_loaded
from ..compiled import ready as kernels_ready
from ..core.board_spec import MAX_BATCH_CELLS, as_count
from ..core.cells import COVERED, FLAGGED
from ..core.first_click import FirstClick
from ..core.layout import MineLayout
from ..core.minefield import WinRule
from ..solver.base import RuleSet
from .board_batch import (
    LOST,
    PLAYING,
    WON,
    BoardBatch,
    Changes,
    StepArrays,
    batch_kernels,
    step_kernels,
)
from .checks import RESET_OPTIONS, check_reset_mask, check_reset_options, vector_actions
from .config import EnvConfig
from .maps import Map, MapSource
from .observations import PLANE_CODES, PROBABILITY_PLANE
from .probabilities import ProbabilityPlane
from .semi_auto_mines import draw_layout_seed, view_kernels
from .vector_info import STATE_NAMES, changed_cells, coordinate_table, pack_infos

_CODES = PLANE_CODES[:, None, None]


class SemiAutoMinesVectorEnv(VectorEnv):
    """``num_envs`` games of ``SemiAutoMines-v0`` in one batched core.

    ``gymnasium.make_vec("SemiAutoMines-v0", num_envs=N)`` makes this env (the
    ``vector_entry_point``; ``"sync"`` and ``"async"`` still make a sync / async
    vector env of :class:`SemiAutoMinesEnv`). It takes the single env's
    arguments, checked by the same :class:`~minesweep_env.envs.config.EnvConfig`,
    plus ``num_envs``, ``autoreset_mode`` and ``copy``; ``docs/environment.md``
    describes it in full.

    Its outputs are those of ``SyncVectorEnv`` over ``SemiAutoMinesEnv``, board
    for board: ``reset(seed=S)`` seeds board i with ``S + i``, and the same
    actions give the same observations, rewards, terminations, truncations,
    masks and ``info`` values. The N views live in one
    :class:`~minesweep_env.envs.board_batch.BoardBatch`, so probes, floods and
    the solver's flags and openings take all boards in one call, and the
    outputs are written into preallocated arrays; the rule sets' proofs stay
    per board (one instance per board for a named rule set, as each sub-env of
    a sync env has its own).

    - **Autoreset**: ``AutoresetMode.NEXT_STEP`` (the default) resets a finished
      board on the next step, ignoring its action; ``SAME_STEP`` resets it in the
      step that finished it, with ``info["final_obs"]`` and ``info["final_info"]``.
      ``reset(options={"reset_mask": m})`` resets the boards where ``m`` is True.
    - **Info**: the single env's keys, each beside its ``"_key"`` mask;
      ``"opened"`` and ``"flagged"`` in row-major order.
    - **Copies**: ``copy=False`` returns the observation buffer itself, which
      the next ``step`` or ``reset`` overwrites.
    - **Driven wrongly**: ``step`` before ``reset`` raises ``RuntimeError``;
      actions that are not ``num_envs`` integers in ``0..W*H-1`` raise
      ``ValueError``. ``num_envs * W * H`` is at most
      :data:`~minesweep_env.core.board_spec.MAX_BATCH_CELLS` cells.
    - **Threads**: ``make_vec(..., num_threads=K)`` makes a
      :class:`~minesweep_env.envs.threaded.ThreadedVectorEnv` of K shards instead.

    ``env.boards`` is the batch; ``env.action_masks()`` the current masks.
    Rendering is not supported: use a sync vector env.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
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
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        render_mode: str | None = None,
    ):
        if render_mode is not None:
            raise ValueError(
                "the native vector env does not render; make the vector env with "
                'vectorization_mode="sync" to render'
            )
        num_envs = as_count(num_envs, "num_envs")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP")
        # One settings object checks the arguments and says what they mean (size,
        # spaces, rules): every board plays by it.
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
        batch_cells = num_envs * config.cells
        if batch_cells > MAX_BATCH_CELLS:
            raise ValueError(
                f"num_envs={num_envs} boards of {config.width}x{config.height} are "
                f"{batch_cells:,} cells, more than the batch limit of {MAX_BATCH_CELLS:,}"
            )
        self.config = config
        self.num_envs = num_envs
        self.width, self.height, self.mines = config.width, config.height, config.mines
        self.maps: list[Map] = list(config.maps)
        self.first_click: FirstClick = config.first_click
        self.obs_mode = config.obs_mode
        self.reward_mode = config.reward
        self.invalid_action_reward = config.invalid_action_reward
        self.max_steps = config.max_steps
        self.info_probability = config.info_probability
        self.copy = bool(copy)
        self.render_mode = None
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}

        self.single_action_space = config.action_space()
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = config.observation_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

        # A name gives every board its own rule set, as every sync sub-env makes its
        # own; an instance is shared, as make_vec hands the same one to every sub-env.
        self.rule_sets = [config.rule_set] + [
            config.board_rule_set() for _ in range(self.num_envs - 1)
        ]
        # The env's win rule, as SemiAutoMinesEnv's game: the board's state is the one verdict.
        self.boards = BoardBatch(
            self.num_envs, self.width, self.height, self.first_click, WinRule.SAFE_CELLS_OPENED
        )
        n = self.num_envs
        self._planes = [
            ProbabilityPlane(rules.known_weights, rules.known_probabilities)
            for rules in self.rule_sets
        ]
        self._np_randoms: list[np.random.Generator | None] = [None] * n
        # The compiled steps' arrays (made on first use); each board's generator lives in
        # their words once a compiled step drew from it (_board_rng brings it back).
        self._step_arrays: StepArrays | None = None
        self._generators_in_words = False
        self._maps_shown = False  # a board played a map since the env was made
        self.steps = np.zeros(n, dtype=np.int64)
        self.map_path = np.full(n, None, dtype=object)
        self.map_start = np.full(n, None, dtype=object)
        self.layout_seed = np.full(n, None, dtype=object)
        self._autoreset = np.zeros(n, dtype=bool)
        space = self.observation_space
        assert space.shape is not None and space.dtype is not None  # a Box has both
        self._observations: np.ndarray = np.zeros(space.shape, space.dtype)
        # The observations as the compiled step writes them: a byte row per board (the
        # planes, or the grid's int8 codes as bytes); None where it does not write them.
        self._observation_rows: np.ndarray | None = None
        if self.obs_mode in ("planes", "grid"):
            self._observation_rows = self._observations.reshape(n, -1).view(np.uint8)
        self._masks = np.ones((n, self.width * self.height), dtype=bool)
        # A new game's planes (all covered), written where a board restarts.
        covered = np.full((1, self.height, self.width), COVERED, np.int8)
        self._covered_planes = np.equal(covered, _CODES).astype(np.uint8)
        # The mine-probability planes (planes+probabilities only), recomputed where stale.
        self._probabilities = np.zeros((n, self.height, self.width), dtype=np.float64)
        self._stale = np.ones(n, dtype=bool)
        self._started = False
        self._coordinates = coordinate_table(self.width, self.height)

    # -- the Gymnasium API ------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games on every board (or on ``options["reset_mask"]``'s), seeded as a sync env.

        ``seed=S`` seeds board i with ``S + i``; a list gives one seed (or
        ``None``) per board; ``None`` goes on with each board's generator.
        ``options["map"]`` and ``options["layout"]`` apply to every board reset.
        """
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(
                    f"If seeds are passed as a list the length must match num_envs={n} "
                    f"but got length={len(seeds)}."
                )
        options = check_reset_options(options, (*RESET_OPTIONS, "reset_mask"))
        reset_mask = options.pop("reset_mask", None)
        if reset_mask is None:
            reset_mask = np.ones(n, dtype=bool)
        else:
            check_reset_mask(reset_mask, n, self._started)
        for board in np.flatnonzero(reset_mask):
            if seeds[board] is not None:
                self._np_randoms[board], _ = seeding.np_random(seeds[board])
                if self._step_arrays is not None:  # the new generator is the board's now
                    self._step_arrays.in_words[board] = False
                    self._generators_in_words = False
        self._start_games(np.flatnonzero(reset_mask), options)
        self._started = True
        self._autoreset[reset_mask] = False
        self._update_masks()
        self._encode()
        return self._observation_batch(), self._pack(self._reset_columns(), reset_mask)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Probe ``actions[i]`` on board i (a board that ended last step is reset instead)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        n, cells = self.num_envs, self.width * self.height
        actions = vector_actions(actions, n)
        if self._steps_compiled():  # it checks the actions' range itself
            return self._step_compiled(actions)
        if ((actions < 0) | (actions >= cells)).any():
            raise ValueError(f"actions {actions} are outside Discrete({cells})")
        actions = actions.astype(np.int64)

        restarting = self._autoreset.copy()
        stepping = ~restarting
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        step_columns, probed, changes = self._play(
            np.flatnonzero(stepping), actions, rewards, terminated
        )
        truncated[stepping] = ~terminated[stepping] & (self.steps[stepping] >= self.max_steps)
        restarted = np.flatnonzero(restarting)
        self._start_games(restarted, {})
        self._show(restarted, probed, changes)
        return self._step_outputs(stepping, step_columns, rewards, terminated, truncated, None)

    def _step_outputs(
        self,
        stepping: np.ndarray,
        step_columns: dict[str, np.ndarray],
        rewards: np.ndarray,
        terminated: np.ndarray,
        truncated: np.ndarray,
        compiled: StepArrays | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The end of :meth:`step` once the boards ``stepping`` (a mask) are played: the
        ``SAME_STEP`` autoreset's last observations and new games, then the info.

        ``compiled``: the compiled step's outputs, whose kernel starts the new games."""
        n = self.num_envs
        done = terminated | truncated
        final: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.SAME_STEP and done.any():
            final_obs = np.full(n, None, dtype=object)
            for board in np.flatnonzero(done):
                final_obs[board] = self._observations[board].copy()
            final_info = self._pack({**self._reset_columns(), **step_columns}, done)
            final = {"final_obs": final_obs, "_final_obs": done, "final_info": final_info}
            final["_final_info"] = done.copy()
            restarted = np.flatnonzero(done)
            if compiled is None:
                self._start_games(restarted, {})
                self._show(restarted)
            else:
                self.boards.restart_compiled(restarted, compiled)
                self._new_games_shown(restarted, compiled.seeds[: len(restarted)])
            stepping &= ~done
        infos = self._pack(self._reset_columns(), np.ones(n, dtype=bool))
        infos.update(final)
        if stepping.any():
            infos.update(self._pack(step_columns, stepping))
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self._autoreset = done
        return self._observation_batch(), rewards, terminated, truncated, infos

    def _steps_compiled(self) -> bool:
        """Whether :meth:`_step_compiled` plays this step: the kernels loaded, an observation
        the kernel writes, random games only, every board's rule set played compiled."""
        return (
            self._observation_rows is not None
            and not self.maps
            and kernels_ready()
            and self.boards.all_play_compiled(self.rule_sets)
        )

    def _step_compiled(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`step` in one compiled call (:meth:`BoardBatch.step_compiled`): the same
        outputs, without a numpy pass per output or a Python call per new game."""
        n = self.num_envs
        arrays = self._compiled_arrays()
        arrays.actions = actions.astype(np.int64)  # C, writable: the type the kernel takes
        restarting = arrays.restarting = self._autoreset
        rewards = arrays.rewards = np.zeros(n, dtype=np.float64)
        terminated = arrays.terminated = np.zeros(n, dtype=bool)
        truncated = arrays.truncated = np.zeros(n, dtype=bool)
        probability = arrays.probability = np.zeros(n, dtype=np.float64)
        invalid_action = arrays.invalid = np.zeros(n, dtype=bool)
        status, count, restarts, changes = self.boards.step_compiled(arrays, self.rule_sets, 0, 0)
        if status == step_kernels().BAD_ACTION:
            raise ValueError(f"actions {actions} are outside Discrete({self.width * self.height})")
        probed = arrays.probed[:count]
        if changes is None:  # paused: the chances and first clicks Python finds, then on
            rest = arrays.rest[:count]
            cells = arrays.probed_cells[:count]
            for board, cell in zip(probed[rest].tolist(), cells[rest].tolist(), strict=True):
                probability[board] = self._chosen_probability(board, cell)
            self.boards.first_clicks_python(probed, cells)
            status, count, restarts, changes = self.boards.step_compiled(
                arrays, self.rule_sets, 1, count
            )
            assert changes is not None  # the second phase plays every probe
        if restarts:
            self._new_games_shown(arrays.restarted[:restarts], arrays.seeds[:restarts])
        opened, flagged = self._changed_cells(invalid_action, probed, changes)
        step_columns = {
            "opened": opened,
            "flagged": flagged,
            "mine_probability": probability,
            "invalid_action": invalid_action,
        }
        return self._step_outputs(~restarting, step_columns, rewards, terminated, truncated, arrays)

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

    def share_buffers(self, observations: np.ndarray, masks: np.ndarray) -> None:
        """Write the observations and masks into ``observations`` and ``masks`` (C-ordered
        arrays of this env's shapes, typically rows of a larger env's buffers:
        :class:`~minesweep_env.envs.threaded.ThreadedVectorEnv`'s shards). Before the
        first ``reset``."""
        if self._started:
            raise RuntimeError("share_buffers comes before the first reset")
        if observations.shape != self._observations.shape or masks.shape != self._masks.shape:
            raise ValueError("the shared buffers must have this env's shapes")
        assert observations.flags.c_contiguous and masks.flags.c_contiguous
        self._observations, self._masks = observations, masks
        if self._observation_rows is not None:
            self._observation_rows = observations.reshape(self.num_envs, -1).view(np.uint8)

    def action_masks(self) -> np.ndarray:
        """``bool`` (N, W*H): the valid actions of every board (all True on a finished one).

        sb3-contrib's MaskablePPO reads the same through
        :class:`minesweep_env.envs.sb3_vec.SemiAutoMinesSB3VecEnv`.
        """
        return self._masks.copy()

    def close(self, **kwargs: Any) -> None:
        """Nothing to release: no processes, no windows."""
        self.closed = True

    # -- games ------------------------------------------------------------------------------

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

    def _play(
        self,
        stepping: np.ndarray,
        actions: np.ndarray,
        rewards: np.ndarray,
        terminated: np.ndarray,
    ) -> tuple[dict[str, np.ndarray], np.ndarray, Changes]:
        """``SemiAutoMinesEnv.step`` on the boards ``stepping``; returns the step-only info,
        the boards probed and the cells the probes changed on them.

        Writes the rewards and terminations of those boards. Every one of them
        is playing: a finished board is reset before it is stepped again.
        """
        n = self.num_envs
        boards = self.boards
        probability = np.zeros(n, dtype=np.float64)
        invalid_action = np.zeros(n, dtype=bool)
        if kernels_loaded() and self.obs_mode != "planes+probabilities":
            probed, probed_cells = self._read_actions_compiled(
                stepping, actions, rewards, probability, invalid_action
            )
        else:
            probed, probed_cells = self._read_actions(
                stepping, actions, rewards, probability, invalid_action
            )

        changes = boards.probe_and_autosolve(probed, probed_cells, self.rule_sets)
        won = boards.state[probed] == WON
        lost = boards.state[probed] == LOST
        terminated[probed] = won | lost
        rewards[probed] = np.where(won, 1.0, np.where(lost, -1.0, 0.0))
        if self.reward_mode == "progress":
            # After the probe: an "endoh" first click may have deleted a mine.
            safe_total = self.width * self.height - boards.mine_count[probed]
            share = changes.opened_counts() / np.maximum(safe_total, 1)
            rewards[probed] += np.where(safe_total > 0, share, 0.0)
        # A loss leaves the view as it was: its probabilities still hold.
        self._stale[probed[~lost]] = True
        opened, flagged = self._changed_cells(invalid_action, probed, changes)
        columns = {
            "opened": opened,
            "flagged": flagged,
            "mine_probability": probability,
            "invalid_action": invalid_action,
        }
        return columns, probed, changes

    def _read_actions_compiled(
        self,
        stepping: np.ndarray,
        actions: np.ndarray,
        rewards: np.ndarray,
        probability: np.ndarray,
        invalid_action: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_read_actions` by the compiled
        :func:`~minesweep_env.envs.board_batch_compiled.read_actions`: actions
        sorted and their chances read in one pass; a chance not at hand there (a board
        whose rounds Python played) board by board (:meth:`_chosen_probability`)."""
        boards = self.boards
        probed = np.empty(len(stepping), dtype=np.int64)
        probed_cells = np.empty(len(stepping), dtype=np.int64)
        rest = np.empty(len(stepping), dtype=bool)
        count = batch_kernels().read_actions(
            boards.view,
            boards.probes,
            boards.settled,
            boards.probabilities,
            boards.mine_count,
            self.first_click is FirstClick.NONE,
            stepping,
            actions,
            self.steps,
            rewards,
            float(self.invalid_action_reward),
            probed,
            probed_cells,
            probability,
            rest,
            invalid_action,
        )
        probed, probed_cells, rest = probed[:count], probed_cells[:count], rest[:count]
        if not self.info_probability:
            probability[probed] = np.nan
        elif rest.any():
            for board, cell in zip(probed[rest].tolist(), probed_cells[rest].tolist(), strict=True):
                probability[board] = self._chosen_probability(board, cell)
        return probed, probed_cells

    def _read_actions(
        self,
        stepping: np.ndarray,
        actions: np.ndarray,
        rewards: np.ndarray,
        probability: np.ndarray,
        invalid_action: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:func:`~minesweep_env.envs.board_batch_compiled.read_actions` in numpy
        (no kernels loaded, or the probability plane observed): returns the boards probed
        and their cells; writes the steps, the chances, the invalid actions' rewards."""
        n = self.num_envs
        boards = self.boards
        cells = actions[stepping]
        self.steps[stepping] += 1
        shown = boards.view[stepping, cells]
        valid = shown == COVERED
        probed, probed_cells = stepping[valid], cells[valid]
        invalid = stepping[~valid]
        if self.info_probability:
            # Gathered for all boards at once where the answer is at hand: a first probe's
            # chance, the compiled auto-solver's floats of a settled board, or the plane
            # just observed; the rest board by board (:meth:`_chosen_probability`).
            if self.obs_mode == "planes+probabilities":
                planes = self._probabilities.reshape(n, -1)
                probability[probed] = planes[probed, probed_cells]
                rest = np.zeros(len(probed), dtype=bool)
            else:
                first = boards.probes[probed] == 0
                starting = probed[first]
                probability[starting] = self._first_click_probabilities(starting)
                gather = boards.settled[probed] & ~first
                read, read_cells = probed[gather], probed_cells[gather]
                probability[read] = boards.probabilities[read, read_cells]
                rest = ~first & ~gather
            for board, cell in zip(probed[rest].tolist(), probed_cells[rest].tolist(), strict=True):
                probability[board] = self._chosen_probability(board, cell)
        else:
            probability[probed] = np.nan
        # What an invalid action's cell is known to be: a flag is a mine, a number is not.
        probability[invalid] = np.where(shown[~valid] == FLAGGED, 1.0, 0.0)
        rewards[invalid] = self.invalid_action_reward
        invalid_action[invalid] = True
        return probed, probed_cells

    def _changed_cells(
        self, invalid: np.ndarray, probed: np.ndarray, changes: Changes
    ) -> tuple[np.ndarray, np.ndarray]:
        """``info["opened"]`` and ``info["flagged"]`` (:func:`.vector_info.changed_cells`)."""
        return changed_cells(self._coordinates, self.num_envs, invalid, probed, changes)

    def _chosen_probability(self, board: int, cell: int) -> float:
        """Mine probability of ``cell`` on ``board``'s position before the move (as the env's)."""
        if self.obs_mode == "planes+probabilities":
            return float(self._probabilities[board].flat[cell])  # the plane just observed
        if self.boards.probes[board] == 0:
            return self._first_click_probability(board)
        if self.boards.settled[board]:  # the compiled auto-solver's full count of this position
            return float(self.boards.probabilities[board, cell])
        return self._planes[board].probability(self.boards.board(board), cell)

    def _first_click_probability(self, board: int) -> float:
        """:meth:`_first_click_probabilities` of one board."""
        return float(self._first_click_probabilities(np.array([board]))[0])

    def _first_click_probabilities(self, boards: np.ndarray) -> np.ndarray:
        """The chance each of ``boards``' first probe loses: zero unless the policy is
        ``none``, else its mines over its cells (two exact integers divided once)."""
        if self.first_click is not FirstClick.NONE:
            return np.zeros(len(boards), dtype=np.float64)
        return self.boards.mine_count[boards] / (self.width * self.height)

    def _probability_plane(self, board: int) -> np.ndarray:
        """``SemiAutoMinesEnv._current_probabilities`` of one board, (H, W) float64."""
        view = self.boards.view[board].reshape(self.height, self.width)
        if self.boards.state[board] == WON:
            return (view < 0).astype(np.float64)  # every covered cell left is a mine
        if self.boards.probes[board] == 0:
            return np.full(view.shape, self._first_click_probability(board), dtype=np.float64)
        return self._planes[board](self.boards.board(board))

    # -- maps ----------------------------------------------------------------------------

    def _play_map(self, board: int, entry: Map) -> MineLayout:
        self._maps_shown = True
        self.map_path[board], self.map_start[board] = entry.path, entry.start
        return entry.layout

    # -- the batched outputs ----------------------------------------------------------------

    def _verdicts(self) -> np.ndarray:
        """The env's verdict per board: the batched game's state (won, lost or playing)."""
        return self.boards.state

    def _show(
        self,
        restarted: np.ndarray,
        probed: np.ndarray | None = None,
        changes: Changes | None = None,
    ) -> None:
        """Masks and observations after a step: boards ``restarted`` all covered, and on the
        boards ``probed`` the cells ``changes`` lists (the rest of the batch is as it was).

        In ``"planes"`` mode with the kernels loaded only those cells are written
        (:func:`~minesweep_env.envs.observations_compiled.show_changes`); else every
        board is encoded again.
        """
        if self.obs_mode != "planes" or not kernels_loaded():
            self._update_masks()
            self._encode()
            return
        if len(restarted):
            self._observations[restarted] = self._covered_planes
            self._masks[restarted] = True
        if changes is not None and probed is not None and len(probed):
            view_kernels().show_changes(
                self.boards.view,
                self._observations,
                self._masks,
                self.boards.state,
                PLAYING,
                np.ascontiguousarray(probed, dtype=np.int64),
                changes.opened,
                changes.opened_ends,
                changes.flagged,
                changes.flagged_ends,
            )

    def _update_masks(self) -> None:
        np.equal(self.boards.view, COVERED, out=self._masks)
        self._masks[self._verdicts() != PLAYING] = True

    def _encode(self) -> None:
        """The observations of every board, written into the preallocated buffer."""
        shape = (self.num_envs, self.height, self.width)
        view = self.boards.view.reshape(shape)
        out = self._observations
        if self.obs_mode == "planes":
            np.equal(view[:, None], _CODES, out=out.view(bool))
        elif self.obs_mode == "grid":
            out[:] = view
        else:
            for board in np.flatnonzero(self._stale):
                self._probabilities[board] = self._probability_plane(int(board))
            self._stale[:] = False
            np.equal(view[:, None], _CODES, out=out[:, :PROBABILITY_PLANE], casting="unsafe")
            out[:, PROBABILITY_PLANE] = self._probabilities

    def _observation_batch(self) -> np.ndarray:
        return self._observations.copy() if self.copy else self._observations

    def _reset_columns(self) -> dict[str, np.ndarray]:
        """The info every board reports on reset and step, one array per key."""
        return {
            "action_mask": self._masks.copy(),
            "guesses": self.boards.guesses.copy(),
            "state": STATE_NAMES[self._verdicts()],
            "map": self.map_path.copy(),
            "start": self.map_start.copy(),
            "layout_seed": self.layout_seed.copy(),
        }

    @staticmethod
    def _pack(columns: dict[str, np.ndarray], present: np.ndarray) -> dict[str, Any]:
        """Gymnasium's vector info (:func:`.vector_info.pack_infos`)."""
        return pack_infos(columns, present)


_LOW_WORD = (1 << 64) - 1


def _split_words(value: int) -> list[int]:
    """A 128-bit generator state or increment as its high and low 64-bit words."""
    return [value >> 64, value & _LOW_WORD]


def _join_words(words: list[int]) -> int:
    """:func:`_split_words` undone."""
    return (words[0] << 64) | words[1]
