"""Fair comparison of agents: the harness, its statistics and its reports."""

from .backends import BACKENDS, Backend, BackendError, LocalBackend, make_backend
from .harness import Run, evaluate, games_for, plan
from .paired import PairedDifference, add_paired_columns, paired_difference, write_games
from .play import Settings, game_seed
from .policy import PolicyReport, evaluate_policy
from .protocol import PROTOCOLS, STANDARD, Protocol, run_protocol
from .report import (
    maps_section,
    markdown_table,
    new_run_folder,
    paired_table,
    run_speed,
    write_run,
)
from .stats import GameRecord, summarise, wilson_interval
from .targets import Target, board_target, map_targets

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "GameRecord",
    "LocalBackend",
    "PROTOCOLS",
    "PairedDifference",
    "PolicyReport",
    "Protocol",
    "Run",
    "STANDARD",
    "Settings",
    "Target",
    "add_paired_columns",
    "board_target",
    "evaluate",
    "evaluate_policy",
    "game_seed",
    "games_for",
    "make_backend",
    "map_targets",
    "maps_section",
    "markdown_table",
    "new_run_folder",
    "paired_difference",
    "paired_table",
    "plan",
    "run_protocol",
    "run_speed",
    "summarise",
    "wilson_interval",
    "write_games",
    "write_run",
]
