"""Time per no-guess map, and how far the repair method is from uniform.

Part 1: for each standard board, rule set and method, generate ``--maps`` no-guess
maps from the default start (the centre) and print the wall time per map
(median, mean, 90th percentile, max; one process, one core), the fresh draws per
map (for rejection: 1 / the share of uniform layouts that are no-guess) and the
mines moved per map (repair). Target: expert maps at a median under 1 s.

Part 2: the repair method's bias. Rejection sampling is uniform over no-guess
layouts with a mine-free start zone, so it is the yardstick: on ``--bias-maps``
expert maps from each method, compare the mean 3BV (the clicks a perfect player
needs: one per opening plus one per number cell not next to an opening), the
mean number of openings, and the mine density in the ring at distance 2 from the
start (the cells just outside the mine-free 3x3 zone) and in the rest.

Part 3: the bias exactly, on a board small enough to list every layout
(5x5, 6 mines, start at the centre): every no-guess layout is found by
checking all of them, which gives each cell's exact mine share under the
uniform distribution over no-guess layouts. ``--small-maps`` maps are drawn
with each method and the largest per-cell error of their mine shares is
printed, with the mean shares of the corner and edge cells. Rejection's error
is pure sampling noise, the yardstick for repair's.

Part 4: expert maps from a corner start (0, 0), the speed target, against
``ms-toollib``'s ``laymine_solvable`` (the ``bench`` extra) in the same run,
interleaved map by map (ours, theirs, then theirs, ours, ...), CPU time per map
(mean, median, 90th percentile). Its check ignores the total mine count, so it
accepts fewer layouts than ours with the same rules; without ms-toollib only
ours is timed. Ours uses the default rule set (``substitution``).

Every figure comes from fixed seeds (ms-toollib draws from its own generator).
The machine may be shared: wall times are noisy, rerun on a quiet machine for
final figures; part 4 interleaves the two sides so load hits both alike.

Run: ``.venv/bin/python benchmarks/generate.py`` (``--help`` for options);
``--parts 4`` for the comparison with ms-toollib alone.
"""

from __future__ import annotations

import argparse
import statistics
import time
from itertools import combinations

import numpy as np
from peers import PeerMissing, toollib
from tqdm import tqdm

from minesweep_env import STANDARD_BOARDS, MineLayout
from minesweep_env.core.cells import neighbour_table
from minesweep_env.generation import default_start, generate_no_guess, is_solvable, start_zone


def openings_and_3bv(layout: MineLayout) -> tuple[int, int]:
    """(number of openings, 3BV) of a layout."""
    w, h = layout.width, layout.height
    mines = layout.mines.reshape(-1)
    numbers = layout.numbers.reshape(-1)
    table = neighbour_table(w, h)
    seen = np.zeros(w * h, dtype=bool)
    openings = 0
    for cell in range(w * h):
        if mines[cell] or numbers[cell] != 0 or seen[cell]:
            continue
        openings += 1
        stack = [cell]
        seen[cell] = True
        while stack:
            c = stack.pop()
            if numbers[c] != 0:
                continue
            for n in table[c]:
                if not seen[n]:
                    seen[n] = True
                    stack.append(n)
    lone_numbers = int(np.count_nonzero(~mines & ~seen))
    return openings, openings + lone_numbers


def ring_density(layout: MineLayout, start: tuple[int, int]) -> tuple[float, float]:
    """Mine density at Chebyshev distance exactly 2 from the start, and beyond 2."""
    ys, xs = np.indices(layout.mines.shape)
    distance = np.maximum(abs(xs - start[0]), abs(ys - start[1]))
    ring, rest = distance == 2, distance > 2
    return float(layout.mines[ring].mean()), float(layout.mines[rest].mean())


def time_maps(
    board: str, rule_set: str, method: str, count: int, seed: int
) -> tuple[list[float], list[int], list[int], list[MineLayout]]:
    width, height, mines = STANDARD_BOARDS[board]
    seconds, draws, repairs, layouts = [], [], [], []
    label = f"{board} {rule_set} {method}"
    for i in tqdm(range(count), desc=label, leave=False, disable=None):
        began = time.perf_counter()
        made = generate_no_guess(
            width,
            height,
            mines,
            np.random.default_rng([seed, i]),
            rule_set=rule_set,
            method=method,
        )
        seconds.append(time.perf_counter() - began)
        draws.append(made.draws)
        repairs.append(made.repairs)
        layouts.append(made.layout)
    return seconds, draws, repairs, layouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", type=int, default=30, help="maps per board/rule set/method")
    parser.add_argument("--bias-maps", type=int, default=300, help="expert maps per method")
    parser.add_argument("--small-maps", type=int, default=20000, help="5x5 maps per method")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--corner-maps", type=int, default=300, help="part 4: maps per side")
    parser.add_argument("--parts", default="1234", help="which parts to run (default: 1234)")
    parser.add_argument(
        "--rule-sets", nargs="+", default=["substitution", "complete"], metavar="NAME"
    )
    args = parser.parse_args()

    if "1" in args.parts:
        time_per_map(args)
    if "2" in args.parts:
        expert_bias(args)
    if "3" in args.parts:
        small_board_bias(args.rule_sets[0], args.small_maps, args.seed + 2)
    if "4" in args.parts:
        corner_against_toollib(args.corner_maps, args.seed + 3)


