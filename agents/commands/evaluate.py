"""``semiautomines evaluate``: compare agents on the same seeded games and report.

The main job of the project: every agent plays the same layouts on the
standard boards and on the prepared maps, and the run is written to a new
folder (JSON, CSV, a markdown table and a plot of win rates with 95%
intervals). The harness lives in :mod:`semiautomines_agents.evaluation`; this
module only checks the input and prints.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from minesweep_env.cli.arguments import check_seed
from minesweep_env.cli.errors import CliError
from minesweep_env.cli.stopping import interrupted_status, sigterm_as_interrupt
from minesweep_env.core.cells import STANDARD_BOARDS
from minesweep_env.core.first_click import FIRST_CLICK_POLICIES
from minesweep_env.solver.registry import get_rule_set

from .. import ModelNotFoundError, PPOAgent, make_agent, parse_agent_name
from ..evaluation import (
    BACKENDS,
    BackendError,
    Run,
    Settings,
    Target,
    add_paired_columns,
    board_target,
    evaluate,
    make_backend,
    map_targets,
    maps_section,
    markdown_table,
    new_run_folder,
    paired_table,
    run_speed,
    write_run,
)
from ..evaluation.evf_games import evf_folder_problem, write_evf_games
from ..evaluation.harness import invalid_action_notes
from ..evaluation.protocol import PROTOCOLS, STANDARD_GAMES
from ..evaluation.saved_games import write_saved_games
from ..model_files import TRUST_RISK, is_sb3_zip
from .evaluate_protocol import protocol_of, run_protocol_command

DEFAULT_AGENTS = "random,greedy,ppo"
DEFAULT_BOARDS = ",".join(STANDARD_BOARDS)
DEFAULT_GAMES = 2000
"""Games per agent and board of the main job: enough for +-2 points at 95% on
every board, while the whole job (baselines, standard boards, every prepared
map) stays well under 10 minutes on 2 cores (measured: see the README)."""
MAX_GAMES = 10_000_000
"""Most games per agent and board: the run's plan lists every game before the first is played."""
MAX_WORKERS = 256
"""Most worker processes: each is a Python with the solver loaded."""
REPO_MAPS = Path(__file__).resolve().parents[2] / "maps"
"""The prepared maps shipped with the repository (played only when ``--maps`` names
them: a run plays what it was asked for, from any folder)."""

EXAMPLES = """\
examples:
  semiautomines evaluate --maps maps           # the main job: baselines, standard boards, maps/
  semiautomines evaluate --agents random,greedy --boards beginner --maps none --games 1000
  semiautomines evaluate --maps maps/ioccc/hilbert4x4.txt maps/suites/expert --boards none
  semiautomines evaluate --agents greedy --first-click zero --games 5000 --workers 2
  semiautomines evaluate --agents ppo --model runs/NAME/final.pt --boards beginner
  semiautomines evaluate --agents search,search:depth=3 --baseline greedy --boards expert
  semiautomines evaluate --protocol standard --agents mybot   # the table a paper cites
  semiautomines evaluate --agents greedy --boards expert --maps none --games 1000000 \
      --backend ray --ray-address HEAD:6379     # on a Ray cluster (pip install '.[ray]')

Boards: beginner, intermediate, expert, or WIDTHxHEIGHTxMINES (e.g. 8x8x10); "none" for
no board. Maps: files or folders of maps (*.txt; MinesweeperX .mbf, Arbiter .abf and
JSMinesweeper .mine boards too, the format told by content); a folder whose maps share
one size is one row (a suite); "none" for no map. Default: no map (give --maps maps for
the prepared ones).
The first click on a map is the agent's unless NAME.start beside it fixes it (no-guess
maps). A deterministic agent plays each map once; others play --games games per map row.
Every run goes to a new folder OUT/run-YYYYmmdd-HHMMSS: results.json, results.csv,
results.md (its table also printed; each row's mean 3BV, a win-rate-by-3BV table),
win_rates.png, win_rate_by_bbbv.png, games.csv (every game's outcome and its layout's
3BV, ZiNi, openings and islands, after the first click), run.json;
with --save-games also games.jsonl (every game's layout and moves, for `replay`);
--evf DIR also writes each game as a Metasweeper .evf replay in DIR (nominal timing).
With --baseline, rows also carry the paired difference against that agent on the same
games (win_diff, diff_ci_low, diff_ci_high). Ctrl-C or SIGTERM keeps the partial results
(exit status 130 or 143).
Agents of other packages (the semiautomines.agents entry-point group) are named like ours.
--backend ray plays the same games as Ray tasks: on a local Ray it starts (--workers
CPUs), or on the cluster at --ray-address (--workers then caps the chunks at once); a
worker that dies mid-chunk has its chunk retried by Ray, and the results are identical.
"""


