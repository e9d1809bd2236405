"""Solver side: rule sets, deduction and the auto-solver. Works on positions, not on envs."""

from .autosolve import autosolve
from .base import RULE_SETS, Proof, RuleSet, get_rule_set, register_rule_set
from .deduce import deduce

__all__ = [
    "RULE_SETS",
    "Proof",
    "RuleSet",
    "autosolve",
    "deduce",
    "get_rule_set",
    "register_rule_set",
]
