"""The ``search`` agent: exact look-ahead over what a guess can show, forced
guesses first, and an exact endgame (see :mod:`.agent`)."""

from .agent import Advice, SearchAgent
from .settings import SearchSettings

__all__ = ["Advice", "SearchAgent", "SearchSettings"]
