"""JSMinesweeper's source, found or extracted for a run, and the version it is.

The benchmark is given either a checkout (a folder holding ``Minesweeper/client``)
or a git directory (a clone's ``.git`` or a bare mirror), from which the files
the solver needs are extracted with ``git archive`` into a temporary folder
removed at exit. Nothing of it is copied into this repository.
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from . import PeerMissing

FOLDERS = ("Minesweeper/client", "Minesweeper/Utility")
"""What the solver is made of (its page's other files are not loaded)."""
HOW = (
    "pass --jsminesweeper DIR, a checkout or a git directory of "
    "https://github.com/DavidNHill/JSMinesweeper "
    "(git clone https://github.com/DavidNHill/JSMinesweeper /tmp/JSMinesweeper)"
)


@dataclass(frozen=True)
class Source:
    """A folder holding JSMinesweeper's solver files, and which version they are."""

    root: Path
    commit: str
    """The git commit, or ``"unknown"`` for a folder outside git."""
    digest: str
    """SHA-256 of the solver files: what a cached answer depends on."""


def _git(git_dir: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "--git-dir", str(git_dir), *args], capture_output=True, check=False
    )


def _commit_of(folder: Path) -> str:
    run = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return run.stdout.strip() if run.returncode == 0 else "unknown"


def _extract(git_dir: Path, revision: str) -> Path:
    """The solver's folders of ``revision`` in a temporary folder removed at exit."""
    archive = _git(git_dir, "archive", "--format=tar", revision, *FOLDERS)
    if archive.returncode != 0:
        raise PeerMissing(f"git archive failed in {git_dir}: {archive.stderr.decode().strip()}")
    folder = Path(tempfile.mkdtemp(prefix="jsminesweeper-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def solver_digest(root: Path, files: list[str]) -> str:
    """SHA-256 over the named files' bytes, in order."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    return digest.hexdigest()


def find_source(given: str | Path | None, files: list[str], revision: str = "HEAD") -> Source:
    """JSMinesweeper's solver files from a checkout or a git directory.

    :param files: the files the driver loads (their digest keys the cache).
    :param revision: the commit to extract when ``given`` is a git directory.
    :raises PeerMissing: when nothing usable is given.
    """
    if given is None:
        raise PeerMissing(f"JSMinesweeper not given: {HOW}")
    path = Path(given).expanduser()
    if (path / FOLDERS[0]).is_dir():
        root, commit = path, _commit_of(path)
    else:
        resolved = _git(path, "rev-parse", f"{revision}^{{commit}}")
        if resolved.returncode != 0:
            raise PeerMissing(f"{path} is neither a checkout nor a git directory: {HOW}")
        commit = resolved.stdout.decode().strip()
        root = _extract(path, commit)
    missing = [name for name in files if not (root / name).is_file()]
    if missing:
        raise PeerMissing(f"{root / missing[0]} not found: {HOW}")
    return Source(root, commit, solver_digest(root, files))
