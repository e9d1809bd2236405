"""Files written whole or not at all: a temporary name beside the target, then a rename.

Why: a run killed mid-write (``kill -9``, a full disk, a crash in a plotting
library) must leave either the previous file or the complete new one, never
half a JSON that the next reader chokes on. Everything the project writes
(maps and ``.start`` files, run folders' results, plots, trained models) goes
through :func:`atomic_write`. The temporary file sits in the target's own
folder because ``os.replace`` is atomic only within one file system; its name
starts with a dot and ends in ``.tmp`` so a listing of results never shows it
as a result.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

TEMP_SUFFIX = ".tmp"
"""Every temporary file is ``.<target name>.<random>.tmp`` in the target's folder."""


@functools.cache
def _umask() -> int:
    # mkstemp makes 0600 files; a finished file gets the mode open() would have given it.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(
    path: str | Path,
    mode: str = "w",
    *,
    exclusive: bool = False,
    encoding: str | None = "utf-8",
    newline: str | None = None,
) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on a clean exit it becomes ``path``.

    The data is flushed to disk before the rename, so after a crash ``path``
    holds the old content or the new, whole. On an exception (or a kill) the
    target is untouched and the temporary file is removed (a kill -9 can leave
    one behind: a dot-file ending in ``.tmp``, never a truncated target).

    :param mode: ``"w"`` (text) or ``"wb"`` (bytes).
    :param exclusive: refuse to replace an existing ``path`` (``FileExistsError``),
        like ``open(path, "x")``, and still never show a half-written file: the
        finished temporary file is hard-linked to ``path``, which fails if it exists.
    :param encoding: text mode only.
    :param newline: text mode only, as for :func:`open` (``""`` for the csv module).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write writes with mode 'w' or 'wb', not {mode!r}")
    if mode == "wb":
        encoding = newline = None
    # Through a symlink to its file (a rename would replace the link itself).
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file() and not exclusive:
        # A device or a pipe (--output /dev/stdout): there is no old file to keep.
        with open(target, mode, encoding=encoding, newline=newline) as handle:
            yield handle
        return
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=encoding, newline=newline) as handle:
            os.chmod(temp, 0o666 & ~_umask())
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if exclusive:
            os.link(temp, target)
            os.unlink(temp)
        else:
            os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def write_text(path: str | Path, text: str, *, exclusive: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (see :func:`atomic_write`)."""
    with atomic_write(path, exclusive=exclusive) as handle:
        handle.write(text)


def write_bytes(path: str | Path, data: bytes, *, exclusive: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_write`)."""
    with atomic_write(path, "wb", exclusive=exclusive) as handle:
        handle.write(data)


def append_text(path: str | Path, text: str) -> None:
    """Add ``text`` at the end of ``path`` (made if missing), atomically.

    The whole file is rewritten, so this is for small logs (one line per
    evaluation or epoch), where a torn last line would spoil the file.
    """
    target = Path(path)
    try:
        old = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = ""
    write_text(target, old + text)
