"""The Ray backend's former address: it lives in :mod:`.backends.ray`."""

from .backends.ray import RayBackend, play_games, split_address

__all__ = ["RayBackend", "play_games", "split_address"]
