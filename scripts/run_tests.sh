#!/usr/bin/env bash
# Set up a fresh virtual environment (.venv-test) and run the whole test suite:
# ruff, mypy on the library, then pytest. The README's test command and .ci/run both call this file.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv-test
.venv-test/bin/python -m pip install --quiet --upgrade pip
.venv-test/bin/python -m pip install --quiet -e '.[train,dev,ray]'
# Compile the probability kernels into numba's cache now, not during the first game:
# two processes, one family of kernels each.
.venv-test/bin/python -m minesweep_env.compiled --jobs 2
.venv-test/bin/ruff check .
.venv-test/bin/mypy
# One pytest worker per core (pytest-xdist); pass -n0 after the script's name for one process.
.venv-test/bin/python -m pytest -q -n auto tests notebooks/tour.ipynb --nbmake "$@"
