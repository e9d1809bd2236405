"""Help texts say each thing once, in words a newcomer knows."""

from __future__ import annotations

import re

import pytest

from minesweep_env.cli.main import build_parser


def _help(*command: str) -> str:
    parser = build_parser(command[0] if command else None)
    if not command:
        return parser.format_help()
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices[command[0]].format_help()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "command", ["play", "probabilities", "deduce", "solvable", "generate", "evaluate", "guess"]
)
def test_no_seed_document_jargon(command):
    assert not re.search(r"seed 00\d", _help(command))


def test_a_default_is_said_once():
    text = " ".join(_help("train").split())
    assert "(default: board, seed, time)" in text
    assert "(default: board, seed, time) (default" not in text


def test_evaluate_agents_help_knows_a_model_is_shipped():
    text = " ".join(_help("evaluate").split())
    assert "while no model is shipped" not in text
    assert "--maps maps" in text  # the main job names its maps


def test_top_level_epilog_keeps_its_lines():
    text = _help()
    assert "\n130 stopped by Ctrl-C, 143 stopped by SIGTERM" in text
