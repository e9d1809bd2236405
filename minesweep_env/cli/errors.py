"""How subcommands report failure: raise :class:`CliError`, never print a traceback."""

from __future__ import annotations

EXIT_OK = 0
"""Success (for ``solvable``: the map is solvable)."""
EXIT_NEGATIVE = 1
"""The command ran but the answer is no (``solvable``: not solvable)."""
EXIT_BAD_INPUT = 2
"""Bad input: a malformed file, an unknown name, a bad number."""


class CliError(Exception):
    """A one-line message for stderr and the exit status to leave with."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.exit_code = exit_code
