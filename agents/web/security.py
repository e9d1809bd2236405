"""The Host-header check: the app answers only to the names it is served under.

A page on another site can make the browser send requests to ``127.0.0.1`` under
its own host name (DNS rebinding); refusing every ``Host`` that is not the served
``host:port`` (or a loopback alias of it) stops that before any route runs.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) only reaches this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` values to accept for a server on ``host:port``: itself and, when it
    is a loopback address, the other loopback names at the same port."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    names = {shown.lower()}
    if is_loopback(host):
        names.update(LOOPBACK_NAMES)
    return frozenset(f"{name}:{port}" for name in names)


class HostCheck:
    """ASGI middleware: a request whose ``Host`` is not in ``hosts`` gets a 400 JSON error.

    :param hosts: accepted ``host:port`` values (lower case); ``None`` accepts the
        loopback names at any port.
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None = None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    def _accepted(self, value: str) -> bool:
        value = value.strip().lower()
        if self.hosts is not None:
            return value in self.hosts
        name = value.rsplit(":", 1)[0] if not value.endswith("]") else value
        return name in LOOPBACK_NAMES

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # no WebSocket route: the router refuses those
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        if self._accepted(host):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": "unexpected Host header"}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
