"""``python -m semiautomines_agents.convert_model IN.zip OUT.pt``: a stable-baselines3
zip of a CellPolicy to the weights-only format, without unpickling anything.

The work is :func:`~semiautomines_agents.model_files.convert_sb3_zip`; this is
its command line (kept apart so that ``python -m`` runs a module the package
has not imported yet).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .model_files import WEIGHTS_SUFFIX, ModelFileError, convert_sb3_zip, sidecar_path


def main(argv: list[str] | None = None) -> int:
    """Convert ``source`` to ``out``; 0 on success, 2 (one line on stderr) otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m semiautomines_agents.convert_model",
        description="Convert a stable-baselines3 zip of a CellPolicy to the weights-only "
        "format (OUT.pt + OUT.json), without unpickling anything.",
    )
    parser.add_argument("source", type=Path, help="the stable-baselines3 .zip")
    parser.add_argument("out", type=Path, help="the weights file to write (NAME.pt)")
    args = parser.parse_args(argv)
    if args.out.suffix != WEIGHTS_SUFFIX:
        print(f"{parser.prog}: error: {args.out} must end in {WEIGHTS_SUFFIX}", file=sys.stderr)
        return 2
    try:
        meta = convert_sb3_zip(args.source, args.out)
    except (ModelFileError, OSError, KeyError, ValueError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} and {sidecar_path(args.out).name} ({meta['network']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
