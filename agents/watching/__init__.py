"""Watching agents play and replaying saved games on the terminal game's screen.

The library's terminal game takes a :class:`minesweep_env.tui.Driver`; here
are the three the ``watch`` and ``replay`` commands pass it: :class:`AgentDriver`
(an agent thinking, on the evaluation's seeded games), :class:`RecordDriver`
(a game saved by ``evaluate --save-games``, read back) and
:class:`HumanReplayDriver` (a person's replay file). ``observe`` gives an agent
the observation the env would, ``notes`` says what a guess risked.
"""

from .drivers import AgentDriver, RecordDriver
from .human import HumanReplayDriver

__all__ = ["AgentDriver", "HumanReplayDriver", "RecordDriver"]
