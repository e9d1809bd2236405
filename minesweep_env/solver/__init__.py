"""Solver side: rule sets, deduction and the auto-solver. Works on positions, not on envs."""

from .autosolve import autosolve
from .base import Proof, RuleSet
from .deduce import deduce
from .probability import PositionAnalysis, analyse_position, mine_probabilities
from .registry import RULE_SETS, get_rule_set, register_rule_set

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
