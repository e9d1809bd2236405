"""The regret map's picture: how far the best other candidate leads search's choice,
measured and under noise alone.

One number per decision, the best other candidate's lead in paired standard errors,
drawn as a histogram beside the same figure on the shuffles where every candidate is
as good as search's (:mod:`.noise`). A lever would show as a measured tail past 2
heavier than noise's; a measured histogram left of noise's says the other cells are
mostly worse, not level.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from minesweep_env.fileio import atomic_write

from .noise import Calibrated

EDGES = np.arange(-4.0, 5.01, 0.5)
"""Histogram bins in standard errors; leads beyond either end are drawn in the end bins."""


def plot_leads(found: list[Calibrated], out: Path, title: str) -> None:
    """Save the histogram of the best other candidate's lead, measured and noise alone,
    as a PNG at ``out`` (written whole or not at all)."""
    measured = np.clip([c.z for c in found], EDGES[0], EDGES[-1])
    # No sampled decision (an exact-only run, say): empty histograms, still a picture.
    leads = np.concatenate([c.null_z for c in found]) if found else np.zeros(0)
    shuffles = np.clip(leads, EDGES[0], EDGES[-1])
    counts, _ = np.histogram(measured, EDGES)
    expected, _ = np.histogram(shuffles, EDGES)
    expected = expected * len(found) / max(len(shuffles), 1)
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    ax.stairs(expected, EDGES, label="noise alone (every candidate as good as search's)", lw=2)
    ax.stairs(counts, EDGES, label=f"measured ({len(found)} decisions)", lw=2)
    ax.axvline(2.0, ls=":", color="grey", lw=1, label="clearly better past here")
    ax.set_xlabel("best other candidate's lead over search's choice (paired standard errors)")
    ax.set_ylabel("decisions")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    # Below the axes: inside them it hid the peak.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8)
    with atomic_write(out, "wb") as handle:
        fig.savefig(handle, format="png", dpi=120, bbox_inches="tight")
