"""The position as an RGB picture in the look of the classic game, drawn with numpy.

Covered cells are raised (light top-left bevel, dark bottom-right), probed
cells flat with a thin grid line, numbers in the classic colours, flags red on
a black pole, and after a loss every unflagged mine, the fatal one on red and
any wrong flag crossed out. A header shows the mines left and the guesses made
on seven-segment counters and a face for the state.

Every cell picture (a *tile*) is drawn once per painter; a frame is then one
fancy-indexing gather, fast enough for ``RecordVideo`` at every step.
"""

from __future__ import annotations

import numpy as np

from ..core.cells import COVERED, FLAGGED
from ..core.minefield import GameState
from ..game import Game
from .font import GLYPH_HEIGHT, GLYPH_WIDTH, digit_glyph, seven_segment

NUMBER_COLOURS = (
    (0, 0, 0),  # 0 is never drawn
    (0, 0, 255),
    (0, 128, 0),
    (255, 0, 0),
    (0, 0, 128),
    (128, 0, 0),
    (0, 128, 128),
    (0, 0, 0),
    (128, 128, 128),
)
"""The classic colours of the numbers 1..8 (index = number)."""

GREY = (192, 192, 192)
LIGHT = (255, 255, 255)
SHADOW = (128, 128, 128)
GRID = (128, 128, 128)
BLACK = (0, 0, 0)
RED = (255, 0, 0)

# Tile indices: 0..8 probed numbers, then these.
TILE_COVERED = 9
TILE_FLAG = 10
TILE_MINE = 11
TILE_FATAL = 12
TILE_WRONG_FLAG = 13


