"""``GET /openapi.json``: an OpenAPI 3 description of every ``/api/...`` route."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

_ERROR = {"$ref": "#/components/schemas/Error"}
_CELL = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}


def _answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "200": {"description": description, "content": {"application/json": {"schema": schema}}},
        "400": {"description": "bad input", "content": {"application/json": {"schema": _ERROR}}},
        "404": {"description": "unknown", "content": {"application/json": {"schema": _ERROR}}},
        "413": {
            "description": "body too large",
            "content": {"application/json": {"schema": _ERROR}},
        },
        "503": {
            "description": "work budget spent",
            "content": {"application/json": {"schema": _ERROR}},
        },
    }


def _body(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _path_parameter(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _query(name: str, kind: str = "string") -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": {"type": kind}}


_CELL_BODY = _body({"x": {"type": "integer"}, "y": {"type": "integer"}}, ["x", "y"])
_GAME = {"$ref": "#/components/schemas/Game"}
_ANALYSIS = {"$ref": "#/components/schemas/Analysis"}
_MOVE = {
    "type": "object",
    "properties": {"game": _GAME, "rounds": {"type": "array", "items": {"type": "array"}}},
}

PATHS: dict[str, dict[str, Any]] = {
    "/api/agents": {
        "get": {
            "summary": "the agents by name, and the default adviser",
            "responses": _answer(
                {
                    "type": "object",
                    "properties": {
                        "agents": {"type": "array", "items": {"type": "string"}},
                        "default": {"type": "string"},
                    },
                },
                "agent names",
            ),
        }
    },
    "/api/analyse": {
        "post": {
            "summary": "probabilities, proven cells, number chances and advice of a position",
            "requestBody": _body(
                {
                    "board": {"type": "string", "description": "the position text"},
                    "mines": {"type": ["integer", "null"]},
                    "agent": {
                        "type": ["string", "null"],
                        "description": "the adviser, e.g. search",
                    },
                },
                ["board"],
            ),
            "responses": _answer(_ANALYSIS, "the analysis"),
        }
    },
    "/api/games": {
        "post": {
            "summary": "start a game",
            "requestBody": _body(
                {
                    "board": {
                        "type": "string",
                        "description": "beginner, intermediate, expert or WxHxM",
                    },
                    "rules": {"type": "string"},
                    "first_click": {"type": "string"},
                    "seed": {"type": ["integer", "null"]},
                    "no_guess": {"type": "boolean"},
                }
            ),
            "responses": _answer(_GAME, "the new game"),
        }
    },
    "/api/games/{id}": {
        "get": {
            "summary": "a game as it stands",
            "parameters": [_path_parameter("id")],
            "responses": _answer(_GAME, "the game"),
        }
    },
    "/api/games/{id}/probe": {
        "post": {
            "summary": "probe a cell; the auto-solver's rounds follow",
            "parameters": [_path_parameter("id")],
            "requestBody": _CELL_BODY,
            "responses": _answer(_MOVE, "the game and the cells each round changed"),
        }
    },
    "/api/games/{id}/flag": {
        "post": {
            "summary": "flag or unflag a cell",
            "parameters": [_path_parameter("id")],
            "requestBody": _CELL_BODY,
            "responses": _answer(_MOVE, "the game and the change"),
        }
    },
    "/api/games/{id}/hint": {
        "post": {
            "summary": "the analysis of the game's position, with advice",
            "parameters": [_path_parameter("id")],
            "requestBody": _body({"agent": {"type": "string"}}),
            "responses": _answer(_ANALYSIS, "the analysis"),
        }
    },
    "/api/watch": {
        "get": {
            "summary": "an agent plays game K of a run seed: Server-Sent Events, one per move",
            "parameters": [
                _query("agent"),
                _query("board"),
                _query("map"),
                _query("seed", "integer"),
                _query("game", "integer"),
                _query("rules"),
                _query("first_click"),
            ],
            "responses": {
                "200": {
                    "description": "event: start (a map's size; maps only), "
                    "event: move ... event: end",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                },
                "400": {
                    "description": "bad input",
                    "content": {"application/json": {"schema": _ERROR}},
                },
            },
        }
    },
    "/api/runs": {
        "get": {
            "summary": "the run folders given to serve --runs",
            "responses": _answer({"type": "object"}, "the runs"),
        }
    },
    "/api/runs/{run}/games": {
        "get": {
            "summary": "a run's saved games, filtered",
            "parameters": [
                _path_parameter("run"),
                _query("result"),
                _query("min_guesses", "integer"),
            ],
            "responses": _answer({"type": "object"}, "the games"),
        }
    },
    "/api/runs/{run}/games/{n}": {
        "get": {
            "summary": "one saved game, move by move",
            "parameters": [_path_parameter("run"), _path_parameter("n")],
            "responses": _answer({"type": "object"}, "the game"),
        }
    },
    "/api/maps": {
        "get": {
            "summary": "the maps given to serve --maps, by name (watch them with map=NAME)",
            "responses": _answer({"type": "object"}, "the maps"),
        }
    },
    "/api/replays": {
        "get": {
            "summary": "the human replay files given to serve --replays, by name",
            "responses": _answer({"type": "object"}, "the replays"),
        }
    },
    "/api/replays/{name}": {
        "get": {
            "summary": "one human replay, move by move, each guess with the review's figures",
            "parameters": [_path_parameter("name")],
            "responses": _answer({"type": "object"}, "the game"),
        }
    },
}

SCHEMAS: dict[str, Any] = {
    "Error": {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]},
    "Game": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "mines": {"type": "integer"},
            "seed": {"type": ["integer", "null"]},
            "rules": {"type": "string"},
            "first_click": {"type": "string"},
            "state": {"enum": ["playing", "won", "lost"]},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "mines_left": {"type": "integer"},
            "moves": {"type": "integer"},
            "url": {"type": "string"},
        },
    },
    "Analysis": {
        "type": "object",
        "properties": {
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "probabilities": {"type": "array", "items": {"type": "array"}},
            "safe": {"type": "array", "items": _CELL},
            "mines": {"type": "array", "items": _CELL},
            "total_mines": {"type": ["integer", "null"]},
            "numbers": {"type": "array", "items": {"type": "array"}},
            "numbers_complete": {"type": "boolean"},
            "advice": {"type": ["object", "null"], "description": "guess --json's object"},
            "note": {"type": ["string", "null"]},
        },
    },
}


def api_paths(routes: Sequence[BaseRoute]) -> list[str]:
    """The ``/api/...`` paths among ``routes``."""
    return [r.path for r in routes if isinstance(r, Route) and r.path.startswith("/api/")]


def description(routes: Sequence[BaseRoute]) -> dict[str, Any]:
    """The OpenAPI document of the API routes in ``routes``.

    :raises KeyError: for a route :data:`PATHS` does not describe (a test keeps it whole).
    """
    return {
        "openapi": "3.1.0",
        "info": {"title": "SemiAutoMines web API", "version": "1"},
        "paths": {path: PATHS[path] for path in dict.fromkeys(api_paths(routes))},
        "components": {"schemas": SCHEMAS},
    }


def openapi_route(routes: Sequence[BaseRoute]) -> Route:
    """``GET /openapi.json`` for ``routes``."""
    document = description(routes)

    def openapi(request: Request) -> Response:
        return JSONResponse(document)

    return Route("/openapi.json", openapi, methods=["GET"])
