"""The ``human`` render mode: the picture in a matplotlib window, when there is a display.

matplotlib is already a dependency (for the evaluation plots), so no GUI
toolkit is added for this. Without a display (no ``DISPLAY``, or a
non-interactive backend such as Agg) :meth:`Window.show` returns ``False`` and
the env prints the text screen instead.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np


def display_available() -> bool:
    """Whether a window can be opened: an interactive backend on a system with a display."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return False
    import matplotlib

    backend = matplotlib.get_backend().lower()
    headless = {"agg", "pdf", "ps", "svg", "cairo", "template"}
    return backend not in headless and "inline" not in backend


class Window:
    """One figure that shows successive frames."""

    def __init__(self, title: str, fps: float):
        self.title = title
        self.pause = 1.0 / fps
        self._figure: Any = None  # a matplotlib Figure once shown (matplotlib loads lazily)
        self._image: Any = None
        self.available = display_available()

    def show(self, picture: np.ndarray) -> bool:
        """Show ``picture``; ``False`` when there is no display to show it on."""
        if not self.available:
            return False
        import matplotlib.pyplot as plt

        if self._figure is None or not plt.fignum_exists(self._figure.number):
            plt.ion()
            self._figure = plt.figure(self.title)
            axes = self._figure.add_axes((0, 0, 1, 1))
            axes.set_axis_off()
            self._image = axes.imshow(picture, interpolation="nearest")
        else:
            self._image.set_data(picture)
        plt.pause(self.pause)
        return True

    def close(self) -> None:
        if self._figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self._figure)
            self._figure = None
