"""Third-party agents: the ``semiautomines.agents`` entry-point group, a broken
agent's one-line error, the standard protocol and the Python route.

A tiny package is written to a temporary folder (a module and its
``*.dist-info`` with ``entry_points.txt``) and put on ``sys.path`` (and on
``PYTHONPATH`` for the command-line runs), so the real entry-point lookup finds
it, in worker processes too.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minesweep_env.cli.main import main as cli_main
from semiautomines_agents import AGENTS, PolicyAgent, make_agent, parse_agent_name, third_party
from semiautomines_agents.evaluation import (
    Settings,
    board_target,
    evaluate,
    evaluate_policy,
)
from semiautomines_agents.evaluation.protocol import STANDARD, protocol_table, reference

PACKAGE = '''
import numpy as np

from semiautomines_agents import RandomAgent


def first_cell():
    """A policy: the first valid cell."""
    return lambda observation, mask: int(np.flatnonzero(mask)[0])


def raises_in_game_three():
    games = []

    class Policy:
        def __call__(self, observation, mask):
            return int(np.flatnonzero(mask)[0])

    agent_policy = Policy()

    from semiautomines_agents import PolicyAgent

    class Breaks(PolicyAgent):
        def reset(self, seed=None):
            games.append(seed)

        def act(self, observation, mask, game):
            if len(games) == 4:
                raise RuntimeError("boom\\nsecond line")
            return super().act(observation, mask, game)

    return Breaks(agent_policy, name="breaks")


def invalid():
    return lambda observation, mask: -1


class Mimic(RandomAgent):
    """Registers under the name of one of the project's agents."""
