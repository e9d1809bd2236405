"""Record the golden game outcomes that tests/project/test_golden_outcomes.py checks.

Runs every golden ``semiautomines evaluate`` and ``generate --no-guess`` command
(listed in tests/golden_runs.py) through the public command line and writes
tests/golden/evaluate.json and tests/golden/generate.json.

Re-record only when a change is meant to change game outcomes (a new rule, a
fixed bug in a rule set, a new agent), and say so in the commit:

    PYTHONPATH=. python scripts/record_golden.py            # every run (minutes)
    PYTHONPATH=. python scripts/record_golden.py --generate # only the generate runs
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import golden_runs  # noqa: E402  (a test helper, found through the line above)

from minesweep_env.fileio import write_text  # noqa: E402


def record_evaluate() -> dict:
    runs = []
    for rule_set, speed, options in golden_runs.EVALUATE_RUNS:
        argv = golden_runs.evaluate_argv(options)
        begin = time.perf_counter()
        with tempfile.TemporaryDirectory() as out:
            rows = golden_runs.run_evaluate(argv, Path(out))
        print(f"evaluate {golden_runs.run_id(argv)}: {time.perf_counter() - begin:.1f} s")
        runs.append({"rule_set": rule_set, "set": speed, "argv": argv, "rows": rows})
    return {"about": "semiautomines evaluate outcomes; see tests/golden_runs.py", "runs": runs}


def record_generate() -> dict:
    runs = []
    for speed, options in golden_runs.GENERATE_RUNS:
        argv = golden_runs.generate_argv(options)
        begin = time.perf_counter()
        with tempfile.TemporaryDirectory() as out:
            files = golden_runs.run_generate(argv, Path(out))
        print(f"generate {golden_runs.run_id(argv)}: {time.perf_counter() - begin:.1f} s")
        runs.append({"set": speed, "argv": argv, "sha256": files})
    return {
        "about": "sha256 of every file semiautomines generate --no-guess wrote; "
        "see tests/golden_runs.py",
        "runs": runs,
    }


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", action="store_true", help="only the generate runs")
    args = parser.parse_args()
    _write(golden_runs.GENERATE_JSON, record_generate())
    if not args.generate:
        _write(golden_runs.EVALUATE_JSON, record_evaluate())


if __name__ == "__main__":
    main()
