"""Reading text from a file or string with errors that name the source and line.

Lines are split on ``\\n`` only (a ``\\r`` before it is whitespace like any
other): ``str.splitlines`` would also break at form feeds, ``\\x1c``..``\\x1e``
and Unicode separators, and then the line numbers in error messages would no
longer be the ones an editor shows.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import MapFormatError

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest map or position file read (64 MiB). The largest board allowed
(:data:`~minesweep_env.core.board_spec.MAX_CELLS` cells) takes about 8 MiB in
the IOCCC format; the cap stops a reader from swallowing ``/dev/zero`` or a
stray disk image."""


def read_bytes(path: str | Path) -> bytes:
    """Read a map or position file's bytes (at most :data:`MAX_FILE_BYTES`), turning
    every I/O problem into a MapFormatError. Nothing larger is ever read into memory."""
    try:
        path = Path(path)
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise MapFormatError("no such file", path) from None
    except IsADirectoryError:
        raise MapFormatError("is a directory, not a map file", path) from None
    except PermissionError:
        raise MapFormatError("permission denied", path) from None
    except OSError as error:
        raise MapFormatError(f"cannot read: {error.strerror or error}", path) from None
    except (TypeError, ValueError) as error:  # a NUL byte in the name, or not a path at all
        raise MapFormatError(f"not a usable file name ({error})", repr(path)) from None
    if len(data) > MAX_FILE_BYTES:
        raise MapFormatError(f"file is larger than {MAX_FILE_BYTES:,} bytes", path)
    return data


def decode_text(data: bytes, path: str | Path) -> str:
    """``data`` as UTF-8 text; a UTF-8 byte order mark (as some Windows editors
    write) is dropped. NUL bytes or invalid UTF-8 are a MapFormatError."""
    if b"\x00" in data:
        raise MapFormatError("binary data, not a text map nor a .mbf/.abf board file", path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise MapFormatError("not valid UTF-8 text", path, line) from None


def read_text(path: str | Path) -> str:
    """Read a map file as UTF-8 text, turning every I/O problem into a MapFormatError.

    A UTF-8 byte order mark (as some Windows editors write) is dropped.
    """
    return decode_text(read_bytes(path), path)


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut short so the message stays one short line."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` for every line of ``text``, numbered from 1, split on ``\\n``."""
    return list(enumerate(text.split("\n"), start=1))


def tokens_with_lines(text: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens, each with its 1-based line number."""
    return [(token, number) for number, line in numbered_lines(text) for token in line.split()]
