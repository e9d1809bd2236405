"""``semiautomines train`` under SIGTERM: what was learnt is saved, and the status says
the run was stopped (143), as Ctrl-C's says 130."""

from __future__ import annotations

import dataclasses
import signal

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from test_train_imitation import tiny_args  # noqa: E402

from minesweep_env.cli.main import main as cli_main  # noqa: E402
from semiautomines_agents.model_files import load_policy  # noqa: E402
from semiautomines_agents.training.args import Args  # noqa: E402


def _flags(args: Args) -> list[str]:
    flags = []
    for field in dataclasses.fields(Args):
        value = getattr(args, field.name)
        flag = "--" + field.name.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else "--no-" + flag[2:])
        else:
            flags += [flag, str(value)]
    return flags


def test_sigterm_saves_the_network_and_exits_143(tmp_path, monkeypatch, capsys):
    from semiautomines_agents.training import train_ppo

    def terminated_while_learning(*args, **kwargs):
        signal.raise_signal(signal.SIGTERM)  # what `timeout` or `kill` sends mid-run

    monkeypatch.setattr(train_ppo, "imitate", terminated_while_learning)
    args = tiny_args(tmp_path, eval_freq=0, save_model=str(tmp_path / "shipped.pt"))
    # Whatever handler this process had (a test before may have started Ray, which
    # installs its own), the run must leave that one in place.
    before = signal.getsignal(signal.SIGTERM)
    assert cli_main(["train", *_flags(args)]) == 143
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err
    run_dir = tmp_path / "runs" / "tiny"
    assert load_policy(run_dir / "final.pt")  # saved, weights only
    assert not (tmp_path / "shipped.pt").exists()  # only a finished run ships its model
    assert signal.getsignal(signal.SIGTERM) is before  # the handler is put back
