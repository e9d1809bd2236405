"""Record petersohn/mine-solver's verdicts on random maps, as reference data for our tests.

The tool is public: the repository petersohn/mine-solver, file
``mine-solver.py`` (newest commit 19ecd2b when these cases were made). It is not
part of this project and is not copied here: fetch it yourself and pass its
path. This script draws random ``x``/``o`` maps and start cells, runs

    python3 mine-solver.py -x X -y Y f MAP

(the README's ``-f MAP`` form fails at that commit) and writes one JSON object
per line to ``cases.jsonl``:

``rows`` the map as ``x``/``o`` strings, ``start`` [x, y], ``exit`` the tool's
exit status, ``verdict`` "solvable" (exit 0) or "not solvable" (exit 2),
``message`` the tool's reason when it gives up ("Cannot solve", "Stepped on
mine", "Field has unreachable part"), ``board`` the tool's board where it gave
up (``,`` covered, ``X`` mine, ``.`` or a digit opened, ``!`` the mine it
stepped on), ``start_on_mine``.

Maps vary in size (3..14 x 3..10 unless --max-width/--max-height say more)
and density (4..26 %); a third of the start
cells are drawn from all cells (so some lie on mines), a third from safe cells,
a third from cells with no neighbouring mine, so both verdicts are common.

Usage::

    python3 tests/reference/mine_solver/make_reference.py \\
        --tool /tmp/ms/mine-solver.py --count 800 --seed 2026 \\
        --out tests/reference/mine_solver/cases.jsonl
    python3 tests/reference/mine_solver/make_reference.py \\
        --tool /tmp/ms/mine-solver.py --count 200 --seed 2027 \\
        --max-width 30 --max-height 16 --out tests/reference/mine_solver/cases_large.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

TOOL_TIMEOUT_S = 60.0
"""The tool enumerates substitutions and can be slow; a case over this is dropped."""


def draw_map(
    rng: random.Random, max_width: int = 14, max_height: int = 10
) -> tuple[list[str], tuple[int, int]]:
    """A random map and start cell (see the module docstring for the mix)."""
    width, height = rng.randint(3, max_width), rng.randint(3, max_height)
    density = rng.uniform(0.04, 0.26)
    cells = width * height
    mine_count = max(1, min(cells - 1, round(density * cells)))
    mines = set(rng.sample(range(cells), mine_count))
    rows = [
        "".join("x" if y * width + x in mines else "o" for x in range(width)) for y in range(height)
    ]

    def zero(i: int) -> bool:
        x, y = i % width, i // width
        return i not in mines and not any(
            (ny * width + nx) in mines
            for ny in range(max(0, y - 1), min(height, y + 2))
            for nx in range(max(0, x - 1), min(width, x + 2))
        )

    kind = rng.randrange(3)
    pool = list(range(cells))
    if kind == 1:
        pool = [i for i in pool if i not in mines]
    elif kind == 2:
        pool = [i for i in pool if zero(i)] or [i for i in pool if i not in mines]
    start = rng.choice(pool)
    return rows, (start % width, start // width)


def run_tool(tool: Path, rows: list[str], start: tuple[int, int]) -> dict | None:
    """The tool's verdict on one map, or ``None`` on a timeout."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(" ".join(row) for row in rows) + "\n")
        path = handle.name
    try:
        done = subprocess.run(
            [sys.executable, str(tool), "-x", str(start[0]), "-y", str(start[1]), "f", path],
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return None
    finally:
        Path(path).unlink()
    if done.returncode not in (0, 2):
        raise RuntimeError(f"tool failed (exit {done.returncode}): {done.stderr.strip()}")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    message, board = "", []
    if done.returncode == 2:
        # The board where it stopped, then the reason, then a timing line.
        message = lines[-2].strip()
        board = ["".join(line.split()) for line in lines[-2 - len(rows) : -2]]
    return {
        "rows": rows,
        "start": list(start),
        "start_on_mine": rows[start[1]][start[0]] == "x",
        "exit": done.returncode,
        "verdict": "solvable" if done.returncode == 0 else "not solvable",
        "message": message,
        "board": board,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", type=Path, required=True, help="path to mine-solver.py")
    parser.add_argument("--count", type=int, default=600, help="maps to draw")
    parser.add_argument("--seed", type=int, default=2026, help="random seed")
    parser.add_argument("--out", type=Path, required=True, help="JSON-lines file to write")
    parser.add_argument("--max-width", type=int, default=14, help="widest map drawn")
    parser.add_argument("--max-height", type=int, default=10, help="tallest map drawn")
    args = parser.parse_args()
    if args.out.exists():
        parser.error(f"{args.out} exists; remove it first")
    rng = random.Random(args.seed)
    dropped = 0
    counts = {"solvable": 0, "not solvable": 0}
    with args.out.open("w") as out:
        for number in range(args.count):
            rows, start = draw_map(rng, args.max_width, args.max_height)
            case = run_tool(args.tool, rows, start)
            if case is None:
                dropped += 1
                continue
            counts[case["verdict"]] += 1
            out.write(json.dumps(case) + "\n")
            if (number + 1) % 50 == 0:
                print(f"{number + 1}/{args.count} {counts} dropped={dropped}", file=sys.stderr)
    print(f"wrote {sum(counts.values())} cases {counts}, {dropped} timed out", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
