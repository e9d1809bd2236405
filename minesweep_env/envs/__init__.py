"""Gymnasium environments: thin adapters from the game and its auto-solver to RL agents."""

from __future__ import annotations

from .maps import Map, load_maps, map_paths, maps_by_size
from .observations import OBS_MODES, PLANE_CODES, PLANE_NAMES

ENV_ID = "SemiAutoMines-v0"
ENTRY_POINT = "minesweep_env.envs.semi_auto_mines:SemiAutoMinesEnv"
VECTOR_ENTRY_POINT = "minesweep_env.envs.threaded:make_vector_env"
BOARD_ENV_IDS = {
    "SemiAutoMines-Beginner-v0": "beginner",
    "SemiAutoMines-Intermediate-v0": "intermediate",
    "SemiAutoMines-Expert-v0": "expert",
}
"""Per-board ids: the same env as :data:`ENV_ID` with ``board`` preset (a ``board=`` given to
``gymnasium.make`` still wins)."""


def register_envs() -> None:
    """Register ``SemiAutoMines-v0`` and :data:`BOARD_ENV_IDS` with Gymnasium (idempotent).

    The entry points are strings, so importing :mod:`minesweep_env` does not
    import the env modules until an env is made. ``gymnasium.make_vec`` makes
    the native batched env (``vector_entry_point``) unless told
    ``vectorization_mode="sync"`` or ``"async"``; its ``num_threads=K`` steps shards of
    the boards on K threads (:mod:`minesweep_env.envs.threaded`).

    Registered with ``disable_env_checker=True``: Gymnasium's passive checker checks
    an env's own outputs on its first reset and step, which this env's tests do
    with the full ``check_env``; left on, it is one more wrapper layer on every call
    (a few percent of a beginner game). ``gymnasium.make(..., disable_env_checker=False)``
    puts it back. The order check (``OrderEnforcing``) stays.
    """
    from gymnasium.envs.registration import register, registry

    presets: dict[str, dict[str, str]] = {ENV_ID: {}}
    presets.update({env_id: {"board": board} for env_id, board in BOARD_ENV_IDS.items()})
    for env_id, kwargs in presets.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT,
                disable_env_checker=True,
                kwargs=kwargs,
            )


def __getattr__(name: str):
    # The env class is loaded on first use, keeping ``import minesweep_env`` light.
    if name == "SemiAutoMinesEnv":
        from .semi_auto_mines import SemiAutoMinesEnv

        return SemiAutoMinesEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BOARD_ENV_IDS",
    "ENV_ID",
    "OBS_MODES",
    "PLANE_CODES",
    "PLANE_NAMES",
    "Map",
    "SemiAutoMinesEnv",
    "load_maps",
    "map_paths",
    "maps_by_size",
    "register_envs",
]
