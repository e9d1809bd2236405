"""Replay recorded probe-kernel calls: the env's hot kernel timed alone, its results hashed.

Every board-step of the vector env (and every step of the single env with rule set
``complete``) is one call of ``complete_kept_compiled.probe_play_tracked``
(:mod:`minesweep_env.solver.rules.complete_kept_compiled`).
To change that kernel without changing a game, and to see where its time goes,
this script

* ``record``\\ s the calls a random masked agent makes in real play (one env, fixed
  seeds): each call's view, layout, probed cell and counters, and what it returned;
* ``replay``\\ s them in order, each game's kept constraints (``seen``, ``track``)
  carried from call to call as in the game, several passes, and prints

  - a digest of everything a caller can see (the returns, the view after, the
    opened and flagged cells, the probabilities of a settled position) and how many
    calls returned other than recorded: two trees with the same digest play the
    same games;
  - per category of call (a game's first probe, later probes that open two or more
    cells, later one-cell probes, with or without a full count) the kernel's time per
    call, the minimum over passes (a descheduled call only makes a pass slower).

Compare two trees by running ``replay`` from each alternately (A B A B) on one
recording::

    PYTHONPATH=$PWD python benchmarks/probe_replay.py record --games 400 --out /tmp/calls.npz
    PYTHONPATH=/tree/a python benchmarks/probe_replay.py replay /tmp/calls.npz --passes 7
    PYTHONPATH=/tree/b python benchmarks/probe_replay.py replay /tmp/calls.npz --passes 7

``vector`` prints the same kernel's CPU per board-step inside the native vector env
(``probe_boards`` timed), beside the whole step's.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections import defaultdict

import gymnasium as gym
import numpy as np

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env.core.cells import COVERED
from minesweep_env.solver.rules import complete_kept_compiled as tracked_kernels
from minesweep_env.solver.rules import complete_proof_compiled as proof_kernels

EVICT_BYTES = 4 << 20
"""Bytes written before each call in a ``--cold`` replay: more than the core's L2 cache
(1 MB here), about the vector env's 64 boards' kept states (~6.6 MB on expert) apart."""

FIELDS = ("view", "mines", "numbers", "cell", "total", "nothing_covered", "safe_left", "game",
          "returned")
"""Arrays of a recording, one row per call (``returned``: the six returns as int64)."""


def record(board: str, games: int, seed: int) -> dict[str, np.ndarray]:
    """The probe-kernel calls of ``games`` random masked games on ``board`` (rule set
    ``complete``), in order; ``game`` numbers the kept state (``track``) each call used."""
    rows: dict[str, list] = defaultdict(list)
    kernel = tracked_kernels.probe_play_tracked
    tracks: dict[int, int] = {}

    def recorded(view, mines, numbers, cell, total, nothing_covered, safe_left, opened,
                 flagged, probabilities, seen, track):
        rows["view"].append(view.reshape(-1).copy())
        rows["mines"].append(np.asarray(mines, np.int8).copy())
        rows["numbers"].append(np.asarray(numbers, np.int8).copy())
        rows["cell"].append(cell)
        rows["total"].append(total)
        rows["nothing_covered"].append(nothing_covered)
        rows["safe_left"].append(safe_left)
        rows["game"].append(tracks.setdefault(id(track), len(tracks)))
        returned = kernel(view, mines, numbers, cell, total, nothing_covered, safe_left, opened,
                          flagged, probabilities, seen, track)
        rows["returned"].append(np.array(returned, np.int64))
        return returned

    tracked_kernels.probe_play_tracked = recorded
    try:
        env = gym.make("SemiAutoMines-v0", board=board, rule_set="complete")
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        for _ in range(games):
            done = False
            while not done:
                valid = np.flatnonzero(info["action_mask"])
                action = valid[rng.integers(len(valid))]
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            _, info = env.reset()
    finally:
        tracked_kernels.probe_play_tracked = kernel
    return {name: np.array(rows[name]) for name in FIELDS}


def categories(calls: dict[str, np.ndarray]) -> np.ndarray:
    """Each call's category name: ``first`` (nothing opened before), ``mine`` (lost at
    once), ``cascade`` (opened 2+ cells), ``one-cell FULL`` / ``one-cell`` (one cell,
    settled by a full count or not)."""
    names = []
    for view, returned in zip(calls["view"], calls["returned"], strict=True):
        status, count, _, _, won, lost = returned
        if np.all(view == COVERED):
            names.append("first")
        elif lost:
            names.append("mine")
        elif count >= 2:
            names.append("cascade")
        elif status == proof_kernels.FULL and not won:
            names.append("one-cell FULL")
        else:
            names.append("one-cell")
    return np.array(names)


def replay_pass(
    calls: dict[str, np.ndarray], digest: bool, evict: np.ndarray | None = None
) -> tuple[np.ndarray, str, int]:
    """One pass over the calls in order, each game's ``seen`` and ``track`` carried from
    its last call: (each call's ns, the digest or "", calls returning other than recorded).

    :param evict: when given, written over before each call (untimed), so each call finds
        its state out of the core's caches, as in the vector env, whose 64 boards' states
        take turns.
    """
    size = calls["view"].shape[1]
    width = {480: 30, 256: 16, 81: 9}[size]
    kernel = tracked_kernels.probe_play_tracked
    seen: dict[int, np.ndarray] = {}
    track: dict[int, np.ndarray] = {}
    opened, flagged = np.empty(size, np.int64), np.empty(size, np.int64)
    probabilities = np.empty(size)
    times = np.empty(len(calls["cell"]), np.int64)
    hasher = hashlib.blake2b(digest_size=8)
    mismatches = 0
    for k in range(len(times)):
        game = int(calls["game"][k])
        if game not in seen:
            seen[game] = np.full(size, tracked_kernels.UNSEEN, np.int8)
            track[game] = np.zeros((tracked_kernels.TRACK_ROWS, size), np.int64)
        view = calls["view"][k].reshape(-1, width).copy()
        args = (view, calls["mines"][k], calls["numbers"][k], int(calls["cell"][k]),
                int(calls["total"][k]), bool(calls["nothing_covered"][k]),
                int(calls["safe_left"][k]), opened, flagged, probabilities, seen[game],
                track[game])
        if evict is not None:
            evict += 1
        start = time.perf_counter_ns()
        returned = kernel(*args)
        times[k] = time.perf_counter_ns() - start
        status, count, flags, _, won, lost = returned
        mismatches += not np.array_equal(np.array(returned, np.int64), calls["returned"][k])
        if digest:
            hasher.update(np.array(returned, np.int64).tobytes())
            hasher.update(view.tobytes())
            hasher.update(opened[:count].tobytes())
            hasher.update(flagged[:flags].tobytes())
            if status == proof_kernels.FULL and not won and not lost:
                hasher.update(probabilities.tobytes())
    return times, hasher.hexdigest() if digest else "", mismatches


def replay(path: str, passes: int, cold: bool = False) -> None:
    """Print the digest and the per-category time of the recording at ``path`` (``cold``:
    each call's state out of the caches first)."""
    with np.load(path) as data:
        calls = {name: data[name] for name in FIELDS}
    for name in ("mines", "numbers"):  # the kernels take mines and numbers as int8 rows
        calls[name] = np.ascontiguousarray(calls[name], np.int8)
    replay_pass(calls, False)  # loads the compiled kernel
    best = None
    digest, mismatches = "", 0
    evict = np.zeros(EVICT_BYTES // 8, np.int64) if cold else None
    for p in range(passes):
        times, pass_digest, pass_mismatches = replay_pass(calls, p == 0, evict)
        if p == 0:
            digest, mismatches = pass_digest, pass_mismatches
        best = times if best is None else np.minimum(best, times)
    assert best is not None
    names = categories(calls)
    total_ns = best.sum()
    print(f"calls {len(best)}  digest {digest}  mismatches {mismatches}"
          + ("  (cold caches)" if cold else ""))
    print(f"{'category':<14} {'calls':>6} {'share':>6} {'us/call':>8}")
    for name in ("first", "cascade", "one-cell", "one-cell FULL", "mine"):
        chosen = best[names == name]
        if len(chosen):
            print(f"{name:<14} {len(chosen):>6} {chosen.sum() / total_ns:>6.1%} "
                  f"{chosen.mean() / 1000:>8.2f}")
    print(f"{'all':<14} {len(best):>6} {1:>6.1%} {best.mean() / 1000:>8.2f}")


def vector_probe_time(board: str, num_envs: int, seconds: float, blocks: int) -> None:
    """Print, per block of ``seconds`` CPU of the native vector env (random masked play),
    the probe kernel's CPU per board-step (``probe_boards``, all boards of a step in one
    compiled call) beside the whole step's, and games/s."""
    from minesweep_env.envs import board_batch_compiled as batch_kernels

    kernel = batch_kernels.probe_boards
    spent = [0.0, 0]
    fused = False

    def timed(*args):
        start = time.process_time()
        kernel(*args)
        spent[0] += time.process_time() - start
        spent[1] += len(args[1])  # the boards probed (after the batch's buffers)

    envs = gym.make_vec("SemiAutoMines-v0", num_envs=num_envs,
                        vectorization_mode="vector_entry_point", board=board,
                        rule_set="complete")
    _, infos = envs.reset(seed=0)  # loads (and checks) the compiled kernels, unwrapped
    rng = np.random.default_rng(0)
    batch_kernels.probe_boards = timed
    try:
        print(f"{'block':<6} {'probe us/board-step':>20} {'step us/board-step':>19} "
              f"{'games/s':>8}")
        for block in range(-1, blocks):  # block -1: warm-up, not printed
            spent[:] = [0.0, 0]
            games = steps = 0
            cpu = time.process_time()
            while time.process_time() - cpu < (1.0 if block < 0 else seconds):
                scores = rng.random(infos["action_mask"].shape)
                scores[~infos["action_mask"]] = -1.0
                _, _, terminated, truncated, infos = envs.step(scores.argmax(axis=1))
                games += int((terminated | truncated).sum())
                steps += num_envs
            cpu = time.process_time() - cpu
            if block >= 0:
                probe = f"{spent[0] / spent[1] * 1e6:.2f}" if spent[1] else "-"
                print(f"{block:<6} {probe:>20} {cpu / steps * 1e6:>19.2f} {games / cpu:>8.0f}")
                fused = not spent[1]
    finally:
        batch_kernels.probe_boards = kernel
    if fused:
        print("probe: - the env's compiled step (step_kernels.step_boards) calls probe_boards "
              "itself, out of Python's reach: only the whole step is timed here; `replay` "
              "times the probe kernel alone")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record", help="record the calls of random masked games")
    rec.add_argument("--board", default="expert")
    rec.add_argument("--games", type=int, default=400)
    rec.add_argument("--seed", type=int, default=0)
    rec.add_argument("--out", required=True, help="an .npz file")
    rep = commands.add_parser("replay", help="replay a recording: digest and time per call")
    rep.add_argument("path")
    rep.add_argument("--passes", type=int, default=7)
    rep.add_argument("--cold", action="store_true",
                     help="evict the caches before each call (as the vector env's turns do)")
    vec = commands.add_parser("vector", help="the probe kernel's share of the vector env's step")
    vec.add_argument("--board", default="expert")
    vec.add_argument("--num-envs", type=int, default=64)
    vec.add_argument("--seconds", type=float, default=3.0)
    vec.add_argument("--blocks", type=int, default=3)
    args = parser.parse_args()
    if args.command == "vector":
        vector_probe_time(args.board, args.num_envs, args.seconds, args.blocks)
    elif args.command == "record":
        calls = record(args.board, args.games, args.seed)
        np.savez_compressed(args.out, **calls)
        print(f"{len(calls['cell'])} calls of {args.games} games -> {args.out}")
    else:
        replay(args.path, args.passes, args.cold)


if __name__ == "__main__":
    main()
