"""Where the repository and its test data are, for test files at any depth under ``tests/``.

Test files live in folders that mirror the packages they test, so a path built
from ``__file__`` would depend on how deep each one sits; they import these
two instead.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
