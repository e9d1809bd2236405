"""Jumanji 1.1.2 ``Minesweeper-v0`` (JAX), jit-compiled and vmapped over a batch of boards, CPU.

One step reveals one cell: no flood fill of zero areas, no inference, no safe
first click; a game ends on a mine, on a repeated cell, or when every safe cell
is revealed. The random masked agent draws uniformly among covered cells with
``jax.random.categorical``; Jumanji's own ``VmapAutoResetWrapper`` starts a new
game where one ended. ``steps_per_call`` steps of the whole batch run inside
one compiled ``lax.scan``, so Python is out of the loop.
"""

from __future__ import annotations

import time

from minesweep_env import STANDARD_BOARDS

from . import require_module


class RandomGames:
    """``num_envs`` boards stepped together by one compiled function."""

    def __init__(self, board: str, num_envs: int = 64, steps_per_call: int = 64, seed: int = 0):
        jax = require_module("jax", "jumanji 1.1.2 (with jax)")
        jumanji = require_module("jumanji", "jumanji 1.1.2")
        from jumanji.environments.logic.minesweeper.generator import UniformSamplingGenerator
        from jumanji.wrappers import VmapAutoResetWrapper

        jnp = jax.numpy
        width, height, mines = STANDARD_BOARDS[board]
        generator = UniformSamplingGenerator(num_rows=height, num_cols=width, num_mines=mines)
        env = VmapAutoResetWrapper(jumanji.make("Minesweeper-v0", generator=generator))
        self.jax = jax
        self.num_envs = num_envs
        self.steps_per_call = steps_per_call

        def one_step(carry, _):
            state, timestep, key = carry
            key, draw = jax.random.split(key)
            mask = timestep.observation.action_mask.reshape(num_envs, -1)
            cell = jax.random.categorical(draw, jnp.where(mask, 0.0, -jnp.inf))
            action = jnp.stack([cell // width, cell % width], axis=-1).astype(jnp.int32)
            state, timestep = env.step(state, action)
            return (state, timestep, key), timestep.last().sum()

        @jax.jit
        def run(carry):
            carry, ended = jax.lax.scan(one_step, carry, None, length=steps_per_call)
            return carry, ended.sum()

        key, start = jax.random.split(jax.random.PRNGKey(seed))
        state, timestep = env.reset(jax.random.split(start, num_envs))
        self.carry = (state, timestep, key)
        self.run = run
        began = time.perf_counter()
        self.carry, games = run(self.carry)  # compiles
        games.block_until_ready()
        self.compile_seconds = time.perf_counter() - began

    def play(self, cpu_seconds: float) -> tuple[int, int, int]:
        """Compiled batches until ``cpu_seconds`` of process time pass: (games, steps, wins);
        wins are not counted (-1): the wrapper hides the final board."""
        games = steps = 0
        deadline = time.process_time() + cpu_seconds
        while time.process_time() < deadline:
            self.carry, ended = self.run(self.carry)
            games += int(ended)  # waits for the batch
            steps += self.num_envs * self.steps_per_call
        return games, steps, -1
