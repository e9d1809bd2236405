"""Reading a request's JSON body and its fields, every problem a one-line 400."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from .errors import ApiError, bad_input
from .limits import MAX_BODY_BYTES


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The body as a JSON object, refused with 413 as soon as it passes ``limit`` bytes
    (before the rest is read) and with 400 when it is not a JSON object."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"request body over the {limit} byte limit")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, f"request body over the {limit} byte limit")
    if not body:
        return {}
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        raise bad_input("the body is not valid JSON") from None
    if not isinstance(payload, dict):
        raise bad_input("the body must be a JSON object")
    return payload


def text_field(payload: dict[str, Any], name: str, default: str | None = None) -> str | None:
    """``payload[name]`` as text (``default`` when absent or null)."""
    value = payload.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise bad_input(f"{name!r} must be a string")
    return value


def int_field(
    payload: dict[str, Any], name: str, low: int, high: int, default: int | None = None
) -> int | None:
    """``payload[name]`` as an integer in ``low..high`` (``default`` when absent or null)."""
    value = payload.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_input(f"{name!r} must be an integer")
    if not low <= value <= high:
        raise bad_input(f"{name!r} must be in {low}..{high}, got {value}")
    return value


def bool_field(payload: dict[str, Any], name: str, default: bool = False) -> bool:
    """``payload[name]`` as a boolean (``default`` when absent or null)."""
    value = payload.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise bad_input(f"{name!r} must be true or false")
    return value


def cell_field(payload: dict[str, Any], width: int, height: int) -> tuple[int, int]:
    """``payload["x"], payload["y"]``: a cell of a ``width`` x ``height`` board."""
    x = int_field(payload, "x", 0, width - 1)
    y = int_field(payload, "y", 0, height - 1)
    if x is None or y is None:
        raise bad_input("'x' and 'y' are required")
    return x, y
