"""How fast ``POST /api/analyse`` answers on expert positions, and under 20 clients at once.

Targets: p95 under 30 ms without advice and under 500 ms with ``search``'s advice. The
positions are ``guess_speed.py``'s (seeded expert games after 0-9 lowest-probability
guesses). Each is timed three ways: the function behind the route, server-side
(:func:`~semiautomines_agents.web.analyse.analyse_request`); a request through HTTP on
loopback to ``semiautomines serve`` in its own process; and 20 clients posting at once
(every answer must be a 200). Server-side timings come with the CPU time of the
thread, which other work on a busy machine does not inflate. The last lines say
whether the compiled kernels answered (they do once ``python -m minesweep_env.compiled``
has warmed them) and the machine's load.

    python benchmarks/web_analyse_speed.py --positions 24
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from minesweep_env import compiled
from semiautomines_agents.web.analyse import analyse_request

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


def serve() -> tuple[subprocess.Popen, str]:
    """``semiautomines serve --port 0`` in its own process, and its address."""
    command = [sys.executable, "-m", "minesweep_env.cli.main", "serve", "--port", "0"]
    # Its stop line ("interrupted") on stderr is not a result: left out.
    process = subprocess.Popen(
        [*command, "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line.startswith("serving on "):
        process.kill()
        raise SystemExit(f"serve did not start: {line!r}")
    return process, line.removeprefix("serving on ").rstrip("/")


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
        seconds, cpu = [], []
        for body in bodies:
            for _ in range(repeat):
                start, start_cpu = time.perf_counter(), time.thread_time()
                analyse_request(body)
                seconds.append(time.perf_counter() - start)
                cpu.append(time.thread_time() - start_cpu)
        rows.append(f"server-side  {name:<14} n={len(seconds):<4} {percentiles(seconds)}")
        rows.append(f"  (its CPU)  {name:<14} n={len(cpu):<4} {percentiles(cpu)}")
    server, url = serve()
    try:
        with httpx.Client(timeout=120) as client:  # warm the server as this process was
            for body in plain + advised:
                client.post(f"{url}/api/analyse", json=body)
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
        server.terminate()
        server.wait()
    print("\n".join(rows))
    print(f"compiled kernels answered: {compiled.ready()}")
    print(f"load average (1, 5, 15 min): {', '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
