"""Mine layouts: where the mines are, and (for IOCCC maps) the scan priorities."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cells import adjacent_mine_counts


@dataclass(frozen=True, eq=False)
class MineLayout:
    """Where the mines lie on a width x height board.

    :param mines: boolean array shaped (height, width), ``True`` on a mine.
    :param priorities: optional int array of the same shape, a permutation of
        0..W*H-1. IOCCC maps carry them: a cell is a mine when its priority is
        below the mine count, and the IOCCC program scans cells in this order.
        Layouts drawn at random get them too (a random permutation), so every
        layout can be written in the IOCCC format unchanged.
    """

    mines: np.ndarray
    priorities: np.ndarray | None = None
    numbers: np.ndarray = field(init=False, repr=False)
    _mine_count: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        mines = np.asarray(self.mines, dtype=bool)
        if mines.ndim != 2 or mines.size == 0:
            raise ValueError(f"mines must be a non-empty 2-D array, got shape {mines.shape}")
        mines.setflags(write=False)
        object.__setattr__(self, "mines", mines)
        # Counted once: the mines never change, and games read the count on every start.
        object.__setattr__(self, "_mine_count", int(np.count_nonzero(mines)))
        if self.priorities is not None:
            priorities = np.asarray(self.priorities, dtype=np.int64)
            if priorities.shape != mines.shape:
                raise ValueError("priorities must have the same shape as mines")
            priorities.setflags(write=False)
            object.__setattr__(self, "priorities", priorities)
        numbers = adjacent_mine_counts(mines)
        numbers.setflags(write=False)
        object.__setattr__(self, "numbers", numbers)

    @property
    def width(self) -> int:
        return int(self.mines.shape[1])

    @property
    def height(self) -> int:
        return int(self.mines.shape[0])

    @property
    def mine_count(self) -> int:
        return self._mine_count

    @classmethod
    def from_priorities(cls, priorities: np.ndarray, mine_count: int) -> MineLayout:
        """The IOCCC rule: a cell is a mine when its priority is below ``mine_count``."""
        priorities = np.asarray(priorities, dtype=np.int64)
        return cls(mines=priorities < mine_count, priorities=priorities)

    @classmethod
    def random(
        cls, width: int, height: int, mine_count: int, rng: np.random.Generator
    ) -> MineLayout:
        """A layout drawn uniformly from all C(W*H, mines) layouts.

        Drawn as a random priority permutation, so it has IOCCC priorities too.
        """
        if width < 1 or height < 1:
            raise ValueError(f"board must be at least 1x1, got {width}x{height}")
        if not 0 <= mine_count <= width * height:
            raise ValueError(f"mines must be in 0..{width * height}, got {mine_count}")
        priorities = rng.permutation(width * height).reshape(height, width)
        return cls.from_priorities(priorities, mine_count)

    @classmethod
    def counted(
        cls,
        mines: np.ndarray,
        priorities: np.ndarray | None,
        numbers: np.ndarray,
        mine_count: int,
    ) -> MineLayout:
        """The layout ``MineLayout(mines, priorities)`` from parts already counted
        elsewhere (a compiled kernel, a first click's update): ``mines`` bool and
        ``priorities`` int64 (or ``None``) of one (H, W) shape, ``numbers`` their int8
        :func:`adjacent_mine_counts`, ``mine_count`` the mines. Taken as given,
        unchecked: a new game's layout skips a second count.
        """
        layout = object.__new__(cls)
        mines.setflags(write=False)
        if priorities is not None:
            priorities.setflags(write=False)
        numbers.setflags(write=False)
        # The fields written as __post_init__ writes them, without a loop (every reset).
        fields = layout.__dict__
        fields["mines"], fields["priorities"], fields["numbers"] = mines, priorities, numbers
        fields["_mine_count"] = mine_count
        return layout

    @classmethod
    def from_rows(cls, rows: list[str]) -> MineLayout:
        """Build from strings of ``x`` (mine) and ``o`` (safe); for tests and examples."""
        return cls(mines=np.array([[c == "x" for c in row] for row in rows], dtype=bool))

    def rows(self) -> list[str]:
        """One string per row: ``x`` mine, ``o`` safe (the layout grid format)."""
        return ["".join("x" if m else "o" for m in row) for row in self.mines]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MineLayout):
            return NotImplemented
        same_priorities = (self.priorities is None and other.priorities is None) or (
            self.priorities is not None
            and other.priorities is not None
            and np.array_equal(self.priorities, other.priorities)
        )
        return np.array_equal(self.mines, other.mines) and same_priorities

    __hash__ = None  # type: ignore[assignment]
