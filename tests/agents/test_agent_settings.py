"""Every agent setting has a valid range: its bounds construct, one step past them is
refused in one line naming the range, an unknown key lists the valid keys, and the
commands turn either into one line on stderr and exit 2."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from semiautomines_agents import SETTINGS, SearchAgent, make_agent, parse_agent_name
from semiautomines_agents.search import SearchSettings
from semiautomines_agents.settings import bound_of, describe

CLI = Path(sys.executable).with_name("semiautomines")

BOUNDED = [
    (agent, item.name, bound_of(item))
    for agent, cls in SETTINGS.items()
    for item in fields(cls)
    if not item.name.startswith("first_")  # they go in pairs: tested below
]


def _name(agent: str, key: str, value: float) -> str:
    return f"{agent}:{key}={value!r}"


def _past(value: float, kind: type, up: bool) -> float:
    step = 1 if kind is not float else max(abs(value) * 1e-6, 1e-9)
    return value + step if up else value - step


def test_every_agent_declares_its_settings():
    assert set(SETTINGS) == {
        "random",
        "greedy",
        "greedy-plain",
        "greedy-opening",
        "greedy-zero",
        "ppo",
        "search",
    }
    assert {item.name for item in fields(SearchSettings)} >= {"depth", "width", "deep_width"}


@pytest.mark.parametrize(("agent", "key", "bound"), BOUNDED, ids=lambda x: str(x)[:20])
def test_each_setting_at_its_bounds_is_taken(agent, key, bound):
    for value in (bound.low, bound.high):
        value = int(value) if bound.kind is not float else value
        cls, options = parse_agent_name(_name(agent, key, value))
        assert options == {key: value}


@pytest.mark.parametrize(("agent", "key", "bound"), BOUNDED, ids=lambda x: str(x)[:20])
def test_one_past_each_bound_is_refused_naming_the_range(agent, key, bound):
    for value, up in ((bound.low, False), (bound.high, True)):
        past = _past(int(value) if bound.kind is not float else value, bound.kind, up)
        with pytest.raises(ValueError) as caught:
            parse_agent_name(_name(agent, key, past))
        message = str(caught.value)
        assert "\n" not in message and key in message and bound.span() in message


def test_the_search_settings_at_both_ends_construct_the_agent():
    low = {f.name: bound_of(f).low for f in fields(SearchSettings) if f.name[:6] != "first_"}
    high = {f.name: bound_of(f).high for f in fields(SearchSettings) if f.name[:6] != "first_"}
    for values in (low, high):
        agent = SearchAgent(**values, first_x=0, first_y=0)
        assert agent.depth == values["depth"] and agent.first_cell == (0, 0)
    assert SearchAgent(first_x=4095, first_y=4095).first_cell == (4095, 4095)
    with pytest.raises(ValueError, match=r"first_x=4096 is out of range; valid: -1\.\.4095"):
        SearchAgent(first_x=4096, first_y=0)
    with pytest.raises(ValueError, match="give both"):
        SearchAgent(first_x=2)


def test_the_defaults_are_the_settings_defaults():
    agent = SearchAgent()
    assert agent.settings == SearchSettings()
    assert (agent.depth, agent.width, agent.deep_width, agent.offset) == (2, 16, 4, 16)
    assert agent.secondary is True and agent.settle is False and agent.first_cell is None
    assert make_agent("search:depth=3:width=4").settings == SearchSettings(depth=3, width=4)


def test_an_unknown_key_lists_the_valid_keys():
    with pytest.raises(ValueError) as caught:
        parse_agent_name("search:bogus=1")
    message = str(caught.value)
    assert "'bogus'" in message and "depth, margin, width" in message and "first_y" in message
    with pytest.raises(ValueError, match="'bogus'.*valid settings: depth"):
        SearchAgent(bogus=1)
    with pytest.raises(ValueError, match="valid settings: opening"):
        parse_agent_name("greedy:tie=1")
    with pytest.raises(ValueError, match="takes no settings"):
        parse_agent_name("random:depth=1")


@pytest.mark.parametrize("key", ["shared_weight", "far", "living", "blend", "dominance"])
def test_the_settings_measured_no_better_are_gone(key):
    with pytest.raises(ValueError, match=f"unknown setting '{key}'"):
        make_agent(f"search:{key}=1")


def test_a_whole_number_setting_refuses_a_fraction():
    with pytest.raises(ValueError, match=r"depth=2\.5 is not valid; valid: 1\.\.4"):
        make_agent("search:depth=2.5")


def test_every_setting_has_a_line_of_help():
    lines = describe(SearchSettings)
    assert len(lines) == len(fields(SearchSettings))
    assert lines[0].startswith("depth (1..4, default 2): ")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["evaluate", "--agents", "search:depth=99"], "depth=99 is out of range; valid: 1..4"),
        (["evaluate", "--agents", "search:bogus=1"], "unknown setting 'bogus'"),
    ],
)
def test_the_cli_answers_a_bad_setting_in_one_line_with_exit_2(tmp_path, args, expected):
    done = subprocess.run(
        [
            str(CLI),
            *args,
            "--games",
            "1",
            "--boards",
            "beginner",
            "--maps",
            "none",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert expected in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
