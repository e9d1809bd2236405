"""The terminal game's parts that need no terminal: geometry, session, animation, looks, CLI."""

from __future__ import annotations

import time

import numpy as np
import pytest

from minesweep_env import Game, GameState, MineLayout, mine_probabilities
from minesweep_env.cli.main import main
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.errors import InconsistentBoardError
from minesweep_env.solver.base import Proof, RuleSet
from minesweep_env.tui import GameSpec, Guess, Session
from minesweep_env.tui import geometry as geo
from minesweep_env.tui import looks as lk
from minesweep_env.tui.probability_worker import ProbabilityWorker
from minesweep_env.tui.session import safest_cell
from minesweep_env.tui.solver_steps import chunked, reveal_order

UNWINNABLE = "maps/ioccc/unwinnable.txt"


# -- geometry --------------------------------------------------------------------------------
def test_terminal_field_is_the_ioccc_programs():
    # W = COLS/2, H = LINES-1, C = W*H/5, as in prog.c.
    assert geo.terminal_field_size(24, 80) == (40, 23, 184)
    assert geo.terminal_field_size(25, 81) == (40, 24, 192)


@pytest.mark.parametrize("width,height", [(1, 1), (5, 5), (40, 23), (150, 49)])
def test_cells_are_two_columns_under_the_status_line(width, height):
    rng = np.random.default_rng(width)
    for _ in range(50):
        x, y = int(rng.integers(width)), int(rng.integers(height))
        row, col = geo.cell_origin(x, y)
        assert (row, col) == (y + 1, 2 * x)
        assert geo.cell_at(row, col, width, height) == (x, y)
        assert geo.cell_at(row, col + 1, width, height) == (x, y)
    assert geo.cell_at(0, 0, width, height) is None  # the status line
    assert geo.cell_at(height + 1, 0, width, height) is None
    assert geo.cell_at(1, 2 * width, width, height) is None


def test_smiley_is_centred_where_the_original_puts_it():
    assert geo.smiley_column(40) == 39  # prog.c: column W-1
    assert [c for c in range(80) if geo.on_smiley(0, c, 40)] == [39, 40, 41]
    assert not geo.on_smiley(1, 40, 40)


def test_fits():
    assert geo.fits(40, 23, 24, 80)
    assert not geo.fits(40, 23, 23, 80)
    assert not geo.fits(40, 23, 24, 79)
    assert not geo.fits(2, 2, 24, 10)  # the status line needs 11 columns


# -- the auto-solver animation ---------------------------------------------------------------
def _play_out(session: Session, cells: list[tuple[int, int]]) -> None:
    """Probe cells through the session, applying every animation frame as the app does."""
    for x, y in cells:
        before = session.shown.copy()
        move = session.probe(x, y)
        assert np.array_equal(session.shown, before), "nothing shows before the frames do"
        for step in move.steps:
            session.show(step)
        assert np.array_equal(session.shown, session.game.view), "the last frame is the game"
        assert not session.animating


@pytest.mark.parametrize("seed", range(6))
def test_step_by_step_ends_on_games_board(seed):
    spec = GameSpec(size=(16, 16, 40), seed=seed)
    session = Session(spec, 24, 80, animate=True)
    plain = Game(session.game.minefield.initial_layout, rule_set="endoh")
    rng = np.random.default_rng(seed)
    for _ in range(5):
        covered = np.argwhere(session.game.view == COVERED)
        if session.state is not GameState.PLAYING or len(covered) == 0:
            break
        y, x = (int(v) for v in covered[rng.integers(len(covered))])
        _play_out(session, [(x, y)])
        plain.probe(x, y)
        assert np.array_equal(session.game.view, plain.view)
        assert session.state == plain.state and session.game.guesses == plain.guesses


