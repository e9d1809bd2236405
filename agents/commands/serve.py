"""``semiautomines serve``: the web app (play, analyse, watch, replay) on a local port.

Binds 127.0.0.1 by default and prints one line, ``serving on http://HOST:PORT/``
(the real port with ``--port 0``). The app answers only to the Host headers of
that address (see :mod:`semiautomines_agents.web.security`). Ctrl-C or SIGTERM
stops it, with status 130 or 143.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from minesweep_env.cli.errors import CliError

DEFAULT_PORT = 8765
INSTALL_HINT = "the web app needs the web extra: pip install 'semiautomines[web]'"

EXAMPLES = """\
examples:
  semiautomines serve                      # http://127.0.0.1:8765/ in the browser
  semiautomines serve --port 0 --no-browser
  semiautomines serve --runs runs/search-expert runs/greedy-expert
  semiautomines serve --maps maps/no-guess/expert --replays games/

The page has four modes: Play, Analyse, Watch (on a board, or on a map given with
--maps: game K of seed S as `evaluate --maps MAP --seed S` run from the same folder
plays it) and Replay (the run folders given with --runs, from `evaluate
--save-games`, and people's replay files given with --replays, stepped from guess to
guess). Every mode uses the JSON API under /api/, described at /openapi.json; see
docs/web.md.

exit status: 2 bad input (one line on stderr), 130 after Ctrl-C, 143 after SIGTERM."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="the web app: play, analyse, watch and replay in a browser",
        description="Serve the web app on a local port and open it in the browser.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine)"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0: a free one)",
    )
    parser.add_argument(
        "--runs",
        nargs="+",
        action="extend",
        default=[],
        metavar="DIR",
        help="run folders of `evaluate --save-games` to replay",
    )
    parser.add_argument(
        "--maps",
        nargs="+",
        action="extend",
        default=[],
        metavar="PATH",
        help="map files or folders to watch agents on (as `evaluate --maps` reads them)",
    )
    parser.add_argument(
        "--replays",
        nargs="+",
        action="extend",
        default=[],
        metavar="PATH",
        help="replay files (.avf .rmv .mvf .evf .msor) or folders of them to step through",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a browser"
    )
    parser.set_defaults(func=run)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), or a one-line error."""
    if not 0 <= port <= 65535:
        raise CliError(f"--port must be in 0..65535, got {port}")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        raise CliError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise CliError(INSTALL_HINT) from None
    from ..web.app import create_app
    from ..web.maps import MapFiles
    from ..web.replays import ReplayFiles
    from ..web.runs import RunFolders
    from ..web.security import is_loopback, served_hosts

    runs = RunFolders.from_paths([Path(p) for p in args.runs])
    maps = MapFiles.from_paths([Path(p) for p in args.maps])
    replays = ReplayFiles.from_paths([Path(p) for p in args.replays])
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/"
    if not is_loopback(args.host):
        print(
            f"semiautomines serve: warning: {args.host} is not a loopback address: "
            "anyone who can reach it can use the app",
            file=sys.stderr,
        )
    app = create_app(runs=runs, hosts=served_hosts(args.host, port), maps=maps, replays=replays)
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    print(f"serving on {url}", flush=True)
    if not args.no_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    server.run(sockets=[sock])
    return 0
