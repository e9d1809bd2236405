"""Animated GIFs of RGB frames, written whole or not at all.

Pillow writes them (matplotlib, a dependency, needs it too); it is imported
only here, when a GIF is asked for. Pillow stores each frame as the rectangle
that changed since the previous one, so a game where a few cells change per
frame stays small.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..fileio import write_bytes


def gif_bytes(
    frames: Sequence[np.ndarray], durations_ms: Sequence[int], loop: bool = True
) -> bytes:
    """The frames (``uint8`` (H, W, 3), all one size) as an animated GIF.

    :param durations_ms: how long each frame shows, in milliseconds.
    :param loop: play forever (else once).
    """
    from PIL import Image

    if not frames:
        raise ValueError("a GIF needs at least one frame")
    if len(durations_ms) != len(frames):
        raise ValueError(f"{len(frames)} frames but {len(durations_ms)} durations")
    # One palette for the whole film (the renderer uses a couple of dozen colours),
    # so no frame is dithered and unchanged pixels stay equal between frames.
    reference = Image.fromarray(np.concatenate(list(frames), axis=0)).quantize(
        colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    images = [
        Image.fromarray(frame).quantize(palette=reference, dither=Image.Dither.NONE)
        for frame in frames
    ]
    buffer = io.BytesIO()
    images[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=[int(d) for d in durations_ms],
        loop=0 if loop else 1,
        optimize=False,
    )
    return buffer.getvalue()


def write_gif(
    path: str | Path, frames: Sequence[np.ndarray], durations_ms: Sequence[int], loop: bool = True
) -> None:
    """Write the frames to ``path`` as an animated GIF (atomically, see :mod:`..fileio`)."""
    write_bytes(path, gif_bytes(frames, durations_ms, loop))
