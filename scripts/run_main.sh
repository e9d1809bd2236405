#!/usr/bin/env bash
# Set up a virtual environment (.venv-main) and run the main job: evaluate the
# baseline agents on the standard boards and the prepared maps in maps/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh .venv-main train
# Compile the probability kernels into numba's cache now, not during the first game
.venv-main/bin/python -m minesweep_env.compiled --jobs 2 || true  # failing: exact engine
.venv-main/bin/semiautomines evaluate --maps maps "$@"
