"""The registry of rule sets: one table, by name.

The built-in rule sets are listed here explicitly (nothing registers itself
by being imported); :func:`register_rule_set` adds a user's own.
"""

from __future__ import annotations

from .base import RuleSet
from .rules.complete import Complete
from .rules.endoh import Endoh, EndohAlt
from .rules.groups import GroupRules
from .rules.mysweeper import MySweeperRules
from .rules.substitution import SubstitutionRules

RULE_SETS: dict[str, type[RuleSet]] = {
    cls.name: cls
    for cls in (Complete, Endoh, EndohAlt, GroupRules, MySweeperRules, SubstitutionRules)
}
"""Registered rule sets by name: ``rule_set="..."`` everywhere."""


def register_rule_set(cls: type[RuleSet]) -> type[RuleSet]:
    """Class decorator: make ``cls`` available by its ``name``.

    :raises ValueError: when another class is registered under that name.
    """
    if cls.name in RULE_SETS and RULE_SETS[cls.name] is not cls:
        raise ValueError(f"rule set name {cls.name!r} is already registered")
    RULE_SETS[cls.name] = cls
    return cls


def get_rule_set(rule_set: str | RuleSet) -> RuleSet:
    """A new instance of the named rule set (an instance passes through).

    :raises ValueError: naming the known rule sets when the name is unknown.
    """
    if isinstance(rule_set, RuleSet):
        return rule_set
    try:
        return RULE_SETS[rule_set]()
    except KeyError:
        known = ", ".join(sorted(RULE_SETS))
        raise ValueError(f"unknown rule set {rule_set!r}; known: {known}") from None
