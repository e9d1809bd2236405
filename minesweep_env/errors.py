"""The two exceptions users are meant to catch.

Every reader raises :class:`MapFormatError` for any bad input, so a command-line
tool needs exactly one ``except`` to turn a bad file into a one-line message and
exit status 2. :class:`InconsistentBoardError` is the solver side's: a position
that no mine layout can explain.
"""

from __future__ import annotations

from pathlib import Path


class MapFormatError(ValueError):
    """A map or board file (or string) that cannot be read.

    The message always names the source, the line and the problem, in the
    ``source:line: problem`` form compilers use, so editors can jump to it. A
    binary file has no lines: its problems are placed by byte offset instead,
    ``source: byte N: problem``.

    :param problem: what is wrong, in words a user understands.
    :param source: the file path, or ``"<string>"`` for parsed text.
    :param line: 1-based line number, or ``None`` when the problem is the whole file.
    :param byte: 0-based offset in a binary file (used when ``line`` is ``None``).
    """

    def __init__(
        self,
        problem: str,
        source: str | Path = "<string>",
        line: int | None = None,
        *,
        byte: int | None = None,
    ):
        self.problem = problem
        self.source = str(source)
        self.line = line
        self.byte = byte
        if line is not None:
            where = f"{self.source}:{line}"
        elif byte is not None:
            where = f"{self.source}: byte {byte}"
        else:
            where = self.source
        super().__init__(f"{where}: {problem}")


class InconsistentBoardError(ValueError):
    """A position that no mine layout fits, e.g. a 3 with two covered neighbours.

    :param cell: (x, y) of a cell whose constraint is contradicted, or ``None``
        when the contradiction is global (more flags than mines).
    """

    def __init__(self, problem: str, cell: tuple[int, int] | None = None):
        self.cell = cell
        where = "" if cell is None else f"cell ({cell[0]}, {cell[1]}): "
        super().__init__(f"inconsistent position: {where}{problem}")
