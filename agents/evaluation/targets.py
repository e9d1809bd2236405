"""What agents are evaluated on: standard boards, custom sizes and map files.

A *target* is one row of the report per agent. A standard or custom board
draws a fresh seeded layout every game. Maps are read from files: each map
file is its own target, except a folder whose maps all share one size and
mine count (a suite such as ``maps/suites/expert/``), which is one target
whose games go through its maps in order.

The first click on a map is the agent's, unless the map has a fixed one: a
``NAME.start`` sidecar (one line ``x y``, as the no-guess maps carry), which
the harness plays for every agent before handing over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from minesweep_env import MapFormatError, load_layout
from minesweep_env.core.board_spec import parse_board_spec
from minesweep_env.formats import MAP_SUFFIXES
from minesweep_env.generation import load_start


@dataclass(frozen=True)
class Target:
    """A board or a set of maps, played by every agent on the same layouts.

    :param name: how reports name it: a board name or a map path.
    :param kind: ``"board"`` (random layouts) or ``"map"`` (layouts from files).
    :param maps: the map files (absolute paths) of a ``"map"`` target.
    """

    name: str
    kind: str
    width: int
    height: int
    mines: int
    maps: tuple[str, ...] = field(default=())
    starts: tuple[tuple[int, int] | None, ...] = field(default=())
    """Per map, its fixed first click (from a ``NAME.start`` sidecar), or ``None``
    where the first click is the agent's."""

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}/{self.mines}"


def board_target(name: str) -> Target:
    """A standard board by name, or ``WIDTHxHEIGHTxMINES``
    (read by :func:`minesweep_env.core.board_spec.parse_board_spec`).

    :raises ValueError: naming the accepted forms, or the bound a custom board breaks.
    """
    width, height, mines = parse_board_spec(name)
    return Target(name, "board", width, height, mines)


def _display(path: Path) -> str:
    """The path relative to the working directory when it is under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def map_targets(paths: list[str | Path]) -> list[Target]:
    """Targets for map files and folders (folders are searched for map files:
    ``*.txt``, ``*.mine``, ``*.mbf``, ``*.abf``).

    Every map is read now, so an unreadable one stops the run before it starts.

    :raises FileNotFoundError: for a path that does not exist or a folder without maps.
    :raises minesweep_env.MapFormatError: for a malformed map (``file:line: problem``).
    """
    targets: list[Target] = []
    for given in paths:
        path = Path(given)
        if path.is_file():
            targets.extend(_targets_of_folder(path.parent, [path]))
        elif path.is_dir():
            files = sorted(
                p for p in path.rglob("*") if p.suffix.lower() in MAP_SUFFIXES and p.is_file()
            )
            if not files:
                raise FileNotFoundError(
                    f"{path}: no map files ({', '.join(MAP_SUFFIXES)}) in this folder"
                )
            by_folder: dict[Path, list[Path]] = {}
            for file in files:
                by_folder.setdefault(file.parent, []).append(file)
            for folder, group in by_folder.items():
                targets.extend(_targets_of_folder(folder, group))
        else:
            raise FileNotFoundError(f"{path}: no such map file or folder")
    return targets


def _start_of(file: Path, width: int, height: int) -> tuple[int, int] | None:
    start = load_start(file)
    if start is not None and not (0 <= start[0] < width and 0 <= start[1] < height):
        raise MapFormatError(
            f"start cell {start} is outside the {width}x{height} map", file.with_suffix(".start"), 1
        )
    return start


def _targets_of_folder(folder: Path, files: list[Path]) -> list[Target]:
    sizes = {}
    starts = {}
    for file in files:
        layout = load_layout(file)
        sizes[file] = (layout.width, layout.height, layout.mine_count)
        starts[file] = _start_of(file, layout.width, layout.height)
    if len(files) > 1 and len(set(sizes.values())) == 1:
        width, height, mines = next(iter(sizes.values()))
        name = _display(folder) + "/"
        paths = tuple(str(f.resolve()) for f in files)
        return [Target(name, "map", width, height, mines, paths, tuple(starts[f] for f in files))]
    return [
        Target(_display(f), "map", *sizes[f], maps=(str(f.resolve()),), starts=(starts[f],))
        for f in files
    ]
