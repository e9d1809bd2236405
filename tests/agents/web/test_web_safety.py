"""The API's safety: OpenAPI covers every route, every bad request is a JSON error
under 500 (hypothesis fuzzes it), the work budget, and slow work never blocks fast."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_client import web_client

from semiautomines_agents.web import app as app_module
from semiautomines_agents.web.app import Work, create_app
from semiautomines_agents.web.openapi import api_paths
from semiautomines_agents.web.security import served_hosts


@pytest.fixture(scope="module")
def client():
    return web_client()


def test_openapi_describes_every_api_route(client):
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.")
    routes = api_paths(create_app().routes)
    assert len(routes) >= 11
    assert sorted(document["paths"]) == sorted(routes)
    for path, methods in document["paths"].items():
        for operation in methods.values():
            assert operation["summary"] and operation["responses"], path


def test_agents_lists_the_registry(client):
    from semiautomines_agents import AGENTS

    assert client.get("/api/agents").json() == {"agents": list(AGENTS), "default": "search"}


def test_the_page_and_its_files_are_served_from_static(tmp_path, monkeypatch):
    (tmp_path / "index.html").write_text("<!doctype html><title>page</title>")
    (tmp_path / "app.js").write_text("console.log(1)")
    monkeypatch.setattr(app_module, "STATIC", tmp_path)
    client = web_client()
    assert "<title>page</title>" in client.get("/").text
    assert client.get("/static/app.js").text == "console.log(1)"
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/missing.js"):
        answer = client.get(path)
        assert answer.status_code == 404 and "app.py" not in answer.text


def test_unknown_paths_and_methods_answer_json(client):
    assert client.get("/api/nothing").json() == {"error": "not found"}
    answer = client.get("/api/analyse")
    assert answer.status_code == 405 and answer.json() == {"error": "method not allowed"}


def test_an_unexpected_error_is_a_500_without_a_traceback(monkeypatch, caplog):
    def broken(payload):
        raise RuntimeError("secret detail")

    monkeypatch.setattr(app_module, "analyse_request", broken)
    answer = web_client().post("/api/analyse", json={"board": "1 1\n?\n"})
    assert answer.status_code == 500 and answer.json() == {"error": "internal error"}
    assert "secret" not in answer.text
    assert "secret detail" in caplog.text  # logged on the server's side


def test_work_over_its_budget_is_a_503(monkeypatch):
    def slow(payload):
        time.sleep(1.0)
        return {}

    monkeypatch.setattr(app_module, "analyse_request", slow)
    client = web_client(work=Work(workers=2, seconds=0.1))
    answer = client.post("/api/analyse", json={})
    assert answer.status_code == 503 and "budget" in answer.json()["error"]


def test_hosts_served_are_the_address_and_its_loopback_aliases():
    assert served_hosts("127.0.0.1", 8765) == {
        "127.0.0.1:8765",
        "localhost:8765",
        "[::1]:8765",
    }
    assert served_hosts("192.168.1.5", 80) == {"192.168.1.5:80"}
    client = web_client()
    assert client.get("/api/agents", headers={"host": "attacker.example"}).status_code == 400
    default = create_app()  # no hosts given: the loopback names only
    from web_client import TestClient

    loopback = TestClient(default, base_url="http://localhost:9999")
    assert loopback.get("/api/agents").status_code == 200
    assert TestClient(default).get("/api/agents").status_code == 400


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_position = st.builds(
    lambda w, h, total, rows: f"{w} {h}{'' if total is None else f' {total}'}\n" + "\n".join(rows),
    st.integers(0, 7),
    st.integers(0, 7),
    st.none() | st.integers(-2, 60),
    st.lists(st.text(alphabet="?!012345678 9x", max_size=9), max_size=8),
)
_bodies = st.fixed_dictionaries(
    {},
    optional={
        "board": _position | _json,
        "mines": st.none() | st.integers(-5, 70) | _json,
        "agent": st.sampled_from([None, "search", "greedy", "search:depth=1", "x"]) | _json,
        "x": st.integers(-2, 10) | _json,
        "y": st.integers(-2, 10) | _json,
        "rules": st.sampled_from(["complete", "endoh", "zz"]) | _json,
        "first_click": st.sampled_from(["safe", "none", "zz"]) | _json,
        "seed": st.none() | st.integers(-3, 2**64) | _json,
        "no_guess": st.booleans() | _json,
    },
)


def _is_json_under_500(answer: httpx.Response) -> None:
    assert answer.status_code < 500, answer.text
    assert isinstance(answer.json(), dict)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=_bodies | _json)
def test_fuzzed_analyse_answers_json_under_500(client, body):
    _is_json_under_500(client.post("/api/analyse", content=json.dumps(body)))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(create=_bodies | _json, moves=st.lists(_bodies | _json, max_size=3))
def test_fuzzed_games_answer_json_under_500(client, create, moves):
    answer = client.post("/api/games", content=json.dumps(create))
    _is_json_under_500(answer)
    game = answer.json().get("id", "none")
    for body, action in zip(moves, ["probe", "flag", "hint"], strict=False):
        _is_json_under_500(client.post(f"/api/games/{game}/{action}", content=json.dumps(body)))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=200))
def test_fuzzed_position_text_answers_json_under_500(client, text):
    _is_json_under_500(client.post("/api/analyse", json={"board": text}))


async def _timed(client: httpx.AsyncClient, body: dict) -> tuple[float, int]:
    answer = await client.post("/api/analyse", json=body, timeout=120)
    return time.perf_counter(), answer.status_code


def test_a_slow_analysis_does_not_block_a_fast_one_and_20_clients_get_answers(monkeypatch):
    analyse = app_module.analyse_request

    def analyse_slowly_when_asked(payload):
        """A CPU-bound analysis of a second and more when the body says ``slow``."""
        if payload.pop("slow", False):
            end = time.thread_time() + 1.5
            while time.thread_time() < end:
                pass
        return analyse(payload)

    monkeypatch.setattr(app_module, "analyse_request", analyse_slowly_when_asked)
    analyse({"board": "3 3 1\n1??\n???\n???\n"})  # kernels loaded before the race

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=create_app(hosts=["testserver"]))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            slow = asyncio.create_task(_timed(client, {"board": "2 1\n1?\n", "slow": True}))
            await asyncio.sleep(0.05)
            fast_done, fast_status = await _timed(client, {"board": "3 3 1\n1??\n???\n???\n"})
            slow_done, slow_status = await slow
            assert (fast_status, slow_status) == (200, 200)
            assert fast_done < slow_done
            crowd = [
                _timed(client, {"board": f"5 5 {m}\n1????\n" + "?????\n" * 4}) for m in range(1, 21)
            ]
            answers = await asyncio.gather(*crowd)
            assert [status for _, status in answers] == [200] * 20

    # A thread of its own: a browser test's Playwright loop may be running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()


_query_value = st.text(max_size=12) | st.integers(-5, 2**70).map(str)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    query=st.dictionaries(
        st.sampled_from(["agent", "board", "seed", "game", "rules", "first_click", "x"]),
        _query_value,
        max_size=5,
    )
)
def test_fuzzed_watch_queries_answer_json_or_a_stream(client, query):
    query = {**query, "board": query.get("board", "3x3x1")}
    if "board" in query and query["board"] in ("beginner", "intermediate", "expert"):
        query["board"] = "3x3x1"  # a whole game is not what this test measures
    with client.stream("GET", "/api/watch", params=query) as answer:
        assert answer.status_code < 500
        if answer.headers["content-type"].startswith("text/event-stream"):
            assert "event: end" in "".join(answer.iter_text())
        else:
            answer.read()
            assert isinstance(answer.json()["error"], str)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(run=st.text(min_size=1, max_size=12), game=_query_value, query=_query_value)
def test_fuzzed_run_paths_answer_json_under_500(client, run, game, query):
    run, game = quote(run, safe=""), quote(game, safe="")  # any text, as a browser sends it
    for path, params in (
        (f"/api/runs/{run}/games", {"result": query, "min_guesses": query}),
        (f"/api/runs/{run}/games/{game}", {}),
    ):
        answer = client.get(path, params=params)
        assert answer.status_code < 500
        assert isinstance(answer.json(), dict)
