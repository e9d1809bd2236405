"""Label a run's saved positions again, with another (a stronger) teacher.

``python -m semiautomines_agents.training.relabel SOURCE TARGET --seed 7 --stage 1``
reads every ``chunk_<k>.npz`` of the stage folder SOURCE, replays its games
(:func:`.positions.relabel`: the saved moves, so the same positions) and writes
them with the teacher's labels, candidates and scores under the same names in
TARGET, which a run's ``imitation/<stage>`` folder can then be (the run loads
the chunks it finds instead of playing them). Chunks already in TARGET are
skipped, so a stopped relabelling resumes.

Why: the search teacher got stronger after the shipped model's positions were
labelled (candidate scoring); they carry the weaker teacher's moves, and
replaying them costs only the teacher's time, not the player's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from .args import board_kwargs
from .positions import FIELDS, Chunk, relabel, save_chunk


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a stage folder of saved chunks")
    parser.add_argument("target", type=Path, help="where the relabelled chunks go")
    parser.add_argument("--seed", type=int, required=True, help="the run's --seed")
    parser.add_argument("--stage", type=int, required=True, help="0: bc, r: dagger round r")
    parser.add_argument("--teacher", default="search")
    parser.add_argument("--board", default="expert")
    parser.add_argument("--rule-set", default="complete")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--games", type=int, default=None, help="only chunks of games below this")
    args = parser.parse_args(argv)
    chunk = Chunk(
        env_kwargs={
            **board_kwargs(args.board),
            "rule_set": args.rule_set,
            "first_click": args.first_click,
            "obs_mode": "planes+probabilities",
            "info_probability": False,
        },
        teacher=args.teacher,
        student=None,
        seed=args.seed,
        stage=args.stage,
        first=0,
        count=0,
    )
    paths = sorted(args.source.glob("chunk_*.npz"), key=lambda p: int(p.stem.split("_")[1]))
    if args.games is not None:
        paths = [p for p in paths if int(p.stem.split("_")[1]) < args.games]
    start, positions = time.perf_counter(), 0
    for path in paths:
        if (args.target / path.name).is_file():
            continue
        with np.load(path) as saved:
            data = {name: saved[name] for name in FIELDS}
        new = relabel(data, chunk)
        save_chunk(args.target / path.name, new)
        positions += len(new["labels"])
        changed = float((new["labels"] != data["labels"]).mean())
        print(
            f"{path.name}: {len(new['labels'])} positions, {changed:.1%} labels changed, "
            f"{positions / (time.perf_counter() - start):.1f} positions/s",
            flush=True,
        )


if __name__ == "__main__":
    main()
