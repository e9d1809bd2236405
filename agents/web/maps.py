"""Watch mode's maps: the map files and folders given to ``serve --maps``, by name.

They are found and read as ``evaluate --maps`` finds and reads them
(:func:`~semiautomines_agents.evaluation.targets.map_targets`), once, when the
server starts, so game K of seed S on a map is game K of ``evaluate --maps
THATMAP --seed S`` (run from the same folder: the target's name, which seeds the
games, is the path as ``evaluate`` shows it). The client names a map by the
short name ``/api/maps`` lists; no path ever comes from the client.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minesweep_env import MapFormatError
from minesweep_env.cli.errors import CliError

from ..evaluation.targets import Target, map_targets
from .errors import bad_input
from .limits import MAX_WEB_CELLS


def _short_name(target: Target) -> str:
    """A map file's name, or a suite folder's name with a trailing ``/``."""
    suite = target.name.endswith("/")
    name = Path(target.name.rstrip("/")).name or "map"
    return name + "/" if suite else name


class MapFiles:
    """The maps Watch offers, by their name in the API."""

    def __init__(self, targets: Sequence[Target] = ()) -> None:
        self.targets: dict[str, Target] = {}
        for target in targets:
            name = _short_name(target)
            if name in self.targets:
                name = f"{name}-{len(self.targets) + 1}"
            self.targets[name] = target

    @classmethod
    def from_paths(cls, paths: Sequence[Path]) -> MapFiles:
        """Read every map; a missing, malformed or too large one is a one-line CliError."""
        if not paths:
            return cls()
        try:
            targets = map_targets(list(paths))
        except (FileNotFoundError, MapFormatError) as error:
            raise CliError(f"--maps: {error}") from None
        for target in targets:
            if target.width * target.height > MAX_WEB_CELLS:
                raise CliError(
                    f"--maps: {target.name} is larger than the web app's limit "
                    f"of {MAX_WEB_CELLS} cells"
                )
        return cls(targets)

    def listing(self) -> dict[str, Any]:
        return {
            "maps": [
                {
                    "name": name,
                    "width": t.width,
                    "height": t.height,
                    "mines": t.mines,
                    "maps": len(t.maps),
                    "fixed_start": any(s is not None for s in t.starts),
                }
                for name, t in self.targets.items()
            ]
        }

    def target(self, name: str) -> Target:
        """The map named ``name``; a 400 when there is none."""
        if name not in self.targets:
            raise bad_input(f"no map {name[:60]!r}; /api/maps lists them")
        return self.targets[name]
