"""The Starlette app of ``semiautomines serve``: the page, its files and the JSON API.

Every route's CPU work (counting layouts, an agent's advice, a move and the
auto-solver's rounds) runs in a bounded pool of worker threads under a time
budget (:class:`Work`), so the event loop keeps answering and a slow analysis
never holds up a fast one. Every error reaches the client as ``{"error": "..."}``,
never as a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import AGENTS
from ..search import SearchAgent
from .analyse import analyse_request, analysis
from .errors import ApiError
from .games import GameStore, move, new_game
from .limits import MAX_WATCH_STREAMS, WORK_SECONDS, WORKERS
from .maps import MapFiles
from .payload import read_json, text_field
from .replays import ReplayFiles
from .runs import RunFolders, replay
from .security import HostCheck
from .watching import event, watch_driver, watch_request, watched_moves

STATIC = Path(__file__).parent / "static"
"""The page's own files (HTML, scripts, styles, fonts): nothing comes from a CDN."""

log = logging.getLogger("semiautomines.web")
T = TypeVar("T")


class Work:
    """The worker threads of CPU work, and the time budget of each piece.

    :param workers: threads; requests beyond them queue.
    :param seconds: a request's budget: past it the client gets a 503 (the thread
        finishes its piece, whose answer is dropped).
    """

    def __init__(self, workers: int = WORKERS, seconds: float = WORK_SECONDS) -> None:
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="semiautomines-web")
        self.seconds = seconds

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.pool, function, *args)
        try:
            return await asyncio.wait_for(future, self.seconds)
        except asyncio.TimeoutError:
            raise ApiError(
                503, f"the work took longer than its {self.seconds:g} s budget"
            ) from None


def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return JSONResponse({"error": error.message}, status_code=error.status)


def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = {404: "not found", 405: "method not allowed"}.get(
        error.status_code, str(error.detail)
    )
    return JSONResponse({"error": message}, status_code=error.status_code)


def _internal_error(request: Request, error: Exception) -> Response:
    log.error("error answering %s %s", request.method, request.url.path, exc_info=error)
    return JSONResponse({"error": "internal error"}, status_code=500)


def _agents(request: Request) -> Response:
    return JSONResponse({"agents": list(AGENTS), "default": SearchAgent.name})


def _page(request: Request) -> Response:
    page = STATIC / "index.html"
    if not page.is_file():
        raise ApiError(404, "the page is not installed")
    return FileResponse(page)


