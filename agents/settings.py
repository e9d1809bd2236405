"""Agent settings with a valid range, declared once: default, bounds and one line of help.

An agent's settings are a frozen dataclass whose fields are made by :func:`setting`.
:func:`check` (called from the dataclass's ``__post_init__``) refuses a value
outside its range in one line that names the range, and :func:`settings_from`
refuses an unknown key in one line that lists the valid ones. So
``search:depth=99`` or ``search:bogus=1`` on the command line is a
``ValueError`` the commands print as one line, never a hang or a traceback.

The upper bounds are chosen so that the bound itself plays in reasonable time:
a setting at its maximum may be slow, never endless.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Bound:
    """What a setting may be: ``low <= value <= high``, of the default's kind."""

    low: float
    high: float
    help: str
    kind: type
    """``bool`` (0 or 1), ``int`` (a whole number) or ``float``."""
    optional: bool = False
    """Whether ``None`` is allowed too (it then means what :attr:`help` says)."""

    def span(self) -> str:
        """The valid values, as the error messages and the help show them."""
        text = "0 or 1" if self.kind is bool else f"{_number(self.low)}..{_number(self.high)}"
        return text + (" or None" if self.optional else "")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


def setting(default: Any, low: float, high: float, help: str, optional: bool = False) -> Any:
    """A dataclass field with its default, its valid range and one line of help."""
    kind = type(default) if default is not None else float
    if kind not in (bool, int, float):
        raise TypeError(f"a setting is a bool, int or float, not {kind.__name__}")
    bound = Bound(low, high, help, kind, optional or default is None)
    return field(default=default, metadata={"bound": bound})


def bound_of(item: Field) -> Bound:
    """The :class:`Bound` of a field made by :func:`setting`."""
    return item.metadata["bound"]


def checked_value(name: str, value: Any, bound: Bound) -> Any:
    """``value`` as the setting's kind, or a one-line ``ValueError`` naming the range."""
    if value is None and bound.optional:
        return None
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, (int, float)) or (
        bound.kind is not float and not float(value).is_integer()
    ):
        raise ValueError(f"{name}={value!r} is not valid; valid: {bound.span()}")
    if math.isnan(value) or not bound.low <= value <= bound.high:
        raise ValueError(f"{name}={_number(value)} is out of range; valid: {bound.span()}")
    return bound.kind(value)


def check(settings: Any) -> None:
    """Check every field of a settings dataclass and store it as its kind (a flag as a bool)."""
    for item in fields(settings):
        value = checked_value(item.name, getattr(settings, item.name), bound_of(item))
        object.__setattr__(settings, item.name, value)


def settings_from(cls: type[T], options: Mapping[str, Any], owner: str) -> T:
    """``cls(**options)``, an unknown key refused in one line listing the valid keys.

    :param owner: who takes the settings (the agent's name), for the messages.
    :raises ValueError: for an unknown key or a value out of its range.
    """
    known = [item.name for item in fields(cls)]  # type: ignore[arg-type]
    unknown = sorted(set(options) - set(known))
    if unknown:
        valid = ", ".join(known) if known else "none (it takes no settings)"
        raise ValueError(f"{owner}: unknown setting {unknown[0]!r}; valid settings: {valid}")
    try:
        return cls(**options)
    except ValueError as error:
        raise ValueError(f"{owner}: {error}") from None


def describe(cls: type) -> list[str]:
    """One line per setting: name, valid values, default and help."""
    return [
        f"{item.name} ({bound_of(item).span()}, default {item.default}): {bound_of(item).help}"
        for item in fields(cls)
    ]


@dataclass(frozen=True)
class NoSettings:
    """The settings of an agent that takes none (``random``, the greedy variants)."""


@dataclass(frozen=True)
class GreedySettings:
    """The settings ``greedy`` takes by name (``greedy:opening=0``)."""

    opening: bool = setting(True, 0, 1, "play the known best first click")

    def __post_init__(self) -> None:
        check(self)
