"""The native vector env of ``SemiAutoMines-v0``: N boards stepped together in one process."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.board_spec import MAX_BATCH_CELLS, as_count
from ..core.minefield import WinRule
from ..solver.base import RuleSet
from .board_batch import BoardBatch
from .checks import RESET_OPTIONS, check_reset_mask, check_reset_options, vector_actions
from .config import EnvConfig
from .maps import MapSource
from .probabilities import ProbabilityPlane
from .vector_info import coordinate_table
from .vector_outputs import covered_planes
from .vector_step import VectorStep


class SemiAutoMinesVectorEnv(VectorStep, VectorEnv):
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

    The env is written in layers, one module each: its games (:mod:`.vector_games`),
    its outputs (:mod:`.vector_outputs`), its step (:mod:`.vector_step`), and here
    its settings, spaces and the Gymnasium API.
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
        _check_batch_cells(num_envs, config)
        self._settle(config, num_envs, copy)
        self._make_spaces(config)
        self._make_games(config)
        self._make_outputs()

    def _settle(self, config: EnvConfig, num_envs: int, copy: bool) -> None:
        """The env's settings, read off ``config`` (every board plays by it)."""
        self.config = config
        self.num_envs = num_envs
        self.width, self.height, self.mines = config.width, config.height, config.mines
        self.maps = list(config.maps)
        self.first_click = config.first_click
        self.obs_mode = config.obs_mode
        self.reward_mode = config.reward
        self.invalid_action_reward = config.invalid_action_reward
        self.max_steps = config.max_steps
        self.info_probability = config.info_probability
        self.copy = bool(copy)
        self.render_mode = None
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}

    def _make_spaces(self, config: EnvConfig) -> None:
        """The single env's action and observation spaces, and their batches."""
        self.single_action_space = config.action_space()
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = config.observation_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

    def _make_games(self, config: EnvConfig) -> None:
        """The batch, the rule sets and each board's generator and game columns."""
        n = self.num_envs
        # A name gives every board its own rule set, as every sync sub-env makes its
        # own; an instance is shared, as make_vec hands the same one to every sub-env.
        self.rule_sets = [config.rule_set] + [config.board_rule_set() for _ in range(n - 1)]
        # The env's win rule, as SemiAutoMinesEnv's game: the board's state is the one verdict.
        self.boards = BoardBatch(
            n, self.width, self.height, self.first_click, WinRule.SAFE_CELLS_OPENED
        )
        self._planes = [
            ProbabilityPlane(rules.known_weights, rules.known_probabilities)
            for rules in self.rule_sets
        ]
        self._np_randoms = [None] * n
        # The compiled steps' arrays (made on first use); each board's generator lives in
        # their words once a compiled step drew from it (_board_rng brings it back).
        self._step_arrays = None
        self._generators_in_words = False
        self._maps_shown = False  # a board played a map since the env was made
        self.steps = np.zeros(n, dtype=np.int64)
        self.map_path = np.full(n, None, dtype=object)
        self.map_start = np.full(n, None, dtype=object)
        self.layout_seed = np.full(n, None, dtype=object)
        self._autoreset = np.zeros(n, dtype=bool)
        self._started = False

    def _make_outputs(self) -> None:
        """The preallocated observations, masks and probability planes."""
        n = self.num_envs
        space = self.observation_space
        assert space.shape is not None and space.dtype is not None  # a Box has both
        self._observations = np.zeros(space.shape, space.dtype)
        # The observations as the compiled step writes them: a byte row per board (the
        # planes, or the grid's int8 codes as bytes); None where it does not write them.
        self._observation_rows = None
        if self.obs_mode in ("planes", "grid"):
            self._observation_rows = self._observations.reshape(n, -1).view(np.uint8)
        self._masks = np.ones((n, self.width * self.height), dtype=bool)
        # A new game's planes (all covered), written where a board restarts.
        self._covered_planes = covered_planes(self.height, self.width)
        # The mine-probability planes (planes+probabilities only), recomputed where stale.
        self._probabilities = np.zeros((n, self.height, self.width), dtype=np.float64)
        self._stale = np.ones(n, dtype=bool)
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


def _check_batch_cells(num_envs: int, config: EnvConfig) -> None:
    """Refuse a batch of more cells than :data:`MAX_BATCH_CELLS`."""
    batch_cells = num_envs * config.cells
    if batch_cells > MAX_BATCH_CELLS:
        raise ValueError(
            f"num_envs={num_envs} boards of {config.width}x{config.height} are "
            f"{batch_cells:,} cells, more than the batch limit of {MAX_BATCH_CELLS:,}"
        )