def time_per_map(args: argparse.Namespace) -> None:
    """Part 1: seconds per map per board, rule set and method."""
    print(f"Part 1: seconds per no-guess map ({args.maps} maps each, start at the centre)")
    print(
        f"{'board':<13}{'rule set':<14}{'method':<11}{'median':>8}{'mean':>8}"
        f"{'p90':>8}{'max':>8}{'draws':>8}{'moved':>8}"
    )
    for board in STANDARD_BOARDS:
        for rule_set in args.rule_sets:
            for method in ("rejection", "repair"):
                seconds, draws, repairs, _ = time_maps(
                    board, rule_set, method, args.maps, args.seed
                )
                p90 = float(np.percentile(seconds, 90))
                print(
                    f"{board:<13}{rule_set:<14}{method:<11}"
                    f"{statistics.median(seconds):8.3f}{statistics.mean(seconds):8.3f}"
                    f"{p90:8.3f}{max(seconds):8.3f}"
                    f"{statistics.mean(draws):8.2f}{statistics.mean(repairs):8.2f}"
                )


def expert_bias(args: argparse.Namespace) -> None:
    """Part 2: 3BV, openings and mine density near the start, rejection against repair."""
    width, height, _ = STANDARD_BOARDS["expert"]
    start = default_start(width, height)
    print(f"\nPart 2: expert, {args.bias_maps} maps per method, rule set {args.rule_sets[0]}")
    print(f"{'method':<11}{'3BV':>8}{'openings':>10}{'ring-2 density':>16}{'beyond':>8}")
    for method in ("rejection", "repair"):
        _, _, _, layouts = time_maps(
            "expert", args.rule_sets[0], method, args.bias_maps, args.seed + 1
        )
        stats = [openings_and_3bv(layout) for layout in layouts]
        rings = [ring_density(layout, start) for layout in layouts]
        print(
            f"{method:<11}{statistics.mean(s[1] for s in stats):8.1f}"
            f"{statistics.mean(s[0] for s in stats):10.2f}"
            f"{statistics.mean(r[0] for r in rings):16.3f}"
            f"{statistics.mean(r[1] for r in rings):8.3f}"
        )


def small_board_bias(rule_set: str, samples: int, seed: int) -> None:
    """Part 3: how often each cell holds a mine, against the exact uniform no-guess figure."""
    width, height, mines = 5, 5, 6
    start = default_start(width, height)
    zone = set(start_zone(width, height, start))
    free = [c for c in range(width * height) if c not in zone]
    exact = np.zeros(width * height)
    no_guess = 0
    for cells in combinations(free, mines):
        flat = np.zeros(width * height, dtype=bool)
        flat[list(cells)] = True
        if is_solvable(MineLayout(flat.reshape(height, width)), start, rule_set):
            no_guess += 1
            exact[list(cells)] += 1
    exact /= no_guess
    print(
        f"\nPart 3: 5x5, {mines} mines, start {start}, rule set {rule_set}: "
        f"{no_guess} of {len(list(combinations(free, mines)))} layouts are no-guess; "
        f"{samples} maps per method. Mine share per cell outside the start zone:"
    )
    ring = [c for c in free if max(abs(c % width - start[0]), abs(c // width - start[1])) == 2]
    corners = [c for c in ring if c % width in (0, width - 1) and c // width in (0, height - 1)]
    print(f"{'':<11}{'max |error|':>12}{'corners':>9}{'edges':>8}   (uniform no-guess: exact)")
    edges = [c for c in ring if c not in corners]
    print(f"{'exact':<11}{0:12.3f}{exact[corners].mean():9.3f}{exact[edges].mean():8.3f}")
    for method in ("rejection", "repair"):
        rng = np.random.default_rng(seed)
        share = np.zeros(width * height)
        for _ in tqdm(range(samples), desc=f"5x5 {method}", leave=False, disable=None):
            made = generate_no_guess(width, height, mines, rng, start, rule_set, method)
            share += made.layout.mines.reshape(-1)
        share /= samples
        error = float(np.abs(share - exact).max())
        print(f"{method:<11}{error:12.3f}{share[corners].mean():9.3f}{share[edges].mean():8.3f}")


def corner_against_toollib(count: int, seed: int) -> None:
    """Part 4: CPU ms per expert map from (0, 0), ours and ms-toollib's, interleaved."""
    width, height, mines = STANDARD_BOARDS["expert"]
    corner = (0, 0)
    try:
        peer = toollib.load()
    except PeerMissing as error:
        peer = None
        print(f"\nPart 4: ms-toollib skipped: {error}")

    def ours(i: int) -> None:
        generate_no_guess(width, height, mines, np.random.default_rng([seed, i]), corner)

    def theirs(i: int) -> None:
        if not toollib.laymine_solvable(peer, width, height, mines, corner):
            raise RuntimeError("ms-toollib found no map")

    sides = {"ours (substitution)": ours}
    if peer:
        sides["ms-toollib laymine_solvable"] = theirs
    for make in sides.values():
        make(count)  # warm-up (a map not timed): caches
    spent: dict[str, list[float]] = {name: [] for name in sides}
    for i in tqdm(range(count), desc="corner", leave=False, disable=None):
        order = list(sides) if i % 2 == 0 else list(sides)[::-1]
        for name in order:
            began = time.process_time()
            sides[name](i)
            spent[name].append(1e3 * (time.process_time() - began))
    print(
        f"\nPart 4: expert from the corner {corner}, {count} maps per side, interleaved, "
        "CPU ms per map"
    )
    print(f"{'':<29}{'mean':>8}{'median':>8}{'p90':>8}")
    for name, ms in spent.items():
        print(
            f"{name:<29}{statistics.mean(ms):8.2f}{statistics.median(ms):8.2f}"
            f"{float(np.percentile(ms, 90)):8.2f}"
        )
    if peer:
        ratio = statistics.mean(spent["ours (substitution)"]) / statistics.mean(
            spent["ms-toollib laymine_solvable"]
        )
        print(f"ours / ms-toollib, mean: {ratio:.2f}")


if __name__ == "__main__":
    main()
