"""The web app under test: a Starlette TestClient on an app that accepts its Host."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note on httpx versions, not ours to fix
    from starlette.testclient import TestClient

from semiautomines_agents.web.app import create_app


def web_client(**options: Any) -> TestClient:
    """A client of a fresh app; server errors come back as responses, as a browser sees them."""
    return TestClient(create_app(hosts=["testserver"], **options), raise_server_exceptions=False)


def sse_events(text: str) -> list[tuple[str, str]]:
    """(event name, data) of each Server-Sent Event in ``text``."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            found.append((fields["event"], fields.get("data", "")))
    return found
