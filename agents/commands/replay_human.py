"""``semiautomines replay REPLAY_FILE``: a person's game, guess by guess on the terminal.

The part of ``replay`` for replay files (``.avf``, ``.rmv``, ``.mvf``, ``.evf``); the
driver is :class:`~semiautomines_agents.watching.HumanReplayDriver`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from minesweep_env.cli.errors import CliError
from minesweep_env.core.first_click import FirstClick
from minesweep_env.errors import MapFormatError
from minesweep_env.formats.replay import REPLAY_FORMATS, UNSUPPORTED_FORMATS, read_replay
from minesweep_env.tui import GameSpec, watch

from ..watching import HumanReplayDriver
from ..watching.film import write_film
from .watch import check_terminal


def is_replay_file(path: str) -> bool:
    """Whether ``replay`` was given a replay file (by its suffix) rather than a run folder."""
    suffix = Path(path).suffix.lower()
    return (suffix in REPLAY_FORMATS or suffix in UNSUPPORTED_FORMATS) and not Path(path).is_dir()


def run_human_replay(args: argparse.Namespace) -> int:
    """Step through the replay file ``args.run_folder`` (or film it with ``--gif``)."""
    given = [f"--{name}" for name in ("game", "agent", "board") if getattr(args, name) is not None]
    if given:
        raise CliError(f"{' '.join(given)}: only for a run folder, not a replay file")
    try:
        replay = read_replay(args.run_folder)
    except MapFormatError as error:
        raise CliError(str(error)) from None
    driver = HumanReplayDriver(replay)
    if args.gif is not None:
        print(write_film(driver, args.gif))
        return 0
    check_terminal(replay.width, replay.height)
    spec = GameSpec(
        rule_set=driver.rule_set,
        first_click=FirstClick.NONE,
        size=(replay.width, replay.height, replay.mines),
        driver=driver,
        delay=args.delay,
        start_paused=True,
    )
    problem = watch(spec, animate=args.animate)
    if problem is not None:
        raise CliError(problem)
    return 0
