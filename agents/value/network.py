"""The value network and its files, which hold data only.

A small all-convolutional trunk, then the mean and the maximum of its features over
the board, then one logit: it reads any board size, and the pooling lets one region
(a 50/50 waiting in a corner) weigh on the whole position.

Files, as for the PPO policies (:mod:`semiautomines_agents.ppo.model_files`):
``NAME.pt`` holds the ``state_dict`` alone, read back with
``torch.load(weights_only=True)``; ``NAME.json`` holds the format, the shape, the
sha256 of ``NAME.pt`` and the training figures. Loading checks both.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from minesweep_env.core.board import Board

from .planes import PLANES, planes

FORMAT = "semiautomines-value-network"
FORMAT_VERSION = 1
LIMITS = {"channels": (1, 256), "layers": (1, 16)}
"""Bounds on the shape a sidecar may ask for: a hostile JSON cannot make the loader
allocate without limit."""


class ValueFileError(ValueError):
    """A value-network file that is malformed, or not what its sidecar says."""


class ValueNet(nn.Module):
    """P(search wins | position), as a logit."""

    def __init__(self, channels: int = 24, layers: int = 4) -> None:
        super().__init__()
        self.channels, self.layers = channels, layers
        stack: list[nn.Module] = []
        width = PLANES
        for _ in range(layers):
            stack += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        self.trunk = nn.Sequential(*stack)
        self.head = nn.Linear(2 * channels, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = self.trunk(x)
        pooled = torch.cat([features.mean(dim=(2, 3)), features.amax(dim=(2, 3))], dim=1)
        return self.head(pooled).squeeze(1)

    @torch.no_grad()
    def values(self, boards: list[Board]) -> np.ndarray:
        """P(win) of each position (all of one board size)."""
        if not boards:
            return np.zeros(0)
        batch = torch.from_numpy(np.stack([planes(b) for b in boards]))
        return torch.sigmoid(self(batch)).numpy().astype(float)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save(net: ValueNet, weights: Path, training: dict[str, Any]) -> None:
    """``weights`` (``NAME.pt``) and its sidecar ``NAME.json``."""
    weights.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), weights)
    meta = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "channels": net.channels,
        "layers": net.layers,
        "parameters": sum(p.numel() for p in net.parameters()),
        "sha256": _sha256(weights),
        "training": training,
    }
    weights.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")


def load(weights: Path) -> ValueNet:
    """The network of ``weights`` and its sidecar, checked.

    :raises ValueFileError: a missing or foreign sidecar, a shape out of bounds, or
        weights whose hash is not the sidecar's.
    """
    sidecar = weights.with_suffix(".json")
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueFileError(f"{sidecar}: not a readable sidecar ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueFileError(f"{sidecar}: not a {FORMAT} sidecar")
    shape = {}
    for key, (low, high) in LIMITS.items():
        value = meta.get(key)
        if not isinstance(value, int) or not low <= value <= high:
            raise ValueFileError(f"{sidecar}: {key} must be an integer in {low}..{high}")
        shape[key] = value
    if not weights.is_file() or _sha256(weights) != meta.get("sha256"):
        raise ValueFileError(f"{weights}: missing, or not the weights its sidecar names")
    net = ValueNet(**shape)
    net.load_state_dict(torch.load(weights, weights_only=True))
    net.eval()
    return net
