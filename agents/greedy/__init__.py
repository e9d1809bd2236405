"""The greedy agents: the lowest exact mine probability, with a strong tie-break
(:mod:`.agent`), and their compiled one-call choice (:mod:`.float_choice`, kernel in
:mod:`.choice_compiled`)."""

from .agent import *  # noqa: F403 - the agent module's public names are this package's
from .agent import __all__ as __all__