def _available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="compare agents on the same seeded games (the main job)",
        description="Compare agents on the same seeded games: win rates with 95% Wilson "
        "intervals, guesses, share of safe cells opened, speed; written to a new folder.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_game_flags(parser)
    _add_place_flags(parser)
    _add_output_flags(parser)
    parser.set_defaults(func=run)


def _add_game_flags(parser: argparse.ArgumentParser) -> None:
    """Which games are played, and by whom: agents, boards, maps, rules, counts, seed."""
    parser.add_argument(
        "--agents",
        default=None,
        help="comma-separated agents: random, greedy, greedy-plain, greedy-opening, "
        "greedy-zero, search (settings as search:depth=3), ppo "
        f"(default {DEFAULT_AGENTS}, ppo with the shipped model or --model; "
        "ppo is skipped with a notice only when no model file is found)",
    )
    parser.add_argument(
        "--boards",
        default=DEFAULT_BOARDS,
        help=f"comma-separated boards (default {DEFAULT_BOARDS})",
    )
    parser.add_argument(
        "--maps",
        nargs="+",
        default=None,
        metavar="PATH",
        help="map files or folders (default: none; the main job passes --maps maps)",
    )
    parser.add_argument(
        "--rule-set", default="complete", help="auto-solver rule set (default complete)"
    )
    parser.add_argument(
        "--first-click",
        default="safe",
        choices=FIRST_CLICK_POLICIES,
        help="first-click policy (default safe)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"games per agent and board (default {DEFAULT_GAMES}; with --protocol, the "
        "protocol's count: fewer makes a quick look the table marks as not reportable)",
    )
    parser.add_argument(
        "--protocol",
        default=None,
        choices=sorted(PROTOCOLS),
        help="play a reportable protocol: standard fixes the boards (beginner, intermediate, "
        f"expert), the starts (safe and zero), seed 0, rule set complete, {STANDARD_GAMES} "
        "games per row and the baseline greedy, and writes protocol.md with the reference "
        "rows (ours and the published solvers') beside the agents of --agents",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="run seed: same seed, same games (default 0)"
    )
    parser.add_argument(
        "--model",
        default=None,
        metavar="PATH",
        help="PPO model, weights only: NAME.pt with NAME.json (default: the shipped one)",
    )
    parser.add_argument(
        "--trust-model",
        action="store_true",
        help="also load a stable-baselines3 .zip as --model: it unpickles, so a crafted file "
        "runs code; only for files you made or trust",
    )


def _add_place_flags(parser: argparse.ArgumentParser) -> None:
    """Where the games are played: none of these changes a result."""
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes to play in; results do not depend on it (default: all cores)",
    )
    parser.add_argument(
        "--backend",
        default="local",
        choices=BACKENDS,
        help="where to play: local processes, or Ray tasks (needs the ray extra); "
        "results do not depend on it (default local)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="join the Ray cluster whose head is at ADDR (HOST:PORT, ray://HOST:PORT or "
        "auto) instead of starting a local Ray; with --backend ray",
    )


def _add_output_flags(parser: argparse.ArgumentParser) -> None:
    """What is written, and shown, beside the win rates."""
    parser.add_argument(
        "--out", default="results", help="folder for run folders (default results/)"
    )
    parser.add_argument(
        "--baseline",
        default=None,
        metavar="AGENT",
        help="also report every agent's paired difference in win rate against AGENT on "
        "the same games, with a 95%% interval (AGENT is played too if not in --agents)",
    )
    parser.add_argument(
        "--save-games",
        action="store_true",
        help="also keep every game (layout, first click, moves) in games.jsonl, for "
        "`semiautomines replay RUN_FOLDER --game K`",
    )
    parser.add_argument(
        "--evf",
        metavar="DIR",
        help="also write every game as a Metasweeper .evf replay in DIR (implies "
        "--save-games; the player is 'SemiAutoMines AGENT', the timing nominal)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _names(text: str, what: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise CliError(f"--{what}: give at least one name")
    return list(dict.fromkeys(names))


def _check_numbers(args: argparse.Namespace) -> int:
    _check_range("--games", args.games, MAX_GAMES)
    check_seed(args.seed)
    workers = _available_cores() if args.workers is None else args.workers
    _check_range("--workers", workers, MAX_WORKERS)
    return workers


def _check_range(flag: str, value: int, most: int) -> None:
    if value < 1:
        raise CliError(f"{flag} must be at least 1, got {value}")
    if value > most:
        raise CliError(f"{flag} must be at most {most:,}, got {value}")


def _agents(args: argparse.Namespace) -> list[str]:
    """The agents asked for (checked names; the PPO model is checked later)."""
    names = _names(args.agents if args.agents is not None else DEFAULT_AGENTS, "agents")
    if args.baseline is not None and args.baseline not in names:
        names.append(args.baseline)
    for name in names:
        try:
            if parse_agent_name(name)[0] is not PPOAgent:
                make_agent(name)  # a setting the agent does not take fails here, not in a worker
        except ValueError as error:
            raise CliError(str(error)) from None
    if args.model is not None and not Path(args.model).is_file():
        raise CliError(f"{args.model}: no such model file")
    return names


def _load_ppo(args: argparse.Namespace, names: list[str]) -> dict[str, str]:
    """Check the PPO model; drop ppo with a notice when it was not asked for
    and none is shipped. Returns the report descriptions of the agents."""
    descriptions = {name: name for name in names}
    if "ppo" not in names:
        return descriptions
    if args.trust_model and args.model is not None and is_sb3_zip(Path(args.model)):
        print(f"semiautomines evaluate: warning: --trust-model: {TRUST_RISK}", file=sys.stderr)
    try:
        agent = PPOAgent(args.model, trust_model=args.trust_model)
    except ModelNotFoundError as error:
        if args.agents is not None or args.model is not None:
            raise CliError(str(error)) from None
        names.remove("ppo")
        print(f"semiautomines evaluate: skipping ppo: {error}", file=sys.stderr)
    else:
        args.model = str(agent.model_path)
        descriptions["ppo"] = agent.describe()
    return descriptions


def _targets(args: argparse.Namespace) -> list[Target]:
    targets = []
    if args.boards.strip().lower() != "none":
        for name in _names(args.boards, "boards"):
            try:
                targets.append(board_target(name))
            except ValueError as error:
                raise CliError(str(error)) from None
    if args.maps is None or [p.lower() for p in args.maps] == ["none"]:
        paths = []
    else:
        paths = [Path(p) for p in args.maps]
    try:
        targets.extend(map_targets(paths))
    except (FileNotFoundError, PermissionError, IsADirectoryError, UnicodeDecodeError) as error:
        raise CliError(str(error)) from None
    names = [t.name for t in targets]
    if not targets:
        raise CliError("nothing to evaluate: no board and no map")
    if len(set(names)) != len(names):
        raise CliError("a board or map is given twice")
    # The first-click policy moves mines out of its zone: there must be room for them.
    zone = {"safe": 1, "zero": 9}.get(args.first_click, 0)
    for target in targets:
        free = target.width * target.height - target.mines
        if free < zone:
            cells = "a mine-free cell" if zone == 1 else f"{zone} mine-free cells"
            raise CliError(
                f"{target.name}: a {args.first_click} first click needs {cells}, "
                f"this board has {free}"
            )
    return targets


def _command(args: argparse.Namespace, agents: list[str], targets: list[Target]) -> str:
    """The command that replays this run (every option that changes the results)."""
    parts = ["semiautomines", "evaluate", "--agents", ",".join(agents)]
    boards = [t.name for t in targets if t.kind == "board"]
    parts += ["--boards", ",".join(boards) or "none"]
    # As given: relative paths are the cwd's at run time, where the command was typed.
    parts += ["--maps", *(args.maps if args.maps is not None else ["none"])]
    parts += ["--rule-set", args.rule_set, "--first-click", args.first_click]
    parts += ["--games", str(args.games), "--seed", str(args.seed)]
    if args.baseline is not None:
        parts += ["--baseline", args.baseline]
    if "ppo" in agents and getattr(args, "model_given", False):
        parts += ["--model", args.model] + (["--trust-model"] if args.trust_model else [])
    return shlex.join(parts)


def run(args: argparse.Namespace) -> int:
    protocol = protocol_of(args, DEFAULT_BOARDS) if args.protocol is not None else None
    args.games_given = args.games is not None
    if args.games is None:
        args.games = protocol.games if protocol is not None else DEFAULT_GAMES
    workers = _check_numbers(args)
    if args.evf is not None:
        problem = evf_folder_problem(args.evf)
        if problem is not None:
            raise CliError(problem)
        args.save_games = True
    try:
        backend = make_backend(
            args.backend, workers if args.backend == "local" else args.workers, args.ray_address
        )
    except BackendError as error:
        raise CliError(str(error)) from None
    try:
        get_rule_set(args.rule_set)
    except ValueError as error:
        raise CliError(str(error)) from None
    agents = _agents(args)
    targets = _targets(args)
    args.model_given = args.model is not None  # the shipped default needs no --model to replay
    descriptions = _load_ppo(args, agents)
    settings = Settings(
        args.rule_set,
        args.first_click,
        args.seed,
        args.model,
        args.trust_model,
        save_games=args.save_games,
    )
    # Connect before writing anything: an unreachable cluster leaves no run folder behind.
    try:
        backend.start()
    except BackendError as error:
        raise CliError(str(error)) from None
    try:
        folder = new_run_folder(args.out)
    except OSError as error:
        raise CliError(
            f"{args.out}: cannot make a run folder ({error.strerror or error})"
        ) from None
    if protocol is not None:
        with sigterm_as_interrupt():
            runs, command = run_protocol_command(
                args, protocol, agents, descriptions, backend, workers, folder
            )
        backend.close()
        return _ending(
            list(runs.values()), folder, "protocol.md, protocol.json, " + ", ".join(runs)
        )
    command = _command(args, agents, targets)
    with sigterm_as_interrupt():  # again: a Ray driver installs its own SIGTERM handler
        run_result = evaluate(
            agents,
            targets,
            settings,
            args.games,
            workers=workers,
            progress=not args.no_progress,
            descriptions=descriptions,
            backend=backend,
        )
    backend.close()  # on an early exit instead, Ray stops the Ray it started by itself
    if args.baseline is not None:
        add_paired_columns(run_result.rows, run_result.records, args.baseline)
    paths = write_run(run_result, folder, command)
    if args.save_games:
        paths["saved_games"] = write_saved_games(run_result, folder)
    if args.evf is not None:
        paths["evf"] = write_evf_games(run_result, args.evf)
    if run_result.rows:
        print(markdown_table(run_result.rows))
        if args.baseline is not None:
            print(f"\n{paired_table(run_result.rows)}")
        maps = maps_section(run_result.rows)
        if maps:
            print(f"\n{maps}")
        print(f"\n{command}")
        print(run_speed(run_result))
    written = ", ".join(p.name for kind, p in paths.items() if kind != "run")
    for note in invalid_action_notes(run_result):
        print(f"semiautomines evaluate: warning: {note}", file=sys.stderr)
    return _ending([run_result], folder, written)


def _ending(runs: list[Run], folder: Path, written: str) -> int:
    """The last line and the exit status: 0, or a partial run's (interrupted, error)."""
    played = sum(r.played_games for r in runs)
    planned = sum(r.planned_games for r in runs)
    if any(r.interrupted for r in runs):
        print(
            f"semiautomines evaluate: interrupted: partial results ({played} of "
            f"{planned} games) written to {folder}",
            file=sys.stderr,
        )
        return interrupted_status()
    errors = [r.error for r in runs if r.error]
    if errors:
        raise CliError(f"stopped by an error ({errors[0]}); partial results written to {folder}", 1)
    print(f"results written to {folder}/ ({written})")
    return 0
