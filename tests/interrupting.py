"""Helpers for the tests that press Ctrl-C on a child process.

A shell starts a background job (``pytest ... &``, a CI runner's detached step)
with SIGINT ignored, the child inherits that, and Python then installs no
KeyboardInterrupt handler: the test's SIGINT would be lost and the test would
wait for a run of 100,000 games. Resetting SIGINT to its default before exec
gives the child what a terminal's Ctrl-C meets.
"""

from __future__ import annotations

import signal


def as_if_from_a_terminal() -> None:
    """``preexec_fn`` for Popen: SIGINT back to its default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
