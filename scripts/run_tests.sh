#!/usr/bin/env bash
# Set up a fresh virtual environment (.venv-test) and run the whole test suite:
# ruff, mypy on the library, the docs site's strict build, then pytest. The README's test command and .ci/run both call this file.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh .venv-test train,dev,ray,web
# Compile the probability kernels into numba's cache now, not during the first game:
# two processes, one family of kernels each. The lint, type and docs checks run
# meanwhile, on the core the shorter family leaves idle; pytest waits for the cache.
.venv-test/bin/python -m minesweep_env.compiled --jobs 2 &
warm_up=$!
.venv-test/bin/ruff check .
.venv-test/bin/mypy
# The docs site: a broken link, a missing anchor or a page left out of the nav fails here.
# (Its output is shown only when it fails: --quiet would also hide the warnings --strict counts.)
docs_site="$(mktemp -d)"
if ! NO_MKDOCS_2_WARNING=1 .venv-test/bin/mkdocs build --strict --site-dir "$docs_site/site" >"$docs_site/build.log" 2>&1; then
    cat "$docs_site/build.log"
    rm -rf "$docs_site"
    exit 1
fi
rm -rf "$docs_site"
wait "$warm_up"  # its status fails the script under set -e
# One pytest worker per core (pytest-xdist); pass -n0 after the script's name for one process.
.venv-test/bin/python -m pytest -q -n auto tests notebooks/tour.ipynb --nbmake "$@"
