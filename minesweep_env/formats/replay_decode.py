"""Decode one replay with ms-toollib, in a process of its own: bytes in on stdin, JSON out.

ms-toollib aborts the whole Python process (a Rust panic, no exception to catch)
on a truncated or corrupted file, and its panic hook writes ``crash.log`` into
the working directory. :func:`minesweep_env.formats.replay.read_replay` therefore
runs this script as a child process in a scratch directory: a bad file costs the
child, and the caller turns its failure into one line.

The script imports nothing of the project (only the standard library and
ms-toollib), so the child starts quickly. Usage::

    python replay_decode.py FORMAT < replay-bytes > decoded.json

FORMAT is ``avf``, ``rmv``, ``mvf`` or ``evf``. The JSON holds the layout
(``board``: rows of numbers, ``-1`` a mine), the size, the mine count, every
mouse event that changed the game (``[time, button, x, y, level, shown]``: pixels,
ms-toollib's ``useful_level`` and what the cell showed before), and the game's figures.
"""

from __future__ import annotations

import json
import sys

READERS = {"avf": "AvfVideo", "rmv": "RmvVideo", "mvf": "MvfVideo", "evf": "EvfVideo"}


def _text(value: object) -> str:
    """A header field as text (some readers hand back bytes)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _shown_before(recorded, pixels: int, x: int, y: int) -> int:
    """What the clicked cell showed before the event (0..8 a number, 10 covered,
    11 flagged; -1 off the board): tells the losing probe from the losing chord."""
    rows = recorded.prior_game_board.game_board
    row, column = y // pixels, x // pixels
    if 0 <= row < len(rows) and 0 <= column < len(rows[row]):
        return int(rows[row][column])
    return -1


def decode(kind: str, data: bytes) -> dict:
    """The replay in ``data`` as a JSON-ready dict (ms-toollib's parse and analyse)."""
    import ms_toollib  # type: ignore[import-not-found]  # ships no type information

    video = getattr(ms_toollib, READERS[kind])(raw_data=data)
    video.parse()
    video.analyse()
    events = []
    for recorded in video.events:
        event = recorded.event
        if not event.is_mouse() or recorded.useful_level < 1:
            continue
        mouse = event.unwrap_mouse()
        shown = _shown_before(recorded, video.pix_size, mouse.x, mouse.y)
        events.append([recorded.time, mouse.mouse, mouse.x, mouse.y, recorded.useful_level, shown])
    video.current_time = 1e9  # the figures at the end of the game
    return {
        "width": video.column,
        "height": video.row,
        "mines": video.mine_num,
        "pixels": video.pix_size,
        "board": video.board,
        "events": events,
        "completed": bool(video.is_completed),
        "player": _text(video.player_identifier),
        "software": _text(video.software),
        "seconds": video.rtime,
        "bbbv": video.bbbv,
        "openings": video.op,
        "islands": video.isl,
        "zini": ms_toollib.cal_zini(video.board),  # type: ignore[call-arg]  # stale stub
    }


NO_MS_TOOLLIB = 3
"""The exit status when ms-toollib cannot be imported (the file was never looked at)."""


def main() -> int:
    kind = sys.argv[1] if len(sys.argv) == 2 else ""
    if kind not in READERS:
        print(f"usage: replay_decode.py {{{','.join(READERS)}}} < replay", file=sys.stderr)
        return 2
    try:
        import ms_toollib  # noqa: F401  # type: ignore[import-not-found]
    except ImportError:
        return NO_MS_TOOLLIB
    json.dump(decode(kind, sys.stdin.buffer.read()), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
