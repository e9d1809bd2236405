"""Speed peers run live beside SemiAutoMines, one module per peer.

No peer's code is kept in this repository: each module drives a peer from a
path the user gives (a JSMinesweeper checkout, a built minesolve binary) or a
package of the ``bench`` extra (``pip install -e '.[bench]'``). When a peer is
absent its module raises :class:`PeerMissing`, whose message says how to get
it, and the benchmark goes on measuring ours.
"""

from __future__ import annotations

BENCH_EXTRA = "pip install -e '.[bench]'"
"""How to install the PyPI peers (ms-toollib, gym-minesweeper, jumanji)."""


class PeerMissing(RuntimeError):
    """A peer is not available on this machine; the message says how to get it."""


def require_module(module: str, package: str):
    """Import a peer's Python module, or raise :class:`PeerMissing` naming its package."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise PeerMissing(
            f"{package} is not installed ({error}); install the bench extra: {BENCH_EXTRA}"
        ) from None