class BoardPainter:
    """Paints games as ``uint8`` (height, width, 3) pictures.

    :param cell: pixels per cell side (even, so video encoders accept the frame).
    """

    def __init__(self, cell: int = 24):
        if cell < 12 or cell % 2:
            raise ValueError(f"cell must be an even number of pixels >= 12, got {cell}")
        self.cell = cell
        self.header = cell + 16
        self.tiles = self._make_tiles()

    # -- tiles -------------------------------------------------------------------------------

    def _grid(self) -> tuple[np.ndarray, np.ndarray]:
        rows, columns = np.mgrid[0 : self.cell, 0 : self.cell]
        return rows, columns

    def _covered_tile(self) -> np.ndarray:
        s, bevel = self.cell, max(2, self.cell // 8)
        rows, cols = self._grid()
        tile = np.empty((s, s, 3), dtype=np.uint8)
        tile[:] = GREY
        light = (rows < bevel) | (cols < bevel)
        dark = (rows >= s - bevel) | (cols >= s - bevel)
        # Where the bands meet (top-right, bottom-left corners) split on the diagonal.
        corner = light & dark
        tile[light & ~corner] = LIGHT
        tile[dark & ~corner] = SHADOW
        tile[corner & (rows + cols < s)] = LIGHT
        tile[corner & (rows + cols >= s)] = SHADOW
        return tile

    def _open_tile(self, fill: tuple[int, int, int] = GREY) -> np.ndarray:
        tile = np.empty((self.cell, self.cell, 3), dtype=np.uint8)
        tile[:] = fill
        tile[0, :] = GRID
        tile[:, 0] = GRID
        return tile

    def _draw_number(self, tile: np.ndarray, number: int) -> None:
        scale = max(1, (self.cell - 6) // GLYPH_HEIGHT)
        glyph = digit_glyph(number, scale)
        top = (self.cell - GLYPH_HEIGHT * scale + 1) // 2
        left = (self.cell - GLYPH_WIDTH * scale + 1) // 2
        region = tile[top : top + glyph.shape[0], left : left + glyph.shape[1]]
        region[glyph] = NUMBER_COLOURS[number]

    def _draw_flag(self, tile: np.ndarray) -> None:
        s = self.cell
        rows, cols = self._grid()
        pole = s // 2 + s // 12
        stroke = max(1, s // 12)
        top, bottom = s // 5, s - s // 4
        tile[(cols >= pole) & (cols < pole + stroke) & (rows >= top) & (rows < bottom)] = BLACK
        # Red pennant pointing left from the top of the pole.
        height = s * 2 // 5
        width = s * 2 // 5
        in_height = (rows >= top) & (rows < top + height)
        reach = width * (1 - np.abs(rows - top - height / 2) / (height / 2))
        tile[in_height & (cols < pole) & (cols >= pole - reach)] = RED
        # A stepped base.
        base_w = s // 2
        tile[(rows >= bottom - 2) & (rows < bottom) & (np.abs(cols - pole) <= base_w // 3)] = BLACK
        tile[(rows >= bottom) & (rows < bottom + 2) & (np.abs(cols - pole) <= base_w // 2)] = BLACK

    def _draw_mine(self, tile: np.ndarray) -> None:
        s = self.cell
        rows, cols = self._grid()
        centre = (s - 1) / 2 + 0.5
        dy, dx = rows + 0.5 - centre, cols + 0.5 - centre
        radius = s * 0.28
        body = dy**2 + dx**2 <= radius**2
        spike = s * 0.4
        stroke = max(1, s // 16)
        straight = ((np.abs(dx) < stroke) & (np.abs(dy) <= spike)) | (
            (np.abs(dy) < stroke) & (np.abs(dx) <= spike)
        )
        diagonal = (np.abs(np.abs(dx) - np.abs(dy)) < stroke) & (np.abs(dx) <= spike * 0.75)
        tile[body | straight | diagonal] = BLACK
        glint = (dy + radius * 0.4) ** 2 + (dx + radius * 0.4) ** 2 <= (radius * 0.25) ** 2
        tile[glint] = LIGHT

    def _draw_cross(self, tile: np.ndarray) -> None:
        s = self.cell
        rows, cols = self._grid()
        stroke = max(1, s // 12)
        margin = s // 6
        inside = (rows >= margin) & (rows < s - margin) & (cols >= margin) & (cols < s - margin)
        cross = (np.abs(rows - cols) < stroke) | (np.abs(rows + cols - (s - 1)) < stroke)
        tile[inside & cross] = RED

    def _make_tiles(self) -> np.ndarray:
        tiles = []
        for number in range(9):
            tile = self._open_tile()
            if number:
                self._draw_number(tile, number)
            tiles.append(tile)
        covered = self._covered_tile()
        flag = covered.copy()
        self._draw_flag(flag)
        mine = self._open_tile()
        self._draw_mine(mine)
        fatal = self._open_tile(RED)
        self._draw_mine(fatal)
        wrong = mine.copy()
        self._draw_cross(wrong)
        tiles += [covered, flag, mine, fatal, wrong]
        return np.stack(tiles)

    # -- a frame -----------------------------------------------------------------------------

    def tile_codes(self, game: Game, won: bool = False) -> np.ndarray:
        """(H, W) tile index of every cell: what the picture shows there."""
        view = game.minefield.view
        mines = game.layout.mines
        codes = np.where(view >= 0, view, TILE_COVERED).astype(np.intp)
        codes[view == FLAGGED] = TILE_FLAG
        if won or game.state is GameState.WON:
            codes[(view == COVERED) & mines] = TILE_FLAG
        elif game.state is GameState.LOST:
            codes[(view == COVERED) & mines] = TILE_MINE
            codes[(view == FLAGGED) & ~mines] = TILE_WRONG_FLAG
            if game.minefield.exploded is not None:
                x, y = game.minefield.exploded
                codes[y, x] = TILE_FATAL
        return codes

    def paint(self, game: Game, won: bool = False) -> np.ndarray:
        """The picture of ``game``: ``uint8`` (header + H*cell, max(W*cell, 160), 3).

        :param won: the env's verdict that the game is won although the rule
            set's own rule keeps it going (see the env's Episode End).
        """
        s = self.cell
        codes = self.tile_codes(game, won)
        height, width = codes.shape
        board = self.tiles[codes].transpose(0, 2, 1, 3, 4).reshape(height * s, width * s, 3)
        picture = np.empty((self.header + height * s, self._canvas_width(width), 3), dtype=np.uint8)
        picture[:] = GREY
        top, left = self.cell_origin(0, 0, width)
        picture[top:, left : left + width * s] = board
        state = GameState.WON if won else game.state
        # At a win every covered cell shows a flag, so the counter shows none left.
        mines_left = 0 if state is GameState.WON else game.mines_left
        self._paint_header(picture[: self.header], mines_left, game.guesses, state)
        return picture

    def _canvas_width(self, width: int) -> int:
        return max(width * self.cell, 160)

    def cell_origin(self, x: int, y: int, width: int) -> tuple[int, int]:
        """(row, column) of the top-left pixel of cell (x, y) on a ``width``-cell board's
        picture (to mark a cell on it, as the GIF of a watched game marks each guess)."""
        left = (self._canvas_width(width) - width * self.cell) // 2
        return self.header + y * self.cell, left + x * self.cell

    def _paint_header(self, band: np.ndarray, mines_left: int, guesses: int, state: GameState):
        band[-3:] = SHADOW
        digit_h = self.header - 14
        digit_w = max(7, digit_h * 13 // 23)
        top = 5
        self._counter(band, top, 6, mines_left, digit_w, digit_h)
        right = band.shape[1] - 6 - (3 * (digit_w + 4) + 2)
        self._counter(band, top, right, guesses, digit_w, digit_h)
        self._face(band, state, top - 1, digit_h + 2)

    def _counter(
        self, band: np.ndarray, top: int, left: int, value: int, digit_w: int, digit_h: int
    ):
        text = f"{max(-99, min(value, 999)):03d}"
        panel_w = 3 * (digit_w + 4) + 2
        band[top - 1 : top + digit_h + 1, left : left + panel_w] = BLACK
        stroke = max(2, digit_h // 9)
        for i, char in enumerate(text):
            x = left + 3 + i * (digit_w + 4)
            lit, every = seven_segment(char, digit_w, digit_h, stroke)
            region = band[top : top + digit_h, x : x + digit_w]
            region[every] = (60, 0, 0)
            region[lit] = RED

    def _face(self, band: np.ndarray, state: GameState, top: int, size: int):
        centre_x = band.shape[1] / 2
        rows, cols = np.mgrid[0:size, 0:size]
        r = size / 2
        dy, dx = rows + 0.5 - r, cols + 0.5 - r
        distance = np.sqrt(dx**2 + dy**2)
        face = np.empty((size, size, 3), dtype=np.uint8)
        face[:] = GREY
        face[distance <= r - 1] = (255, 230, 0)
        face[(distance > r - 2.5) & (distance <= r - 0.5)] = BLACK
        eye_y, eye_x, eye_r = -r * 0.25, r * 0.35, max(1.2, r * 0.12)
        if state is GameState.LOST:
            for side in (-1, 1):
                ex, ey = dx - side * eye_x, dy - eye_y
                arm = (np.abs(np.abs(ex) - np.abs(ey)) < 1.0) & (np.abs(ex) <= eye_r * 1.6)
                face[arm] = BLACK
        elif state is GameState.WON:
            glasses = (np.abs(dy - eye_y) <= eye_r * 1.2) & (np.abs(dx) <= eye_x + eye_r * 1.8)
            glasses &= (np.abs(np.abs(dx) - eye_x) <= eye_r * 1.8) | (np.abs(dy - eye_y) < 1)
            face[glasses] = BLACK
        else:
            for side in (-1, 1):
                face[(dx - side * eye_x) ** 2 + (dy - eye_y) ** 2 <= eye_r**2] = BLACK
        mouth_r = r * 0.5
        if state is GameState.LOST:  # a frown: the upper half of a circle below the centre
            ring = np.abs(np.sqrt(dx**2 + (dy - r * 0.75) ** 2) - mouth_r) < 1.0
            face[ring & (dy < r * 0.6) & (np.abs(dx) < mouth_r * 0.85)] = BLACK
        else:  # a smile: the lower half of a circle around the centre
            ring = np.abs(np.sqrt(dx**2 + (dy + r * 0.05) ** 2) - mouth_r) < 1.0
            face[ring & (dy > r * 0.15)] = BLACK
        left = int(centre_x - size / 2)
        band[top : top + size, left : left + size] = face