def test_reveal_order_spreads_from_the_click_and_replays_exactly():
    rng = np.random.default_rng(0)
    frames = [np.full((6, 7), COVERED, dtype=np.int8)]
    for _ in range(3):
        nxt = frames[-1].copy()
        nxt[rng.random(nxt.shape) < 0.3] = rng.integers(0, 9)
        frames.append(nxt)
    changes = reveal_order(frames, origin=(3, 2))
    replay = frames[0].copy().reshape(-1)
    for index, code in changes:
        replay[index] = code
    assert np.array_equal(replay.reshape(6, 7), frames[-1])
    first_round = np.flatnonzero(frames[0] != frames[1])
    distances = [max(abs(i % 7 - 3), abs(i // 7 - 2)) for i, _ in changes[: len(first_round)]]
    assert distances == sorted(distances)


def test_chunked_keeps_order_and_frame_budget():
    changes = [(i, 1) for i in range(101)]
    chunks = chunked(changes, 40)
    assert len(chunks) <= 40 and [c for chunk in chunks for c in chunk] == changes
    assert chunked(changes[:3], 40) == [[c] for c in changes[:3]]
    assert chunked([], 40) == []


def test_no_animation_shows_the_result_at_once():
    session = Session(GameSpec(size=(9, 9, 10), seed=3), 24, 80, animate=False)
    move = session.probe(4, 4)
    assert move.steps == [] and np.array_equal(session.shown, session.game.view)


# -- hand flags ------------------------------------------------------------------------------
def _row_session(rule_set: str = "endoh") -> Session:
    # One row: a mine at x=2. Probing x=1 shows a 1 that cannot tell x=0 from x=2.
    layout = MineLayout.from_rows(["ooxoo"])
    return Session(GameSpec(layout=layout, rule_set=rule_set), 24, 80, animate=False)


def test_hand_flag_is_trusted_and_a_wrong_one_loses_where_the_solver_probes():
    session = _row_session()
    session.probe(1, 0)
    assert session.state is GameState.PLAYING and session.game.view[0, 0] == COVERED
    session.toggle_flag(0, 0)  # wrong: x=0 is safe
    assert session.state is GameState.LOST
    assert session.game.minefield.exploded == (2, 0)


def test_right_hand_flag_lets_the_solver_finish():
    session = _row_session()
    session.probe(1, 0)
    session.toggle_flag(2, 0)
    assert session.game.view[0, 0] == 0, "the 1 is satisfied by the flag: its other cell opens"
    assert session.state is GameState.PLAYING and session.hand_flags == {2}


def test_flag_toggles_off_and_before_the_first_probe_runs_no_solver():
    session = _row_session()
    session.toggle_flag(0, 0)
    assert session.game.view[0, 0] == FLAGGED and session.game.view[0, 1] == COVERED
    session.toggle_flag(0, 0)
    assert session.game.view[0, 0] == COVERED and not session.hand_flags


def test_a_contradiction_stops_the_solver_with_a_message():
    class Contradicted(RuleSet):
        name = "contradicted-test"

        def prove(self, board: Board) -> Proof:
            raise InconsistentBoardError("a 1 with two flags", (1, 0))

    session = _row_session()
    session.game.rule_set = Contradicted()
    session.probe(1, 0)
    assert session.solver_steps.contradiction is not None
    assert "a 1 with two flags" in session.solver_steps.contradiction
    assert session.message == "your flags contradict the numbers"
    assert session.state is GameState.PLAYING and session.game.view[0, 1] == 1


# -- clock, hint, odds -----------------------------------------------------------------------
def test_timer_starts_on_the_first_probe_and_stops_at_the_end():
    session = Session(GameSpec(layout=MineLayout.from_rows(["xooo"])), 24, 80, animate=False)
    assert session.elapsed(now=time.monotonic() + 50) == 0
    session.probe(3, 0)
    assert session.state is GameState.WON
    assert session.elapsed(now=time.monotonic() + 50) == session.elapsed()


def test_safest_cell_breaks_ties_towards_open_corners_then_the_cursor():
    view = np.full((4, 4), COVERED, dtype=np.int8)
    p = np.full((4, 4), 0.2)
    assert safest_cell(p, view, near=(3, 2)) == (3, 3)  # a corner, the one nearest
    view[1, 1] = 1
    p[1, 1] = np.nan
    assert safest_cell(p, view, near=(3, 3)) == (0, 0)  # 2 covered neighbours beat 3
    p[2, 3] = 0.05
    assert safest_cell(p, view) == (3, 2)
    assert safest_cell(np.full((2, 2), np.nan), np.zeros((2, 2), dtype=np.int8)) is None


def _wait_for_odds(session: Session) -> np.ndarray:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        session.poll_odds()
        result = session.probability_worker.result(session.version)
        if result is not None:
            return result
        time.sleep(0.01)
    raise AssertionError("no probabilities")


def test_overlay_odds_are_the_engines_and_hint_takes_the_minimum():
    session = Session(GameSpec(size=(9, 9, 10), seed=5), 24, 80, animate=False)
    session.probe(4, 4)
    session.overlay = True
    odds = _wait_for_odds(session)
    expected = mine_probabilities(session.game.minefield.board())
    assert np.allclose(odds, expected, equal_nan=True)
    if session.state is GameState.PLAYING:
        session.request_hint()
        _wait_for_odds(session)
        session.poll_odds()
        x, y = session.hint
        assert odds[y, x] == np.nanmin(np.where(session.game.view == COVERED, odds, np.nan))
        assert "safest guess" in session.message


def test_worker_reports_a_contradiction_instead_of_crashing():
    worker = ProbabilityWorker()
    grid = np.array([[FLAGGED, 0, COVERED]], dtype=np.int8)  # a 0 next to a flag
    worker.request(1, Board(grid, 1))
    deadline = time.monotonic() + 10
    while worker.error_version != 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert worker.error == "your flags contradict the numbers"


# -- looks -----------------------------------------------------------------------------------
def test_looks_after_a_loss_show_mines_the_exploded_one_and_wrong_flags():
    mines = np.array([[True, False, True, False]])
    shown = np.array([[COVERED, FLAGGED, COVERED, 1]], dtype=np.int8)
    looks = lk.field_looks(
        shown,
        state=GameState.LOST,
        mines=mines,
        exploded=(2, 0),
        hand_flags={1},
        probabilities=None,
        cursor=(3, 0),
        hint=None,
    )
    assert looks.tolist() == [[lk.MINE_LOOK, lk.WRONG_FLAG_LOOK, lk.EXPLODED_LOOK, 1 + lk.CURSOR]]


def test_overlay_shades_covered_cells_by_probability():
    shown = np.array([[COVERED, COVERED, COVERED, 2]], dtype=np.int8)
    p = np.array([[0.0, 0.3, 1.0, np.nan]])
    looks = lk.field_looks(
        shown,
        state=GameState.PLAYING,
        mines=np.zeros((1, 4), bool),
        exploded=None,
        hand_flags=set(),
        probabilities=p,
        cursor=None,
        hint=None,
    )
    assert looks.tolist() == [[lk.SHADE_LOOK, lk.SHADE_LOOK + 3, lk.SHADE_LOOK + 6, 2]]


# -- the command line ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args,problem",
    [
        ([UNWINNABLE, "--board", "expert"], "not both"),
        (["--board", "expert", "--width", "9"], "not both"),
        (["--width", "9"], "go together"),
        (["--mines", "9"], "needs --width"),
        (["--width", "3", "--height", "3", "--mines", "10"], "0..9"),
        (["--width", "3", "--height", "3", "--mines", "1", "--first-click", "zero"], "no room"),
        (["--width", "0", "--height", "3"], "at least 1x1"),
        (["--rule-set", "nonsense"], "unknown rule set"),
        (["no/such/map.txt"], "no/such/map.txt: no such file"),
        ([UNWINNABLE], "needs a terminal"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args, problem, capsys):
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert problem in err and err.count("\n") == 1 and "Traceback" not in err


def test_help_shows_an_example(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "semiautomines play maps/ioccc/ioccc.txt" in out and "--no-animate" in out


# -- what a newcomer meets first ---------------------------------------------------------------
NO_GUESS_MAP = "maps/no-guess/intermediate/intermediate-069.txt"


def _spec(*args: str) -> GameSpec:
    from minesweep_env.cli.main import build_parser
    from minesweep_env.cli.play import build_spec

    return build_spec(build_parser("play").parse_args(["play", *args]))


def test_the_cursor_is_shown_from_the_start_where_space_probes():
    session = Session(GameSpec(size=(9, 9, 10), first_click="safe"), 30, 80)
    assert session.cursor_shown and session.cursor == (4, 4)  # the painter draws it when shown


def test_a_maps_start_file_opens_its_start_cell():
    from minesweep_env.formats.start_file import load_start

    start = load_start(NO_GUESS_MAP)
    spec = _spec(NO_GUESS_MAP, "--rule-set", "complete", "--first-click", "none")
    assert spec.start == start
    session = Session(spec, 30, 80)
    x, y = start
    assert session.game.minefield.probes == 1 and session.shown[y, x] != COVERED
    assert session.cursor == start
    assert session.state is GameState.WON  # a no-guess map: nothing left to guess


def test_the_key_box_says_what_h_does_as_help_does(capsys):
    from minesweep_env.tui.painter import _help

    alone = Session(GameSpec(size=(9, 9, 10)), 30, 80)
    assert "h  safest cell" in _help(alone)[0]
    advised = Session(
        GameSpec(size=(9, 9, 10), advisor=lambda game: (0, 0), advisor_name="search"), 30, 80
    )
    assert "h  search agent's guess" in _help(advised)[0]
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "search agent's guess" in out and "safest cell" in out


def test_a_position_file_is_named_as_one(tmp_path, capsys):
    from minesweep_env import format_board

    game = Game.new("beginner", seed=2)
    game.probe(4, 4)
    position = tmp_path / "position.txt"
    position.write_text(format_board(game.board))
    assert main(["play", str(position)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "this is a position" in err and "semiautomines probabilities" in err


def test_board_takes_a_custom_size_as_everywhere_else(capsys):
    assert _spec("--board", "8x8x10").size == (8, 8, 10)
    assert _spec("--board", "Expert").size == (30, 16, 99)
    with pytest.raises(SystemExit) as stop:
        main(["play", "--board", "9x9x81"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mines must be in 0..80" in err


def test_a_guess_that_opens_a_flag_takes_it_off_and_loses_on_the_mine():
    # After the first probe the auto-solver flags (3, 2), a proven mine.
    layout = MineLayout.from_rows(["ooxox", "ooooo", "oooxx", "ooooo"])
    spec = GameSpec(layout=layout, rule_set="complete", first_click="none")
    plain, through = (Session(spec, 24, 80, animate=False) for _ in range(2))
    for session in (plain, through):
        session.probe(0, 3)
        assert session.state is GameState.PLAYING and session.game.view[2, 3] == FLAGGED
    plain.play_guess(Guess((3, 2), "a click on a flag"))  # refused: a flag is no guess
    assert plain.state is GameState.PLAYING and "invalid guess" in plain.message
    through.play_guess(Guess((3, 2), "a replayed click", opens_flag=True))
    assert through.state is GameState.LOST
    assert through.game.minefield.exploded == (3, 2)