def api_routes(work: Work, games: GameStore) -> list[Route]:
    """The ``/api/...`` routes of Analyse and Play."""

    async def analyse(request: Request) -> Response:
        payload = await read_json(request)
        return JSONResponse(await work.run(analyse_request, payload))

    async def create_game(request: Request) -> Response:
        payload = await read_json(request)
        played = await work.run(new_game, payload)
        games.add(played)
        return JSONResponse(played.report())

    async def show_game(request: Request) -> Response:
        return JSONResponse(games.get(request.path_params["id"]).report_now())

    async def probe(request: Request) -> Response:
        played = games.get(request.path_params["id"])
        payload = await read_json(request)
        return JSONResponse(await work.run(move, played, "probe", payload))

    async def flag(request: Request) -> Response:
        played = games.get(request.path_params["id"])
        payload = await read_json(request)
        return JSONResponse(await work.run(move, played, "flag", payload))

    async def hint(request: Request) -> Response:
        played = games.get(request.path_params["id"])
        payload = await read_json(request)
        agent = text_field(payload, "agent", SearchAgent.name)
        return JSONResponse(await work.run(analysis, played.board_now(), agent))

    return [
        Route("/api/agents", _agents, methods=["GET"]),
        Route("/api/analyse", analyse, methods=["POST"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{id}", show_game, methods=["GET"]),
        Route("/api/games/{id}/probe", probe, methods=["POST"]),
        Route("/api/games/{id}/flag", flag, methods=["POST"]),
        Route("/api/games/{id}/hint", hint, methods=["POST"]),
    ]


def watch_route(work: Work, limit: int = MAX_WATCH_STREAMS, maps: MapFiles | None = None) -> Route:
    """``GET /api/watch``: one agent's game as Server-Sent Events, each move computed
    in a worker thread; at most ``limit`` streams at once. ``map=NAME`` plays one
    of ``maps`` instead of a board."""
    active = [0]
    maps = maps or MapFiles()

    async def watch(request: Request) -> Response:
        wanted = watch_request(request.query_params)
        target = None if wanted.map is None else maps.target(wanted.map)
        if active[0] >= limit:
            raise ApiError(503, f"already {limit} games being watched; try again later")
        driver = await work.run(watch_driver, wanted, target)
        events = watched_moves(driver)
        active[0] += 1

        async def stream() -> AsyncIterator[str]:
            try:
                while (item := await work.run(next, events, None)) is not None:
                    yield event(*item)
            except ApiError as error:
                yield event("error", {"error": error.message})
            except Exception as error:  # the headers are sent: the error goes in the stream
                log.error("error in a watched game", exc_info=error)
                yield event("error", {"error": "internal error"})
            finally:
                active[0] -= 1

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    return Route("/api/watch", watch, methods=["GET"])


def run_routes(work: Work, runs: RunFolders) -> list[Route]:
    """The ``/api/runs...`` routes of Replay."""

    def listing(request: Request) -> Response:
        return JSONResponse(runs.listing())

    def games(request: Request) -> Response:
        query = request.query_params
        found = runs.games(
            request.path_params["run"], query.get("result"), query.get("min_guesses")
        )
        return JSONResponse(found)

    async def game(request: Request) -> Response:
        played = runs.game(request.path_params["run"], request.path_params["n"])
        return JSONResponse(await work.run(replay, played))

    return [
        Route("/api/runs", listing, methods=["GET"]),
        Route("/api/runs/{run}/games", games, methods=["GET"]),
        Route("/api/runs/{run}/games/{n}", game, methods=["GET"]),
    ]


def file_routes(work: Work, maps: MapFiles, replays: ReplayFiles) -> list[Route]:
    """``/api/maps`` (Watch's maps) and the ``/api/replays...`` routes of Replay."""

    def map_listing(request: Request) -> Response:
        return JSONResponse(maps.listing())

    def replay_listing(request: Request) -> Response:
        return JSONResponse(replays.listing())

    async def human_game(request: Request) -> Response:
        name = request.path_params["name"]
        replays.check(name)
        return JSONResponse(await work.run(replays.answer, name))

    return [
        Route("/api/maps", map_listing, methods=["GET"]),
        Route("/api/replays", replay_listing, methods=["GET"]),
        Route("/api/replays/{name}", human_game, methods=["GET"]),
    ]


def create_app(
    runs: RunFolders | None = None,
    hosts: Iterable[str] | None = None,
    work: Work | None = None,
    maps: MapFiles | None = None,
    replays: ReplayFiles | None = None,
) -> Starlette:
    """The web app.

    :param runs: the run folders of ``evaluate --save-games`` that Replay lists.
    :param maps: the map files and folders of ``serve --maps`` that Watch offers.
    :param replays: the human replay files of ``serve --replays`` that Replay lists.
    :param hosts: the ``host:port`` values the app answers to (see
        :class:`.security.HostCheck`); ``None``: the loopback names at any port.
    :param work: the worker threads and time budget (default :class:`Work()`).
    """
    from .openapi import openapi_route

    work = work or Work()
    routes: list[Route | Mount] = [Route("/", _page, methods=["GET"])]
    routes += api_routes(work, GameStore())
    maps = maps or MapFiles()
    routes.append(watch_route(work, maps=maps))
    routes += run_routes(work, runs or RunFolders())
    routes += file_routes(work, maps, replays or ReplayFiles())
    routes.append(openapi_route(routes))
    routes.append(Mount("/static", StaticFiles(directory=STATIC, check_dir=False)))
    return Starlette(
        routes=routes,
        middleware=[Middleware(HostCheck, hosts=hosts)],
        exception_handlers={
            ApiError: _api_error,
            HTTPException: _http_error,
            Exception: _internal_error,
        },
    )
