#!/usr/bin/env bash
# Set up a fresh virtual environment (.venv-test) and run the whole test suite:
# ruff, mypy on the library, then pytest. The README's test command and .ci/run both call this file.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv-test
.venv-test/bin/python -m pip install --quiet --upgrade pip
.venv-test/bin/python -m pip install --quiet -e '.[train,dev,ray]'
# Compile the probability kernels into numba's cache now, not during the first game.
.venv-test/bin/python -m minesweep_env.solver.probability.warm
.venv-test/bin/ruff check .
.venv-test/bin/mypy
.venv-test/bin/python -m pytest -q tests notebooks/tour.ipynb --nbmake "$@"
