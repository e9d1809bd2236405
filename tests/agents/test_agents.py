"""The baseline agents: valid actions, seeding, the greedy rule and its tie-break."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from types import SimpleNamespace

import numpy as np
import pytest
from brute_force import exact_probabilities
from positions import random_position

from minesweep_env import Board, Game, MineLayout, get_rule_set
from minesweep_env.core.cells import COVERED, FLAGGED
from minesweep_env.core.first_click import FirstClick
from semiautomines_agents import AGENTS, GreedyAgent, PlainGreedyAgent, RandomAgent, make_agent
from semiautomines_agents.greedy import (
    LOOKAHEAD,
    first_click_cell,
    neighbour_counts,
    progress_chance,
    zero_chance,
)
from semiautomines_agents.model_files import save_policy
from semiautomines_agents.ppo import (
    ModelNotFoundError,
    PPOAgent,
    UntrustedModelError,
    default_model_path,
    obs_mode_of,
)


def _mask(view: np.ndarray) -> np.ndarray:
    return view.reshape(-1) == COVERED


def _position_game(board: Board, probes: int = 1, first_click: str = "safe") -> SimpleNamespace:
    """A stand-in for a Game at ``board``: what GreedyAgent reads of ``game.minefield``,
    and a fresh rule set that has counted nothing (``known_weights`` is ``None``)."""
    minefield = SimpleNamespace(
        width=board.width,
        height=board.height,
        probes=probes,
        first_click=FirstClick(first_click),
        view=board.grid,
        board=lambda: board.copy(),
    )
    return SimpleNamespace(minefield=minefield, rule_set=get_rule_set("complete"))


@cache
def seeds_where(applies: Callable[[int], bool], count: int) -> tuple[int, ...]:
    """The first ``count`` seeds whose :func:`random_position` ``applies``, so that
    every case of a property test checks the property (none passes by returning)."""
    seeds = tuple(seed for seed in range(20 * count) if applies(seed))[:count]
    assert len(seeds) == count, f"only {len(seeds)} positions fit"
    return seeds


def has_a_covered_cell(seed: int) -> bool:
    board, _ = random_position(seed)
    return bool(_mask(board.grid).any())


def has_no_certain_cell(seed: int) -> bool:
    """A covered safe cell is left and no covered cell is certainly safe."""
    board, layout = random_position(seed)
    flat = board.grid.reshape(-1)
    if not any(flat[i] == COVERED and not layout.mines.flat[i] for i in range(flat.size)):
        return False
    _, probabilities = exact_probabilities(board, board.total_mines)
    return all(p != 0 for p in probabilities.values())


def has_a_tie_to_break(seed: int) -> bool:
    """Two or more covered cells share the lowest mine probability, above 0."""
    board, _ = random_position(seed)
    mask = _mask(board.grid)
    if not mask.any():
        return False
    _, exact = exact_probabilities(board, board.total_mines)
    lowest = min(exact[i] for i in np.flatnonzero(mask))
    return lowest > 0 and sum(exact[i] == lowest for i in np.flatnonzero(mask)) >= 2


def test_registry_names_and_unknown_agent():
    assert {"random", "greedy", "greedy-plain", "ppo"} <= set(AGENTS)
    with pytest.raises(ValueError, match="unknown agent 'nope'; known: random"):
        make_agent("nope")


def test_random_agent_picks_only_valid_cells_and_replays_with_its_seed():
    mask = np.zeros(81, dtype=bool)
    mask[[3, 17, 40, 80]] = True
    agent = RandomAgent()
    agent.reset(seed=5)
    first = [agent.act(None, mask) for _ in range(200)]
    assert set(first) == {3, 17, 40, 80}  # all of them, nothing else
    agent.reset(seed=5)
    assert [agent.act(None, mask) for _ in range(200)] == first


@pytest.mark.parametrize(
    ("policy", "size", "cell"),
    [
        ("safe", (9, 9), (0, 0)),
        ("none", (30, 16), (0, 0)),
        ("zero", (9, 9), (3, 3)),
        ("zero", (30, 16), (3, 3)),
        ("zero", (5, 4), (2, 1)),  # pulled inward on a small board
    ],
)
def test_greedy_first_click_is_the_known_best_cell(policy, size, cell):
    width, height = size
    assert first_click_cell(width, height, policy) == cell
    layout = MineLayout.random(width, height, 3, np.random.default_rng(0))
    game = Game(layout, rule_set="complete", first_click=policy, seed=1)
    action = GreedyAgent().act(None, _mask(game.view), game)
    assert (action % width, action // width) == cell


@pytest.mark.parametrize("case", range(40))
def test_greedy_probes_a_cell_of_lowest_exact_probability(case):
    seed = seeds_where(has_a_covered_cell, 40)[case]
    board, _ = random_position(seed)
    mask = _mask(board.grid)
    _, probabilities = exact_probabilities(board, board.total_mines)
    lowest = min(probabilities[i] for i in np.flatnonzero(mask))
    for agent in (GreedyAgent(), PlainGreedyAgent(seed=seed)):
        action = agent.act(None, mask, _position_game(board))
        assert mask[action]
        assert probabilities[action] == lowest


@pytest.mark.parametrize("case", range(40))
def test_greedy_tie_break_prefers_the_likeliest_zero_then_corners(case):
    seed = seeds_where(has_a_covered_cell, 40)[case]
    board, _ = random_position(seed)
    mask = _mask(board.grid)
    _, exact = exact_probabilities(board, board.total_mines)
    lowest = min(exact[i] for i in np.flatnonzero(mask))
    tied = [i for i in np.flatnonzero(mask) if exact[i] == lowest]
    p = np.full(board.grid.size, np.nan)
    for i, value in exact.items():
        p[i] = float(value)
    zero = zero_chance(board.grid, p.reshape(board.grid.shape)).reshape(-1)
    neighbours = neighbour_counts(board.height, board.width).reshape(-1)
    best = min(tied, key=lambda i: (-round(zero[i], 12), neighbours[i], i))
    assert GreedyAgent(tie_break="zero").act(None, mask, _position_game(board)) == best


def brute_progress(board: Board, cell: int) -> Fraction:
    """By enumeration: the chance that probing ``cell`` leaves another covered cell
    that no consistent layout mines, weighted by the layouts behind each number."""
    flat = board.grid.reshape(-1)
    fitting = progress = 0
    for number in range(9):
        trial = board.copy()
        trial.grid.reshape(-1)[cell] = number
        layouts, probabilities = exact_probabilities(trial, board.total_mines)
        if not layouts:
            continue
        fitting += layouts
        others = [i for i, p in probabilities.items() if i != cell and flat[i] == COVERED]
        if any(probabilities[i] == 0 for i in others):
            progress += layouts
    return Fraction(progress, fitting) if fitting else Fraction(0)


@pytest.mark.parametrize("case", range(60))
def test_progress_chance_matches_brute_force(case):
    # The chance is defined on positions with no certain cell yet.
    seed = seeds_where(has_no_certain_cell, 60)[case]
    board, layout = random_position(seed)
    flat = board.grid.reshape(-1)
    safe_covered = [i for i in np.flatnonzero(flat == COVERED) if not layout.mines.flat[i]]
    cell = int(safe_covered[seed % len(safe_covered)])
    assert progress_chance(board, cell) == pytest.approx(float(brute_progress(board, cell)))


@pytest.mark.parametrize("case", range(60))
def test_greedy_lookahead_takes_the_best_chance_of_progress_among_likeliest_zeros(case):
    seed = seeds_where(has_a_tie_to_break, 60)[case]
    board, _ = random_position(seed)
    mask = _mask(board.grid)
    _, exact = exact_probabilities(board, board.total_mines)
    lowest = min(exact[i] for i in np.flatnonzero(mask))
    tied = [int(i) for i in np.flatnonzero(mask) if exact[i] == lowest]
    p = np.full(board.grid.size, np.nan)
    for i, value in exact.items():
        p[i] = float(value)
    zero = zero_chance(board.grid, p.reshape(board.grid.shape)).reshape(-1)
    neighbours = neighbour_counts(board.height, board.width).reshape(-1)
    ranked = sorted(tied, key=lambda i: (-round(zero[i], 12), neighbours[i], i))[:LOOKAHEAD]
    chances = [brute_progress(board, c) for c in ranked]
    best = ranked[max(range(len(ranked)), key=lambda k: (chances[k], -k))]
    assert GreedyAgent().act(None, mask, _position_game(board)) == best


def test_zero_chance_is_the_product_of_neighbour_safety():
    board = Board.from_rows(["1??", "???", "??!"], total_mines=2)
    p = np.full((3, 3), 0.25)
    p[0, 0] = np.nan
    p[2, 2] = np.nan
    zero = zero_chance(board.grid, p)
    assert zero[0, 1] == pytest.approx(0.75**4)  # (0,0) open, 4 covered neighbours
    assert zero[1, 1] == 0.0  # next to the flag
    assert zero[1, 0] == pytest.approx(0.75**4)


def test_neighbour_counts_of_corners_edges_and_inside():
    counts = neighbour_counts(4, 5)
    assert counts[0, 0] == 3 and counts[0, 2] == 5 and counts[1, 1] == 8 and counts[3, 4] == 3
    assert neighbour_counts(1, 4).tolist() == [[1, 2, 2, 1]]


def test_plain_greedy_breaks_ties_at_random_but_replays_with_its_seed():
    board = Board(np.full((9, 9), COVERED, dtype=np.int8), 10)
    game = _position_game(board, probes=0)
    mask = _mask(board.grid)
    agent = PlainGreedyAgent()
    picks = []
    for seed in range(30):
        agent.reset(seed=seed)
        picks.append(agent.act(None, mask, game))
    assert len(set(picks)) > 10  # not always the same cell
    agent.reset(seed=3)
    assert agent.act(None, mask, game) == picks[3]


def test_greedy_plays_whole_games_with_valid_moves_only():
    for seed in range(20):
        layout = MineLayout.random(9, 9, 10, np.random.default_rng(seed))
        game = Game(layout, rule_set="complete", first_click="safe", seed=seed)
        agent = GreedyAgent()
        while game.state == "playing":
            mask = _mask(game.view)
            action = agent.act(None, mask, game)
            assert mask[action]
            game.probe(action % 9, action // 9)
        assert game.state in ("won", "lost")


def test_greedy_never_probes_a_flag():
    board = Board.from_rows(["1!?", "???"], total_mines=1)
    flat = board.grid.reshape(-1)
    assert flat[1] == FLAGGED
    action = GreedyAgent().act(None, _mask(board.grid), _position_game(board))
    assert action != 1 and _mask(board.grid)[action]


def test_ppo_agent_says_plainly_when_the_model_is_missing(tmp_path, monkeypatch):
    with pytest.raises(ModelNotFoundError, match="no such model file"):
        PPOAgent(tmp_path / "absent.zip")
    monkeypatch.setattr("semiautomines_agents.ppo.agent.MODELS_DIR", tmp_path)
    with pytest.raises(ModelNotFoundError, match="no PPO model shipped yet"):
        default_model_path()
    (tmp_path / "ppo_a.pt").write_bytes(b"")
    (tmp_path / "ppo_b.pt").write_bytes(b"")
    (tmp_path / "ppo_c.zip").write_bytes(b"")  # a stable-baselines3 zip is never the default
    assert default_model_path().name == "ppo_b.pt"
    (tmp_path / "ppo_default.pt").write_bytes(b"")
    assert default_model_path().name == "ppo_default.pt"


def test_ppo_agent_rejects_a_file_that_is_not_a_model(tmp_path):
    bad = tmp_path / "ppo_bad.zip"
    bad.write_text("not a zip")
    with pytest.raises(ModelNotFoundError, match="cannot load a MaskablePPO model"):
        PPOAgent(bad)


def test_obs_mode_of_a_model_from_its_sidecar_or_its_shape(tmp_path):
    sidecar = tmp_path / "m.json"
    assert obs_mode_of((11, 9, 9), sidecar) == "planes"
    assert obs_mode_of((12, 9, 9), sidecar) == "planes+probabilities"
    assert obs_mode_of((9, 9), sidecar) == "grid"
    sidecar.write_text(json.dumps({"env_kwargs": {"obs_mode": "planes+probabilities"}}))
    assert obs_mode_of((11, 9, 9), sidecar) == "planes+probabilities"


@pytest.mark.slow
def test_ppo_agent_plays_a_saved_model_on_any_board_size(tmp_path):
    """A tiny MaskablePPO with the per-cell policy, saved and reloaded by the
    harness's ppo agent, plays its training board and other sizes with valid
    actions only."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    from semiautomines_agents.evaluation import Settings, board_target, evaluate
    from semiautomines_agents.policies import CellPolicy

    env = gymnasium.make("SemiAutoMines-v0", board="beginner", obs_mode="planes")
    model = MaskablePPO(
        CellPolicy,
        env,
        n_steps=16,
        batch_size=16,
        n_epochs=1,
        policy_kwargs={"features_extractor_kwargs": {"channels": 8, "blocks": 1}},
        seed=0,
        device="cpu",
    )
    model.learn(16)
    path = tmp_path / "ppo_tiny.pt"
    save_policy(model.policy, path, obs_mode="planes")
    agent = make_agent("ppo", model=path)
    assert agent.obs_mode == "planes" and agent.deterministic
    targets = [board_target("beginner"), board_target("7x5x6")]
    run = evaluate(["ppo"], targets, Settings(model=str(path)), games=4, progress=False)
    assert [(r["board"], r["games"], r["invalid_actions"]) for r in run.rows] == [
        ("beginner", 4, 0),
        ("7x5x6", 4, 0),
    ]
    again = evaluate(["ppo"], targets, Settings(model=str(path)), games=4, progress=False)
    assert [r["wins"] for r in again.rows] == [r["wins"] for r in run.rows]

    # The same model as a stable-baselines3 zip: refused, unless trusted; then the same play.
    zipped = tmp_path / "ppo_tiny.zip"
    model.save(zipped)
    with pytest.raises(UntrustedModelError, match="--trust-model"):
        make_agent("ppo", model=zipped)
    trusted = Settings(model=str(zipped), trust_model=True)
    as_zip = evaluate(["ppo"], targets, trusted, games=4, progress=False)
    assert [r["wins"] for r in as_zip.rows] == [r["wins"] for r in run.rows]
    assert [r["mean_guesses"] for r in as_zip.rows] == [r["mean_guesses"] for r in run.rows]


def test_greedy_opening_takes_the_known_first_click_then_random_ties():
    board = Board(np.full((9, 9), COVERED, dtype=np.int8), 10)
    mask = _mask(board.grid)
    agent = make_agent("greedy-opening")
    assert not agent.deterministic
    for seed in range(5):
        agent.reset(seed=seed)
        assert agent.act(None, mask, _position_game(board, probes=0, first_click="zero")) == 30
