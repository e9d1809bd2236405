"""``semiautomines evaluate --protocol standard``: the reportable table, written
beside its reference rows.

The protocol fixes the boards, starts, seed, rule set, game count and the
baseline every row is paired against (:mod:`semiautomines_agents.evaluation.protocol`);
this module checks that the command line leaves them alone, plays one run per
start into its own sub-folder (``safe/``, ``zero/``: the usual run files) and
writes ``protocol.md`` and ``protocol.json`` at the top of the run folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from minesweep_env.cli.errors import CliError
from minesweep_env.fileio import write_text

from ..evaluation import Backend, Run, write_run
from ..evaluation.harness import invalid_action_notes
from ..evaluation.protocol import (
    Protocol,
    get_protocol,
    protocol_agents,
    protocol_json,
    protocol_table,
    run_protocol,
)
from ..evaluation.saved_games import write_saved_games

FIXED = {
    "first_click": ("--first-click", "safe"),
    "rule_set": ("--rule-set", "complete"),
    "seed": ("--seed", 0),
    "maps": ("--maps", None),
}
"""Options a protocol fixes, each with its flag and the parser's default (``--boards``
too, whose default the caller passes, and ``--baseline`` unless it is the protocol's)."""


def protocol_of(args: argparse.Namespace, default_boards: str) -> Protocol:
    """The protocol asked for, once the options it fixes are checked untouched.

    :raises CliError: for an unknown protocol, a fixed option given, or no ``--agents``.
    """
    try:
        protocol = get_protocol(args.protocol)
    except ValueError as error:
        raise CliError(str(error)) from None
    given = [
        flag for attribute, (flag, default) in FIXED.items() if getattr(args, attribute) != default
    ]
    if args.boards != default_boards:
        given.insert(0, "--boards")
    if args.baseline not in (None, protocol.baseline):
        given.append("--baseline")
    if given:
        raise CliError(
            f"--protocol {protocol.name} fixes the boards, starts, seed, rule set and baseline: "
            f"leave out {', '.join(given)}"
        )
    if args.agents is None:
        raise CliError(f"--protocol {protocol.name}: name the agents to report with --agents")
    return protocol


def run_protocol_command(
    args: argparse.Namespace,
    protocol: Protocol,
    agents: list[str],
    descriptions: dict[str, str],
    backend: Backend,
    workers: int,
    folder: Path,
) -> tuple[dict[str, Run], str]:
    """Play the protocol, write every file and print the table; returns the runs
    and the command that replays them."""
    games = args.games if args.games_given else None
    names = protocol_agents(agents, protocol)
    command = protocol.command(agents, games)
    if args.model_given:
        command += " --model " + str(args.model) + (" --trust-model" if args.trust_model else "")
    runs = run_protocol(
        names,
        protocol,
        games=games,
        workers=workers,
        progress=not args.no_progress,
        backend=backend,
        descriptions=descriptions,
        model=args.model,
        trust_model=args.trust_model,
        save_games=args.save_games,
    )
    for start, run in runs.items():
        sub = folder / start
        sub.mkdir(exist_ok=True)
        write_run(run, sub, command)
        if args.save_games:
            write_saved_games(run, sub)
    table = protocol_table(runs, protocol, games)
    write_text(folder / "protocol.md", f"{table}\n\n`{command}`\n")
    write_text(
        folder / "protocol.json",
        json.dumps(protocol_json(runs, protocol, command, games), indent=2) + "\n",
    )
    print(table)
    print(f"\n{command}")
    for run in runs.values():
        for note in invalid_action_notes(run):
            print(f"semiautomines evaluate: warning: {note}", file=sys.stderr)
    return runs, command
