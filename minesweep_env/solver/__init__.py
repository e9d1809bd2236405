"""Solver side: rule sets, deduction and the auto-solver. Works on positions, not on envs."""

# Registers the built-in rule sets, so RULE_SETS is complete after `import minesweep_env`.
from . import rules  # noqa: F401
from .autosolve import autosolve
from .base import RULE_SETS, Proof, RuleSet, get_rule_set, register_rule_set
from .deduce import deduce
from .probability import PositionAnalysis, analyse_position, mine_probabilities

__all__ = [
    "RULE_SETS",
    "PositionAnalysis",
    "Proof",
    "RuleSet",
    "analyse_position",
    "autosolve",
    "deduce",
    "get_rule_set",
    "mine_probabilities",
    "register_rule_set",
]
