"""Human replays ("videos") read into the layout and the player's actions.

Arbiter ``.avf``, Viennasweeper ``.rmv``, Minesweeper Clone ``.mvf`` and
Metasweeper ``.evf`` files record every mouse event of a game. ms-toollib (the
Metasweeper community's library) parses them; :func:`read_replay` hands back what
the rest of the project needs: the layout the player met, and their probes, flags
and chords in order, each with its cell and time (:class:`HumanReplay`).

Bounded before any allocation: the file's size is checked before it is read
(:data:`MAX_REPLAY_BYTES`), the board's size before any array is made from it
(the formats keep each side in a byte or two, and the project's board limits
apply). ms-toollib aborts the process on some malformed files, so it runs in a
child process (:mod:`.replay_decode`): a bad file is one
:class:`~minesweep_env.MapFormatError`, never a crash.

minesweeper.online's ``.msor`` (JSON that JSMinesweeper steps through) is read
without ms-toollib's parser: it records the cells each click showed, and the
layout is rebuilt from them (:mod:`.replay_msor`).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.board_spec import size_problem
from ..core.difficulty import measure
from ..core.layout import MineLayout
from ..errors import MapFormatError
from .replay_actions import ReplayAction, actions_of_events
from .replay_decode import NO_MS_TOOLLIB
from .replay_msor import parse_msor

REPLAY_FORMATS = {
    ".avf": ("avf", "Arbiter"),
    ".rmv": ("rmv", "Viennasweeper"),
    ".mvf": ("mvf", "Minesweeper Clone"),
    ".evf": ("evf", "Metasweeper"),
    ".msor": ("msor", "minesweeper.online"),
}
"""File suffix -> (its reader: ms-toollib's, or ``msor`` the one here; the program
that writes it)."""

UNSUPPORTED_FORMATS: dict[str, str] = {}
"""File suffix -> why replays of that format are not read (none at present)."""

MAX_REPLAY_BYTES = 16 * 1024 * 1024
"""Largest replay read (16 MiB): an expert game takes 15 to 350 KB in these formats."""

DECODE_SECONDS = 120
"""How long the decoding child may take before the file is given up on."""

INSTALL_HINT = "reading replays needs ms-toollib: pip install ms-toollib==1.5.20"


@dataclass(frozen=True)
class HumanReplay:
    """A person's game as a replay file recorded it."""

    source: str
    """The file read."""
    program: str
    """The program that recorded it (e.g. ``Arbiter``), from its format."""
    layout: MineLayout
    """The mines of the game as played (any first-click move already made)."""
    actions: tuple[ReplayAction, ...]
    """Every probe, flag and chord, in order."""
    completed: bool
    """Whether the game was won, as the replay's own analysis says."""
    player: str = ""
    software: str = ""
    """The player's name and the program's version, as the file gives them."""
    seconds: float = 0.0
    """The game's time on the program's clock."""
    bbbv: int = 0
    """3BV: the fewest clicks that clear the board."""
    zini: int = 0
    """ZiNi: the clicks of a greedy flag-and-chord player (ms-toollib's estimate)."""
    openings: int = 0
    """Openings: the regions of zeros."""
    islands: int = 0
    """Islands: the groups of numbers no opening reaches."""

    @property
    def width(self) -> int:
        return self.layout.width

    @property
    def height(self) -> int:
        return self.layout.height

    @property
    def mines(self) -> int:
        return self.layout.mine_count


def replay_kind(path: str | Path) -> tuple[str, str]:
    """The reader (ms-toollib's, or ``msor``) and program name of a replay file, from its
    suffix.

    :raises MapFormatError: for a suffix no reader takes (or one of
        :data:`UNSUPPORTED_FORMATS`: why not).
    """
    suffix = Path(path).suffix.lower()
    if suffix in UNSUPPORTED_FORMATS:
        raise MapFormatError(UNSUPPORTED_FORMATS[suffix], path)
    if suffix not in REPLAY_FORMATS:
        known = ", ".join(REPLAY_FORMATS)
        raise MapFormatError(f"not a replay file: expected a name ending {known}", path)
    return REPLAY_FORMATS[suffix]


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, its size checked before reading (and the read bounded)."""
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise MapFormatError("is a directory, not a replay", path)
        if size > MAX_REPLAY_BYTES:
            raise MapFormatError(f"file is larger than {MAX_REPLAY_BYTES:,} bytes", path)
        with path.open("rb") as handle:
            data = handle.read(MAX_REPLAY_BYTES + 1)
    except FileNotFoundError:
        raise MapFormatError("no such file", path) from None
    except PermissionError:
        raise MapFormatError("permission denied", path) from None
    except OSError as error:
        raise MapFormatError(f"cannot read: {error.strerror or error}", path) from None
    return data  # one byte more than allowed when the file grew or is a device: refused then


def _decode(path: str, kind: str, program: str, data: bytes) -> dict:
    """ms-toollib's reading of ``data``, in a child process (see :mod:`.replay_decode`)."""
    if importlib.util.find_spec("ms_toollib") is None:
        raise MapFormatError(INSTALL_HINT, path)
    script = Path(__file__).with_name("replay_decode.py")
    unreadable = f"not a readable {program} replay (.{kind}): truncated or corrupted"
    with tempfile.TemporaryDirectory(prefix="semiautomines-replay-") as scratch:
        try:
            child = subprocess.run(
                # Not isolated (-I): the child must find ms-toollib wherever this
                # process does (a user site, PYTHONPATH).
                [sys.executable, str(script), kind],
                input=data,
                capture_output=True,
                cwd=scratch,  # where ms-toollib's crash.log goes, and is thrown away
                timeout=DECODE_SECONDS,
            )
        except subprocess.TimeoutExpired:
            problem = f"{unreadable} (still decoding after {DECODE_SECONDS} s)"
            raise MapFormatError(problem, path) from None
        except OSError as error:  # no Python to start (an embedded interpreter)
            problem = f"cannot start the replay decoder: {error.strerror or error}"
            raise MapFormatError(problem, path) from None
    if child.returncode == NO_MS_TOOLLIB:
        raise MapFormatError(INSTALL_HINT, path)
    if child.returncode != 0:
        raise MapFormatError(unreadable, path)
    try:
        decoded = json.loads(child.stdout)
    except ValueError:
        raise MapFormatError(unreadable, path) from None
    if not isinstance(decoded, dict):
        raise MapFormatError(unreadable, path)
    return decoded


