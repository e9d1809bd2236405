"""SIGTERM stops a run the way Ctrl-C does: partial results kept, workers stopped.

``timeout``, ``kill`` and batch schedulers send SIGTERM, whose default ends the
process on the spot: no partial results, an empty run folder, and worker
semaphores left for the resource tracker to warn about. Raising
:class:`Terminated`, a ``KeyboardInterrupt``, from the handler sends SIGTERM
down every path that already keeps what a Ctrl-C leaves (the evaluation
harness, training, map generation).

Exit status, the shell's convention for a stop by signal N: 128 + N, so 130
after Ctrl-C (SIGINT) and 143 after SIGTERM; :func:`interrupted_status` gives it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Exit status after Ctrl-C: 130."""
EXIT_TERMINATED = 128 + signal.SIGTERM
"""Exit status after SIGTERM: 143."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: caught wherever Ctrl-C's ``KeyboardInterrupt`` is."""


_received: list[int] = []
"""SIGTERMs received inside :func:`sigterm_as_interrupt` (for callers that caught the
interrupt themselves and only know that the run stopped)."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    raise Terminated(f"signal {signum}")


def interrupted_status(error: BaseException | None = None) -> int:
    """The exit status of a stopped run: 143 when ``error`` is :class:`Terminated` or, with
    no ``error``, when a SIGTERM arrived; 130 (Ctrl-C) otherwise."""
    terminated = isinstance(error, Terminated) if error is not None else bool(_received)
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` in the main thread.

    Re-entered after a library that installs its own SIGTERM handler (Ray's
    driver exits on it) to take it back; the previous handler is restored on
    the way out. Off the main thread (signals cannot be handled there) it does
    nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while one unit of output is written, then act on them.

    A map and its ``.start`` file belong together: a stop between the two would
    leave a map that asks for a real guess. Inside, either signal is only noted;
    on the way out the handlers are restored and the stop is raised as it would
    have been (:class:`Terminated` for SIGTERM, ``KeyboardInterrupt`` for Ctrl-C).
    Off the main thread it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    previous = {number: signal.signal(number, note) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if signal.SIGTERM in held:
        _received.append(signal.SIGTERM)
        raise Terminated(f"signal {signal.SIGTERM}")
    if held:
        raise KeyboardInterrupt
