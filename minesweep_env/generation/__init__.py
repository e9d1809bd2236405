"""Map generation and the no-guess question: is a map solvable from a start cell?"""

# The start file is a file format: it lives in formats, re-exported here where it used to be.
from ..formats.start_file import load_start, start_path, write_start
from .no_guess import (
    METHODS,
    GeneratedMap,
    default_start,
    generate_no_guess,
    generate_random,
    start_zone,
)
from .solvability import SolvabilityVerdict, is_solvable

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
