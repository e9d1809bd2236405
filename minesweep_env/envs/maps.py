"""Map sources for the env: which layout files a ``maps=`` argument names.

A map is a layout file in any format :func:`minesweep_env.load_layout` reads.
``maps`` may be one file, one folder (every map file directly in it:
``*.txt``, ``*.mine``, ``*.mbf``, ``*.abf``, in sorted order, as every map
tool of the project reads a folder) or a list of
files and folders. All maps are read when the env is made, so a bad file fails
at once with its name and line, not in the middle of training.

A map may have a start cell in a ``NAME.start`` sidecar (the no-guess suites:
solvable without a guess from that cell only); the env reports it in ``info``.

An env's spaces have one shape, so all its maps must have the same width and
height; :func:`maps_by_size` splits a mixed collection into one list per size
(one env per size).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..core.layout import MineLayout
from ..formats import MAP_SUFFIXES, load_layout, load_start

MapSource = str | Path | Iterable[str | Path]
"""A map file, a folder of map files, or a list of either."""


@dataclass(frozen=True)
class Map:
    """One prepared layout, the file it came from, and its start cell if it has one."""

    path: str
    layout: MineLayout
    start: tuple[int, int] | None = None
    """(x, y) from a ``NAME.start`` sidecar: where a no-guess map is solvable from."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)."""
        return self.layout.width, self.layout.height


def map_paths(maps: MapSource) -> list[Path]:
    """The map files named by ``maps``, folders expanded to their map files.

    :raises ValueError: when ``maps`` names no file at all, or a folder holds no map.
    :raises minesweep_env.MapFormatError: for a path that does not exist.
    """
    sources = [maps] if isinstance(maps, str | Path) else list(maps)
    paths: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.suffix.lower() in MAP_SUFFIXES and p.is_file()
            )
            if not found:
                raise ValueError(f"{path}: folder holds no map files ({', '.join(MAP_SUFFIXES)})")
            paths.extend(found)
        else:
            paths.append(path)  # load_layout reports a missing file with its name
    if not paths:
        raise ValueError("maps: no map file given")
    return paths


def load_maps(maps: MapSource) -> list[Map]:
    """Read every map named by ``maps`` (see :func:`map_paths`)."""
    return [Map(str(path), load_layout(path), load_start(path)) for path in map_paths(maps)]


def maps_by_size(maps: MapSource) -> dict[tuple[int, int], list[str]]:
    """Map paths grouped by (width, height): one env per group plays them all."""
    groups: dict[tuple[int, int], list[str]] = {}
    for entry in load_maps(maps):
        groups.setdefault(entry.size, []).append(entry.path)
    return groups


def check_same_size(entries: list[Map]) -> tuple[int, int]:
    """The common (width, height) of ``entries``.

    :raises ValueError: naming the first map whose size differs from the first map's.
    """
    width, height = entries[0].size
    for entry in entries[1:]:
        if entry.size != (width, height):
            raise ValueError(
                f"{entry.path}: map is {entry.size[0]}x{entry.size[1]} but {entries[0].path} "
                f"is {width}x{height}; an env plays maps of one size "
                "(use minesweep_env.envs.maps_by_size and make one env per size)"
            )
    return width, height
