"""The web app's limits: what one client may ask of the server.

Every limit is checked before the work it bounds: the body size while the body is
read, the board size on the position's header (through the project's own size
check, :func:`minesweep_env.core.board_spec.size_problem`) before a grid is made,
and each analysis runs in a worker thread under a time budget.
"""

from __future__ import annotations

MAX_BODY_BYTES = 64 * 1024
"""Largest request body: a position text of a 200x200 board fits easily."""
MAX_WEB_CELLS = 10_000
"""Largest board the web app analyses or plays (100x100): far above expert's 480 cells,
far below the project's own limit, so no request makes the server allocate much."""
MAX_GAMES = 256
"""Play games kept in memory; the oldest is dropped beyond this."""
WORK_SECONDS = 20.0
"""A request's CPU work budget: past it the client gets a 503 and its answer is dropped."""
NUMBERS_SECONDS = 3.0
"""Time an analysis spends on the chances of each number: cells not reached by then
answer ``null`` (with ``numbers_complete`` false) rather than hold the answer up."""
WORKERS = 4
"""Threads doing CPU work for requests (the event loop itself never counts layouts)."""
MAX_WATCH_STREAMS = 8
"""Watched games streaming at once."""
MAX_SEED = 2**63 - 1
"""Largest seed a request may give."""
