"""How fast ``POST /api/analyse`` answers on expert positions, and under 20 clients at once.

Targets: p95 under 30 ms without advice and under 500 ms with ``search``'s advice. The
positions are ``guess_speed.py``'s (seeded expert games after 0-9 lowest-probability
guesses). Each is timed three ways: the function behind the route, server-side
(:func:`~semiautomines_agents.web.analyse.analyse_request`); a request through HTTP on
loopback to uvicorn serving the app in this process; and 20 clients posting at once
(every answer must be a 200). The last line says whether the compiled kernels
answered (they do once ``python -m minesweep_env.compiled`` has warmed them).

    python benchmarks/web_analyse_speed.py --positions 24
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import uvicorn

from minesweep_env import compiled
from semiautomines_agents.web.analyse import analyse_request
from semiautomines_agents.web.app import create_app
from semiautomines_agents.web.security import served_hosts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from guess_speed import positions  # noqa: E402


def percentiles(seconds: list[float]) -> str:
    """p50 and p95 in milliseconds."""
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms"


def timed(call: Callable[[], object], repeat: int) -> list[float]:
    found = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        found.append(time.perf_counter() - start)
    return found


def serve_in_thread() -> tuple[uvicorn.Server, str]:
    """uvicorn serving the app on a free loopback port, in a background thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(hosts=served_hosts("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    return server, f"http://127.0.0.1:{port}"


def crowd(url: str, bodies: list[dict], clients: int) -> tuple[int, int, float]:
    """(answers, errors, seconds) of ``clients`` clients posting every body at once."""

    def post(body: dict) -> bool:
        try:
            with httpx.Client(timeout=120) as client:
                return client.post(f"{url}/api/analyse", json=body).status_code == 200
        except httpx.HTTPError:
            return False

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(post, bodies))
    return len(results), results.count(False), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (no advice)")
    parser.add_argument("--clients", type=int, default=20)
    args = parser.parse_args()
    texts = positions(args.positions, args.seed)
    plain = [{"board": t} for t in texts]
    advised = [{"board": t, "agent": "search"} for t in texts]
    for body in plain + advised:  # warm: imports, caches, kernels loaded
        analyse_request(body)
    rows = []
    for name, bodies, repeat in (("no advice", plain, args.repeat), ("search advice", advised, 1)):
        seconds = [s for b in bodies for s in timed(lambda b=b: analyse_request(b), repeat)]
        rows.append(f"server-side  {name:<14} n={len(seconds):<4} {percentiles(seconds)}")
    server, url = serve_in_thread()
    try:
        with httpx.Client(timeout=120) as client:
            for name, bodies, repeat in (
                ("no advice", plain, args.repeat),
                ("search advice", advised, 1),
            ):
                seconds = []
                for body in bodies:
                    seconds += timed(
                        lambda b=body: client.post(f"{url}/api/analyse", json=b), repeat
                    )
                rows.append(f"HTTP         {name:<14} n={len(seconds):<4} {percentiles(seconds)}")
        mixed = (plain * args.clients)[: args.clients * 3] + advised[: args.clients]
        answers, errors, seconds = crowd(url, mixed, args.clients)
        rows.append(
            f"{args.clients} clients at once: {answers} requests "
            f"({min(len(advised), args.clients)} with advice), {errors} errors, {seconds:.1f} s"
        )
    finally:
        server.should_exit = True
    print("\n".join(rows))
    print(f"compiled kernels answered: {compiled.ready()}")


if __name__ == "__main__":
    main()
