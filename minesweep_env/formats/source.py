"""Reading text from a file or string with errors that name the source and line."""

from __future__ import annotations

from pathlib import Path

from ..errors import MapFormatError


def read_text(path: str | Path) -> str:
    """Read a map file as UTF-8 text, turning every I/O problem into a MapFormatError."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise MapFormatError("no such file", path) from None
    except IsADirectoryError:
        raise MapFormatError("is a directory, not a map file", path) from None
    except PermissionError:
        raise MapFormatError("permission denied", path) from None
    except OSError as error:
        raise MapFormatError(f"cannot read: {error.strerror or error}", path) from None
    if b"\x00" in data:
        raise MapFormatError("binary data, not a text map", path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise MapFormatError("not valid UTF-8 text", path, line) from None


def tokens_with_lines(text: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens, each with its 1-based line number."""
    return [
        (token, number)
        for number, line in enumerate(text.splitlines(), start=1)
        for token in line.split()
    ]
