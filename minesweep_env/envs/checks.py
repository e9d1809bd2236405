"""Checks of what a caller hands the envs: actions and ``reset`` options.

Both envs (the single one and the native vector env) refuse bad input with
an error that names it, instead of letting ``int()`` or a silently ignored
option turn it into some other game.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

RESET_OPTIONS = ("layout", "map")
"""The ``reset(options=...)`` keys the env reads; any other key is refused."""

_BOOLS = (bool, np.bool_)


def action_index(action: Any, cells: int) -> int:
    """The cell index an action names, or a clear error for anything but an integer.

    Python and numpy integers of every width (and 0-d integer arrays) are
    actions; a bool, a float (even ``3.0``), a string or an array of several
    values is not, because ``int()`` would quietly turn ``3.7`` or ``True``
    into some cell.

    :raises TypeError: when ``action`` is not an integer.
    :raises ValueError: when it is outside ``Discrete(cells)``.
    """
    kind = type(action)
    if kind is int or kind is np.int64:  # the usual actions, checked in one step
        if 0 <= action < cells:
            return int(action)
        raise ValueError(f"action {action} is outside Discrete({cells})")
    if isinstance(action, _BOOLS):
        raise TypeError(f"action must be an integer cell index, got the bool {action!r}")
    try:
        index = operator.index(action)
    except TypeError:
        shown = repr(action)[:40]
        raise TypeError(
            f"action must be an integer cell index, got {type(action).__name__} {shown}"
        ) from None
    if not 0 <= index < cells:
        raise ValueError(f"action {index} is outside Discrete({cells})")
    return index


def check_reset_options(options: Any, known: tuple[str, ...] = RESET_OPTIONS) -> dict[str, Any]:
    """``options`` as a dict, refusing a non-mapping, unknown keys, and both a layout and a map.

    :raises TypeError: when ``options`` is not a mapping.
    :raises ValueError: naming the unknown keys and the known ones.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"reset options must be a dict, got {type(options).__name__}")
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise ValueError(
            f"unknown reset option(s) {', '.join(unknown)}; known: {', '.join(known)}"
        )
    if "layout" in options and "map" in options:
        raise ValueError('give options["layout"] or options["map"], not both')
    if "map" in options and not isinstance(options["map"], str | Path):
        raise TypeError(f'options["map"] must be a path, got {type(options["map"]).__name__}')
    return dict(options)


def check_reset_mask(reset_mask: Any, num_envs: int, started: bool) -> None:
    """Refuse a vector env's ``options["reset_mask"]`` that is not a bool array of one
    value per board with at least one True, or that comes before every board was reset.

    :raises ValueError: for a bad mask; :raises RuntimeError: before the first full reset.
    """
    if (
        not isinstance(reset_mask, np.ndarray)
        or reset_mask.shape != (num_envs,)
        or reset_mask.dtype != np.bool_
        or not reset_mask.any()
    ):
        raise ValueError(
            f'options["reset_mask"] must be a bool array of shape ({num_envs},) with a True value'
        )
    if not started:
        raise RuntimeError("reset every board once before resetting some of them")


def vector_actions(actions: Any, num_envs: int) -> np.ndarray:
    """A vector env's ``actions`` as an array, refused unless it holds one integer per
    board (bools and floats too: a float cell index is a bug upstream, not a cell).

    :raises ValueError: naming the shape and dtype received.
    """
    actions = np.asarray(actions)
    if actions.shape != (num_envs,) or actions.dtype.kind not in "iu":
        what = f"{actions.dtype} array of shape {actions.shape}"
        raise ValueError(f"actions must be an integer array of shape ({num_envs},), got a {what}")
    return actions
