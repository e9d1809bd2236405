"""``python -m semiautomines_agents.training.prior_scale IN.pt OUT.pt --scale K``: the same
model with the scale ``k`` of its prior ``-k * p(mine)`` set to ``K``, every other weight kept.

Why a tool of its own: the fits do not move ``k`` (Adam moves one number by about its
learning rate per step, and the cross-entropy does not ask for a larger ``k`` anyway), yet
the ``k`` a model plays with changes how it plays: a larger ``k`` leaves fewer cells that
are clearly riskier than the safest to the network's judgement (``agents/models/README.md``
measures it). ``train --fixed-prior-scale`` fixes ``k`` for a training run; this sets it on
a finished model, which is how the shipped ``ppo_expert.pt`` got its ``k``.

The sidecar keeps the input's entries (its training record among them) and says what was
changed in ``prior_scale_set``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..model_files import WEIGHTS_SUFFIX, ModelFileError, load_policy, save_policy, sidecar_path
from .imitation import fix_prior_scale

KEPT_BY_SAVE = ("format", "format_version", "weights", "weights_sha256", "network")
"""Sidecar entries that :func:`~..model_files.save_policy` writes itself."""


def set_prior_scale(source: Path, out: Path, scale: float) -> dict:
    """Write ``out`` (+ its sidecar): ``source``'s model with ``k = scale``; returns the
    sidecar written. ``out`` may be ``source`` (both files are written whole or not at all).

    :raises ModelFileError: when ``source`` is not a weights-only model.
    """
    policy, meta = load_policy(source)
    before = float(policy.mlp_extractor.prior_scale.detach())
    fix_prior_scale(policy, scale)
    kept = {key: value for key, value in meta.items() if key not in KEPT_BY_SAVE}
    kept["prior_scale_set"] = {"source": source.name, "from": round(before, 4), "to": scale}
    save_policy(policy, out, **kept)
    return json.loads(sidecar_path(out).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    """Set the scale; 0 on success, 2 (one line on stderr) otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m semiautomines_agents.training.prior_scale",
        description="Write a weights-only model with the scale k of its prior -k * p(mine) "
        "set, every other weight unchanged.",
    )
    parser.add_argument("source", type=Path, help="the weights-only model (NAME.pt)")
    parser.add_argument("out", type=Path, help="the model to write (NAME.pt; may be SOURCE)")
    parser.add_argument("--scale", type=float, required=True, help="the new k (positive)")
    args = parser.parse_args(argv)
    if args.out.suffix != WEIGHTS_SUFFIX or args.scale <= 0:
        print(
            f"{parser.prog}: error: OUT must end in {WEIGHTS_SUFFIX} and --scale be positive",
            file=sys.stderr,
        )
        return 2
    try:
        meta = set_prior_scale(args.source, args.out, args.scale)
    except (ModelFileError, OSError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({meta['prior_scale_set']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
