"""The fuzz suite's bookkeeping: how many inputs each reader and command was fed.

Every fuzz test counts the inputs it tries in :data:`TRIED`; the total is
printed in pytest's terminal summary, so a run shows how much was tried, not
just that nothing broke.
"""

from __future__ import annotations

from collections import Counter

import pytest

TRIED: Counter[str] = Counter()
"""Inputs tried, by reader or subcommand."""


@pytest.fixture
def tried() -> Counter[str]:
    return TRIED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TRIED:
        return
    terminalreporter.section("fuzz inputs tried")
    for name, count in sorted(TRIED.items()):
        terminalreporter.write_line(f"{name:>24}: {count}")
    terminalreporter.write_line(f"{'total':>24}: {sum(TRIED.values())}")
