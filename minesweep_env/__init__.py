"""SemiAutoMines: semi-automatic Minesweeper for people and reinforcement learning.

Data flows one way: map file -> layout -> game -> solver -> env -> agent -> report.
"""

from importlib.metadata import PackageNotFoundError as _PackageNotFoundError
from importlib.metadata import version as _version

from .core import (
    FIRST_CLICK_POLICIES,
    STANDARD_BOARDS,
    Board,
    FirstClick,
    GameState,
    Minefield,
    MineLayout,
)
from .errors import InconsistentBoardError, MapFormatError
from .formats import (
    format_board,
    format_ioccc,
    format_layout_grid,
    load_board,
    load_layout,
    parse_board,
    parse_layout,
)
from .game import Game
from .solver import (
    RULE_SETS,
    PositionAnalysis,
    RuleSet,
    analyse_position,
    deduce,
    get_rule_set,
    mine_probabilities,
    register_rule_set,
)

try:
    __version__ = _version("semiautomines")
except _PackageNotFoundError:  # a source tree on sys.path, not installed
    __version__ = "0+unknown"
"""The installed distribution's version (``semiautomines --version`` prints it)."""

__all__ = [
    "FIRST_CLICK_POLICIES",
    "RULE_SETS",
    "STANDARD_BOARDS",
    "Board",
    "FirstClick",
    "Game",
    "GameState",
    "InconsistentBoardError",
    "MapFormatError",
    "MineLayout",
    "PositionAnalysis",
    "Minefield",
    "RuleSet",
    "analyse_position",
    "deduce",
    "format_board",
    "format_ioccc",
    "format_layout_grid",
    "get_rule_set",
    "load_board",
    "load_layout",
    "mine_probabilities",
    "parse_board",
    "parse_layout",
    "register_rule_set",
]

# Gymnasium: `import minesweep_env` registers SemiAutoMines-v0 and the per-board ids
# (the env module loads on make).
from .envs import register_envs as _register_envs  # noqa: E402

_register_envs()
