"""The terminal game ``semiautomines play``: the IOCCC endoh1 program's feel, in curses.

``geometry`` says where things are on the screen, ``session`` what the player
sees (no terminal needed), ``solver_steps`` records the auto-solver's rounds
for the animation, ``looks`` and ``painter`` draw, ``app`` reads the mouse
and keys. A :class:`Driver` (``driver``) makes the guesses instead of a person
(``watch`` and ``replay`` of the agents package): ``autoplay`` paces them,
``driven`` reads the keys, ``recording`` turns a driven game into a GIF.
"""

from .driver import Driver, Guess, InvalidGuess, play_out
from .session import GameSpec, Session

__all__ = ["Driver", "GameSpec", "Guess", "InvalidGuess", "Session", "play", "play_out", "watch"]


def play(spec: GameSpec, animate: bool = True) -> str | None:
    """Run the curses game; returns an error message, or ``None`` when the player quit."""
    from .app import play as _play

    return _play(spec, animate)


def watch(spec: GameSpec, animate: bool = True) -> str | None:
    """Run the curses game with ``spec.driver`` guessing; an error message, or ``None``
    when the watcher quit."""
    from .app import play as _play
    from .driven import DrivenApp

    if spec.driver is None:
        raise ValueError("watch needs a spec with a driver")
    return _play(spec, animate, DrivenApp)