def _read_msor(source: str, data: bytes) -> HumanReplay:
    """An ``.msor`` replay: its layout rebuilt from the cells shown (:mod:`.replay_msor`)."""
    if importlib.util.find_spec("ms_toollib") is None:
        raise MapFormatError(INSTALL_HINT, source)
    unreadable = "not a readable minesweeper.online replay (.msor)"
    try:
        layout, actions, won = parse_msor(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MapFormatError(f"{unreadable}: not UTF-8 text", source) from None
    except ValueError as error:
        raise MapFormatError(f"{unreadable}: {error}", source) from None
    measured = measure(layout.mines)
    return HumanReplay(
        source=source,
        program="minesweeper.online",
        layout=layout,
        actions=tuple(actions),
        completed=won,
        seconds=actions[-1].time if actions else 0.0,
        bbbv=measured.bbbv,
        zini=measured.zini or 0,
        openings=measured.openings,
        islands=measured.islands,
    )


def _layout(path: str, decoded: dict) -> MineLayout:
    """The mines of the decoded board, its size checked before any array is made."""
    width, height, mines = decoded["width"], decoded["height"], decoded["mines"]
    problem = size_problem(int(width), int(height))
    if problem is not None:
        raise MapFormatError(problem, path)
    board = decoded["board"]
    if len(board) != height or any(len(row) != width for row in board):
        raise MapFormatError(f"its board is not {width}x{height}", path)
    layout = MineLayout(np.array(board, dtype=np.int16) == -1)
    if layout.mine_count != mines:
        raise MapFormatError(
            f"its board holds {layout.mine_count} mines, its header says {mines}", path
        )
    return layout


def read_replay(path: str | Path) -> HumanReplay:
    """Read an ``.avf``, ``.rmv``, ``.mvf`` or ``.evf`` replay (the format from the suffix).

    :raises MapFormatError: one line for any file that cannot be read (too large,
        truncated, corrupted, of a format not read) or when ms-toollib is missing.
    """
    path = Path(path)
    replay_kind(path)  # an unknown suffix is refused before the file is opened
    return parse_replay(_read_bytes(path), path.name, str(path))


def parse_replay(data: bytes, name: str, source: str = "<bytes>") -> HumanReplay:
    """Read a replay from its bytes (an upload, say); ``name`` is its file name, whose
    suffix gives the format, ``source`` what errors name.

    :raises MapFormatError: as :func:`read_replay`.
    """
    kind, program = replay_kind(name)
    if len(data) > MAX_REPLAY_BYTES:
        raise MapFormatError(f"file is larger than {MAX_REPLAY_BYTES:,} bytes", source)
    if not data:
        raise MapFormatError("empty file, not a replay", source)
    if kind == "msor":
        return _read_msor(source, data)
    decoded = _decode(source, kind, program, data)
    try:
        layout = _layout(source, decoded)
        actions = actions_of_events(
            decoded["events"], int(decoded["pixels"]), layout.width, layout.height
        )
        return HumanReplay(
            source=source,
            program=program,
            layout=layout,
            actions=tuple(actions),
            completed=bool(decoded["completed"]),
            player=str(decoded["player"]),
            software=str(decoded["software"]),
            seconds=float(decoded["seconds"]),
            bbbv=int(decoded["bbbv"]),
            zini=int(decoded["zini"]),
            openings=int(decoded["openings"]),
            islands=int(decoded["islands"]),
        )
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        if isinstance(error, MapFormatError):
            raise
        unreadable = f"not a readable {program} replay (.{kind}): {error}"
        raise MapFormatError(unreadable, source) from None


__all__ = [
    "MAX_REPLAY_BYTES",
    "HumanReplay",
    "ReplayAction",
    "parse_replay",
    "read_replay",
    "replay_kind",
]
