"""``python -m minesweep_env.solver.probability.warm``: the warm-up under its former name,
kept for set-ups that still run it (see :mod:`minesweep_env.compiled.warm_up`)."""

from ...compiled.warm_up import main

if __name__ == "__main__":
    raise SystemExit(main())
