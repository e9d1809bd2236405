"""Where a run's chunks are played: processes of this machine, or a Ray cluster.

:mod:`.base` says what a backend is, :mod:`.local` plays on this machine and
:mod:`.ray` on a Ray cluster; the Ray backend is imported only when asked for,
so the local backend never needs Ray installed.
"""

from __future__ import annotations

from .base import BACKENDS, Backend, BackendError
from .local import LOCAL_CHUNK_GAMES, LocalBackend


def make_backend(name: str, workers: int | None, address: str | None = None) -> Backend:
    """The backend ``--backend NAME`` asks for.

    :param workers: local processes; for Ray, the CPUs of the Ray it starts, or,
        joining a cluster at ``address``, the most chunks played at once
        (``None``: every CPU of the cluster).
    """
    if name == "local":
        if address is not None:
            raise BackendError("--ray-address needs --backend ray")
        return LocalBackend(workers or 1)
    if name == "ray":
        from .ray import RayBackend

        return RayBackend(address=address, workers=workers)
    raise BackendError(f"unknown backend {name!r} (choose from {', '.join(BACKENDS)})")


__all__ = [
    "BACKENDS",
    "LOCAL_CHUNK_GAMES",
    "Backend",
    "BackendError",
    "LocalBackend",
    "make_backend",
]