'''

ENTRY_POINTS = """[semiautomines.agents]
firstcell = tpbots:first_cell
breaks = tpbots:raises_in_game_three
invalid = tpbots:invalid
greedy = tpbots:Mimic
"""


@pytest.fixture
def package(tmp_path, monkeypatch) -> Path:
    """The tiny package, installed for this process and its children."""
    root = tmp_path / "site"
    info = root / "tpbots-1.0.dist-info"
    info.mkdir(parents=True)
    (root / "tpbots.py").write_text(PACKAGE)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tpbots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(root))
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", str(root) + (os.pathsep + path if path else ""))
    third_party.forget_found()
    yield root
    third_party.forget_found()
    sys.modules.pop("tpbots", None)


def test_entry_point_agent_is_made_by_name(package, capsys):
    agent = make_agent("firstcell")
    assert isinstance(agent, PolicyAgent) and agent.name == "firstcell"
    mask = np.array([False, False, True, True])
    assert agent.act(np.zeros(4), mask, None) == 2  # type: ignore[arg-type]
    # The project's own greedy keeps its name; the clash is one warning line.
    assert parse_agent_name("greedy")[0] is AGENTS["greedy"]
    parse_agent_name("firstcell")
    warnings = [line for line in capsys.readouterr().err.splitlines() if "'greedy'" in line]
    assert len(warnings) == 1
    with pytest.raises(ValueError, match="unknown agent 'nobody'.*firstcell"):
        parse_agent_name("nobody")
    with pytest.raises(ValueError, match="agent 'firstcell' cannot be made"):
        make_agent("firstcell:depth=2")


def test_evaluate_plays_it_paired_with_greedy(package, tmp_path):
    out = tmp_path / "out"
    args = ["evaluate", "--agents", "firstcell", "--baseline", "greedy", "--boards", "beginner"]
    args += ["--games", "12", "--workers", "1", "--out", str(out), "--no-progress", "--save-games"]
    assert cli_main(args) == 0
    (folder,) = out.iterdir()
    rows = {row["agent"]: row for row in json.loads((folder / "results.json").read_text())}
    assert set(rows) == {"firstcell", "greedy"}
    assert rows["firstcell"]["games"] == 12 and rows["firstcell"]["invalid_actions"] == 0
    assert rows["firstcell"]["baseline"] == "greedy"
    assert rows["firstcell"]["win_diff"] is not None
    saved = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert sum(game["agent"] == "firstcell" for game in saved) == 12


def test_worker_processes_find_it_by_name(package, tmp_path, monkeypatch):
    """Two spawned workers import nothing of this test: they find the agent in the metadata."""
    monkeypatch.setenv("SEMIAUTOMINES_NO_JIT", "1")  # names, not speed: no kernel compiled here
    out = tmp_path / "out"
    command = [sys.executable, "-m", "minesweep_env.cli.main", "evaluate", "--agents", "firstcell"]
    command += ["--boards", "beginner", "--games", "60", "--workers", "2", "--out", str(out)]
    result = subprocess.run(
        [*command, "--no-progress"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    (folder,) = out.iterdir()
    with open(folder / "games.csv", newline="") as handle:
        games = [row for row in csv.DictReader(handle)]
    assert sorted(int(row["game"]) for row in games) == list(range(60))


def test_an_agent_that_raises_stops_in_one_line_keeping_the_games_played(package, tmp_path, capsys):
    out = tmp_path / "out"
    args = ["evaluate", "--agents", "breaks,greedy", "--boards", "beginner", "--games", "10"]
    args += ["--workers", "1", "--out", str(out), "--no-progress"]
    assert cli_main(args) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert len(err) == 1
    assert "agent 'breaks' failed in game 3 on beginner: RuntimeError: boom" in err[0]
    (folder,) = out.iterdir()
    rows = {row["agent"]: row for row in json.loads((folder / "results.json").read_text())}
    assert rows["breaks"]["games"] == 3  # games 0-2 of the failing chunk are kept


def test_an_invalid_action_is_a_lost_game_and_one_warning(package, tmp_path, capsys):
    run = evaluate(["invalid"], [board_target("beginner")], Settings(), 5, progress=False)
    assert run.error is None and run.rows[0]["invalid_actions"] == 5
    assert run.rows[0]["wins"] == 0
    out = tmp_path / "out"
    args = ["evaluate", "--agents", "invalid", "--boards", "beginner", "--games", "4"]
    assert cli_main([*args, "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "invalid action" in line]
    assert warnings == [
        "semiautomines evaluate: warning: agent 'invalid' chose an invalid action in game 0 "
        "on beginner (and 3 more games); such a game counts as lost"
    ]


def test_standard_protocol_writes_the_table_with_its_references(package, tmp_path, capsys):
    out = tmp_path / "out"
    args = ["evaluate", "--protocol", "standard", "--agents", "firstcell", "--games", "3"]
    assert cli_main([*args, "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    (folder,) = out.iterdir()
    assert {p.name for p in folder.iterdir()} >= {"safe", "zero", "protocol.md", "protocol.json"}
    table = (folder / "protocol.md").read_text()
    assert "Not the standard protocol's figures" in table
    assert "| expert | zero | **firstcell** | 3 |" in table
    assert "JSMinesweeper" in table and "PSEQ-D256" in table
    record = json.loads((folder / "protocol.json").read_text())
    assert record["reportable"] is False and record["games"] == 3
    assert {(r["agent"], r["first_click"]) for r in record["rows"]} == {
        (a, s) for a in ("firstcell", "greedy") for s in ("safe", "zero")
    }
    assert (
        record["command"]
        == "semiautomines evaluate --protocol standard --agents firstcell --games 3"
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--first-click", "zero"], "leave out --first-click"),
        (["--boards", "expert"], "leave out --boards"),
        (["--seed", "3"], "leave out --seed"),
        (["--baseline", "random"], "leave out --baseline"),
    ],
)
def test_protocol_refuses_what_it_fixes(extra, message, tmp_path, capsys):
    args = ["evaluate", "--protocol", "standard", "--agents", "random", *extra]
    assert cli_main([*args, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not any(tmp_path.iterdir())


def test_reference_rows_cover_every_board_and_start():
    data = reference()
    for board in STANDARD.boards:
        for start in STANDARD.first_clicks:
            agents = {
                r["agent"]
                for r in data["measured"]
                if (r["board"], r["first_click"]) == (board, start)
            }
            assert {"random", "greedy", "search", "ppo"} <= agents, (board, start)
            assert any(r["board"] == board and r["first_click"] == start for r in data["published"])
    assert all(r["source"] for r in data["measured"] + data["published"])


def test_python_route_plays_a_policy_by_the_protocol():
    def first_cell(observation, mask):
        planes, height, width = observation.shape  # the env's planes observation
        assert height * width == mask.size
        return int(np.flatnonzero(mask)[0])

    report = evaluate_policy(first_cell, games=2, name="mine")
    assert report.error is None and not report.reportable
    assert {(r["agent"], r["board"], r["first_click"]) for r in report.rows} >= {
        ("mine", b, s) for b in STANDARD.boards for s in STANDARD.first_clicks
    }
    assert "**mine**" in report.table
    assert "mine" not in third_party.third_party_agents()  # registered for the run only

    def broken(observation, mask):
        raise ValueError("no idea")

    failed = evaluate_policy(broken, games=2, name="broken")
    assert failed.error == "agent 'broken' failed in game 0 on beginner: ValueError: no idea"
    with pytest.raises(ValueError, match="one of the project's agents"):
        evaluate_policy(broken, name="greedy")


def test_a_name_registered_again_plays_the_new_policy():
    """Two policies evaluated one after the other under one name: each plays its own
    games (the worker's agent cache must not hand the second run the first policy)."""
    settings = Settings(rule_set="complete", first_click="safe", seed=3)
    calls = {"first": 0, "last": 0}

    def policy(which: str, pick: int):
        def choose(observation, mask):
            calls[which] += 1
            return int(np.flatnonzero(mask)[pick])

        return choose

    for which, pick in (("first", 0), ("last", -1)):
        third_party.register_agent("again", lambda w=which, p=pick: PolicyAgent(policy(w, p)))
        try:
            evaluate(["again"], [board_target("beginner")], settings, 20, 1, False)
        finally:
            third_party.unregister_agent("again")
    assert calls["first"] > 0 and calls["last"] > 0


def test_protocol_table_marks_this_runs_rows():
    table = protocol_table({}, STANDARD)
    assert table.startswith("| board | start | player |")
    assert "random (reference)" in table


def test_protocol_needs_the_agents_to_report(tmp_path, capsys):
    assert cli_main(["evaluate", "--protocol", "standard", "--out", str(tmp_path)]) == 2
    assert "name the agents to report with --agents" in capsys.readouterr().err


def test_an_agent_failure_crosses_process_boundaries_whole():
    """Worker processes and Ray tasks hand the failure back pickled: fields and games kept."""
    import pickle

    from semiautomines_agents.evaluation import GameRecord
    from semiautomines_agents.evaluation.records import AgentFailure

    played = [GameRecord(index=0, won=True, guesses=1, safe_opened=1.0, seconds=0.1)]
    failure = AgentFailure("mybot", "expert", 1, "KeyError: 'x'").with_records(played)
    copy = pickle.loads(pickle.dumps(failure))
    assert str(copy) == "agent 'mybot' failed in game 1 on expert: KeyError: 'x'"
    assert (copy.agent, copy.target, copy.game, copy.records) == (
        "mybot",
        "expert",
        1,
        tuple(played),
    )
