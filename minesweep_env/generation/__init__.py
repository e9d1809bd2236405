"""Map generation and the no-guess question: is a map solvable from a start cell?"""

from .no_guess import (
    METHODS,
    GeneratedMap,
    default_start,
    generate_no_guess,
    generate_random,
    start_zone,
)
from .solvability import SolvabilityVerdict, is_solvable
from .start_file import load_start, start_path, write_start

__all__ = [
    "METHODS",
    "GeneratedMap",
    "SolvabilityVerdict",
    "default_start",
    "generate_no_guess",
    "generate_random",
    "is_solvable",
    "load_start",
    "start_path",
    "start_zone",
    "write_start",
]
