"""Every guess ``search`` makes in seeded games, logged with its position and the game's end.

The raw material for measuring where guesses lose: per decision the position
(the view as the agent saw it, the mine count), the cell chosen, how it was
chosen (``search``, ``forced``, ``endgame``) and its safety, the move's number
in the game, the number of layouts the position admits, and whether the game
was won in the end. With ``--jsminesweeper`` JSMinesweeper's solver is asked
on the same position too (its cell, safety and path), so where the two differ
is on record.

The games are those of ``semiautomines evaluate`` (same seed and game numbers,
rule set ``complete``). Lines are appended one game at a time, so a run that
stops keeps every game it finished, and a rerun with the same ``--out`` goes
on after the last game logged.

Run: ``nice -n 10 python benchmarks/guess_log.py --board expert --games 1000
--out /tmp/guesses.jsonl [--jsminesweeper /tmp/JSMinesweeper]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from peers import PeerMissing
from peers.jsminesweeper_player import JSMinesweeperPlayer, load_source

from minesweep_env import STANDARD_BOARDS, Board
from minesweep_env.solver.weights import Weights
from semiautomines_agents import make_agent
from semiautomines_agents.base import Agent
from semiautomines_agents.evaluation import Settings, board_target
from semiautomines_agents.evaluation.play import make_env, play_game
from semiautomines_agents.evaluation.records import Chunk
from semiautomines_agents.search.agent import Advice, SearchAgent


@dataclass(frozen=True)
class Guess:
    """``search``'s decision at a move after the first click, with what it saw."""

    board: Board
    valid: np.ndarray
    """The cells it may probe (the action mask, flat)."""
    weights: Weights | None
    """The rule set's exact weights of ``board``, when it counted that position."""
    advice: Advice


def advise_guess(agent: SearchAgent, action_mask: np.ndarray, game: Any) -> Guess | None:
    """``agent``'s advice on the game's position, or ``None`` at the first click (which
    the agent's own ``act`` plays: its opening, not a guess)."""
    minefield = game.minefield
    if minefield.probes == 0:
        return None
    board = minefield.board()
    weights = game.rule_set.known_weights(board)
    valid = np.asarray(action_mask, dtype=bool).reshape(-1)
    return Guess(board, valid, weights, agent.advise(board, valid, weights))


class GuessLogger(Agent):
    """Plays as ``search`` does and notes each of its decisions after the first click.

    :param peer: asked for its move on every logged position too, when given (an
        object with ``choose(board)``, as :class:`.JSMinesweeperPlayer`).
    """

    name = "search"
    obs_mode = "grid"

    def __init__(self, agent: SearchAgent, peer: Any = None) -> None:
        self.agent, self.peer = agent, peer
        self.decisions: list[dict[str, Any]] = []

    def reset(self, seed: int | None = None) -> None:
        self.decisions = []
        self.agent.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Any) -> int:
        guess = advise_guess(self.agent, action_mask, game)
        if guess is None:
            return self.agent.act(observation, action_mask, game)
        board, weights, advice = guess.board, guess.weights, guess.advice
        decision: dict[str, Any] = {
            "move": int(game.minefield.probes),
            "grid": board.grid.tolist(),
            "mines": int(board.total_mines or 0),
            "cell": int(advice.cell),
            "reason": advice.reason,
            "safety": float(advice.safety),
            "layouts": None if weights is None else str(weights.layouts),
        }
        if self.peer is not None:
            choice = self.peer.choose(board)
            decision["jsminesweeper"] = {
                "cell": choice.cell,
                "safety": choice.safety,
                "path": choice.path,
            }
        self.decisions.append(decision)
        return advice.cell


def logged_games(path: Path, run: dict[str, Any] | None = None) -> set[int]:
    """The games a log already holds (a line cut short by a hard kill is ignored, and
    its game played again); with ``run``, only those of the lines whose fields match it."""
    games: set[int] = set()
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
                if run is None or all(row.get(key) == value for key, value in run.items()):
                    games.add(int(row["game"]))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
    return games


def end_cut_line(path: Path) -> None:
    """End the last line of a log that a hard kill cut short, so what is appended next
    starts a line of its own."""
    if path.is_file() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
        with path.open("a") as handle:
            handle.write("\n")


def log_games(
    board: str, start: str, games: range, seed: int, logger: GuessLogger, out: Path
) -> int:
    """Play ``games`` not yet in ``out`` and append their decisions; returns games played."""
    target = board_target(board)
    settings = Settings("complete", start, seed)
    env = make_env(target, settings, logger.obs_mode)
    chunk = Chunk("search", target, (), settings)
    done = logged_games(out)
    end_cut_line(out)
    played = 0
    for index in games:
        if index in done:
            continue
        record = play_game(env, logger, chunk, index)
        lines = [
            json.dumps(
                {"board": board, "start": start, "seed": seed, "game": index, **decision}
                | {"won": record.won}
            )
            for decision in logger.decisions
        ]
        if not lines:  # a game with no decision after the first click still counts as logged
            lines = [json.dumps({"board": board, "start": start, "seed": seed, "game": index})]
        with out.open("a") as handle:
            handle.write("\n".join(lines) + "\n")
        played += 1
    return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="expert", choices=tuple(STANDARD_BOARDS))
    parser.add_argument("--start", default="safe", choices=("safe", "zero"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="search", help="a search setting string")
    parser.add_argument("--jsminesweeper", help="ask JSMinesweeper too (checkout or git dir)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines log")
    args = parser.parse_args(argv)
    if args.games < 1 or args.first_game < 0 or args.seed < 0:
        parser.error("--games must be at least 1, --first-game and --seed at least 0")
    agent = make_agent(args.agent)
    if not isinstance(agent, SearchAgent):
        parser.error(f"--agent {args.agent!r} is not a search agent")
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"guess_log.py: {args.out.parent}: cannot create: {error.strerror}", file=sys.stderr)
        return 2
    peer = None
    try:
        if args.jsminesweeper:
            peer = JSMinesweeperPlayer(load_source(args.jsminesweeper))
    except PeerMissing as error:
        print(f"guess_log.py: {error}", file=sys.stderr)
        return 2
    games = range(args.first_game, args.first_game + args.games)
    try:
        logger = GuessLogger(agent, peer)
        played = log_games(args.board, args.start, games, args.seed, logger, args.out)
    except KeyboardInterrupt:
        print(f"stopped: every finished game is in {args.out}", file=sys.stderr)
        return 130
    finally:
        if peer is not None:
            peer.close()
    print(f"{played:,} games logged to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
