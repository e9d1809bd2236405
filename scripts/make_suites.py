"""Write the fixed evaluation suites: 100 uniform random layouts per standard board.

The layouts are drawn with ``MineLayout.random`` from numpy's PCG64 seeded with
``--seed`` (default 2020), board by board in the order beginner, intermediate,
expert, and written in the IOCCC format to ``maps/suites/<board>/NNN.txt``.
Existing files are never written over: delete a suite folder to remake it.

    python scripts/make_suites.py            # remakes the committed suites
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from minesweep_env import STANDARD_BOARDS, MineLayout, format_ioccc
from minesweep_env.fileio import write_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2020, help="seed of the layout generator")
    parser.add_argument("--count", type=int, default=100, help="layouts per board")
    parser.add_argument("--out", type=Path, default=Path("maps/suites"), help="output folder")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    for board, (width, height, mines) in STANDARD_BOARDS.items():
        folder = args.out / board
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(args.count):
            layout = MineLayout.random(width, height, mines, rng)
            path = folder / f"{board}-{number:03d}.txt"
            try:
                write_text(path, format_ioccc(layout), exclusive=True)
            except FileExistsError:
                print(f"{path}: exists, not written over", file=sys.stderr)
                return 1
        print(f"{folder}: {args.count} layouts {width}x{height}, {mines} mines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
