"""The terminal game ``semiautomines play``: the IOCCC endoh1 program's feel, in curses.

``geometry`` says where things are on the screen, ``session`` what the player
sees (no terminal needed), ``solver_steps`` records the auto-solver's rounds
for the animation, ``looks`` and ``painter`` draw, ``app`` reads the mouse
and keys.
"""

from .session import GameSpec, Session

__all__ = ["GameSpec", "Session", "play"]


def play(spec: GameSpec, animate: bool = True) -> str | None:
    """Run the curses game; returns an error message, or ``None`` when the player quit."""
    from .app import play as _play

    return _play(spec, animate)
