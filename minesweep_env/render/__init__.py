"""Pictures of a position: IOCCC-style text, an RGB picture, a window. Depends on the game only."""

from .ansi import render_ansi
from .picture import BoardPainter
from .window import Window, display_available

__all__ = ["BoardPainter", "Window", "display_available", "render_ansi"]
