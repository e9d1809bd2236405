"""The exact mine-probability engine: the frontier split into independent components,
cells merged into groups, each component counted exactly, components combined by
convolution over their mine counts. See :mod:`.engine` for the conventions."""

from .engine import (
    PositionAnalysis,
    Weights,
    analyse_position,
    count_position,
    mine_probabilities,
)

__all__ = [
    "PositionAnalysis",
    "Weights",
    "analyse_position",
    "count_position",
    "mine_probabilities",
]
