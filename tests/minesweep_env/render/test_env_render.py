"""SemiAutoMines-v0 render modes: IOCCC-style text, the classic picture, the window fallback."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

import minesweep_env  # noqa: F401  (registers the env)
from minesweep_env import Game, MineLayout
from minesweep_env.render import BoardPainter, render_ansi
from minesweep_env.render.picture import (
    NUMBER_COLOURS,
    RED,
    TILE_COVERED,
    TILE_FATAL,
    TILE_FLAG,
    TILE_MINE,
)

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
LAYOUT = MineLayout.from_rows(["xoooo", "ooooo", "ooooo", "oooox"])


def lost_game() -> Game:
    """A 5x4 game: a probe at (1, 0) shows 1 and proves nothing, then (0, 0) is the mine."""
    game = Game(LAYOUT, rule_set="mysweeper", first_click="none", seed=0)
    assert game.probe(1, 0) == "playing"
    assert game.rows()[0] == "?1???"
    assert game.probe(0, 0) == "lost"
    return game


def test_ansi_screen_has_the_ioccc_shape_and_colours():
    game = lost_game()
    text = render_ansi(game)
    lines = text.splitlines()
    assert len(lines) == 1 + game.height
    plain = [ANSI_ESCAPE.sub("", line) for line in lines]
    assert all(len(line) == 2 * game.width for line in plain[1:])
    assert len(plain[0]) == 12  # the top line keeps room for the face on narrow boards
    assert plain[0].startswith("002") and "X-(" in plain[0]  # mines left, the lost face
    assert plain[0].endswith(f"{game.guesses:03d}")
    assert "\x1b[1;33;41m *" in lines[1]  # the fatal mine, bold yellow on red
    assert "\x1b[37;41m *" in lines[4]  # the other mine, white on red as the program
    assert "\x1b[34;40m 1" in text  # a 1 in blue, as the program's colour pair


def test_plain_text_uses_the_rows_glyphs_and_marks_the_fatal_mine():
    game = lost_game()
    plain = render_ansi(game, color=False).splitlines()[1:]
    expected = [row.replace("*", "X", 1) if y == 0 else row for y, row in enumerate(game.rows())]
    assert [line[1::2] for line in plain] == expected
    assert all(line[0::2].strip() == "" for line in plain)


def test_env_ansi_render_follows_the_game():
    env = gym.make("SemiAutoMines-v0", render_mode="ansi", rule_set="endoh")
    env.reset(seed=0)
    first = env.render()
    assert ANSI_ESCAPE.sub("", first).count(".") == 81  # every cell covered
    env.step(40)
    assert env.render() != first


def test_picture_shows_each_cell_as_its_tile():
    game = lost_game()
    painter = BoardPainter(cell=24)
    codes = painter.tile_codes(game)
    assert codes[0, 0] == TILE_FATAL
    assert codes[3, 4] == TILE_MINE
    view = game.view
    assert (codes[view >= 0] == view[view >= 0]).all()
    picture = painter.paint(game)
    assert picture.dtype == np.uint8
    assert picture.shape == (painter.header + 4 * 24, 160, 3)  # narrow boards get a 160 px header
    assert picture.shape[0] % 2 == 0 and picture.shape[1] % 2 == 0  # video encoders need even
    left = (160 - 5 * 24) // 2

    def cell(x: int, y: int) -> np.ndarray:
        top = painter.header + y * 24
        return picture[top : top + 24, left + x * 24 : left + (x + 1) * 24]

    assert (cell(0, 0)[3, 3] == RED).all()  # the fatal cell's red background
    assert (cell(0, 0) == 0).all(axis=2).any()  # and a black mine on it
    for y in range(game.height):
        for x in range(game.width):
            number = int(view[y, x])
            if number > 0:
                colour = np.array(NUMBER_COLOURS[number])
                assert (cell(x, y) == colour).all(axis=2).sum() > 20


def test_covered_cells_are_raised_and_flags_red():
    painter = BoardPainter(cell=24)
    covered = painter.tiles[TILE_COVERED]
    assert (covered[1, 1] == 255).all()  # light top-left bevel
    assert (covered[-2, -2] == 128).all()  # dark bottom-right bevel
    flag = painter.tiles[TILE_FLAG]
    assert (flag == RED).all(axis=2).sum() > 20
    assert (flag == 0).all(axis=2).sum() > 10  # the pole and base


def test_won_game_shows_flags_on_every_mine_and_the_counter_at_zero():
    env = gym.make(
        "SemiAutoMines-v0", width=5, height=4, mines=2, rule_set="complete", render_mode="rgb_array"
    )
    env.reset(seed=0, options={"layout": LAYOUT})
    _, reward, terminated, _, _ = env.step(2 * 5 + 2)
    assert reward == 1.0 and terminated
    painter = env.unwrapped._renderer or BoardPainter()
    codes = painter.tile_codes(env.unwrapped.game, won=True)
    assert codes[0, 0] == TILE_FLAG and codes[3, 4] == TILE_FLAG
    text = render_ansi(env.unwrapped.game, won=True, color=False)
    assert text.startswith("000") and "8-)" in text.splitlines()[0]  # nothing left to find
    assert text.splitlines()[1][1] == "!"
    assert env.render().shape == (painter.header + 96, 160, 3)


def test_expert_picture_size_and_frames_for_a_whole_episode():
    env = gym.make("SemiAutoMines-v0", board="expert", rule_set="endoh", render_mode="rgb_array")
    env = gym.wrappers.RenderCollection(env)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps, done = 0, False
    while not done:
        valid = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(rng.choice(valid)))
        steps += 1
        done = terminated or truncated
    frames = env.render()
    assert len(frames) == steps + 1
    assert all(frame.shape == (40 + 16 * 24, 30 * 24, 3) for frame in frames)
    assert not np.array_equal(frames[0], frames[-1])


def test_record_video_writes_a_file(tmp_path):
    pytest.importorskip("moviepy")
    env = gym.make("SemiAutoMines-v0", rule_set="endoh", render_mode="rgb_array")
    folder = tmp_path / "videos"
    env = gym.wrappers.RecordVideo(env, str(folder), episode_trigger=lambda _: True)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    assert list(folder.glob("*.mp4"))


def test_human_mode_without_a_display_prints_the_screen(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = gym.make("SemiAutoMines-v0", render_mode="human", rule_set="endoh")
    env.reset(seed=0)
    env.step(0)
    out = capsys.readouterr().out
    assert out.count(":-)") + out.count("X-(") + out.count("8-)") == 2  # reset and step
    env.close()


def test_window_keeps_one_figure_and_updates_its_picture():
    """The drawing path of the human window, on matplotlib's headless backend."""
    from minesweep_env.render import Window

    window = Window("SemiAutoMines", fps=100)
    window.available = True  # as if a display were there; Agg draws without one
    picture = BoardPainter().paint(lost_game())
    assert window.show(picture)
    figure = window._figure
    assert window.show(picture // 2)
    assert window._figure is figure
    assert np.array_equal(window._image.get_array(), picture // 2)
    window.close()
    assert window._figure is None
