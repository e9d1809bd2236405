"""``POST /api/analyse``: a position's probabilities, proven cells, numbers and advice.

The answer is what the page paints in Analyse mode and what a script gets back:
the exact engine's mine probabilities (:func:`~minesweep_env.mine_probabilities`),
the cells proven safe or mined, the chances of each number a covered cell would
show (:mod:`.numbers`) and, when an agent is named, the very object
``semiautomines guess --json`` prints for the position
(:func:`~semiautomines_agents.search.advice_report.position_advice`).
"""

from __future__ import annotations

import math
from typing import Any

from minesweep_env.compiled import ready
from minesweep_env.core.board import Board
from minesweep_env.core.cells import COVERED
from minesweep_env.errors import InconsistentBoardError, MapFormatError
from minesweep_env.formats import parse_board
from minesweep_env.solver.probability import Weights, count_position, mine_probabilities

from ..progress import FLOAT_CELLS
from ..search.advice_report import NothingToProbe, position_advice, search_agent
from .errors import bad_input
from .limits import MAX_WEB_CELLS, NUMBERS_SECONDS
from .numbers import number_chances
from .payload import int_field, text_field


def check_header(text: str) -> None:
    """Refuse a position larger than :data:`MAX_WEB_CELLS` from its header alone,
    before the reader makes a grid (the reader checks the header's form itself)."""
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            continue
        if len(fields) >= 2 and fields[0].isdigit() and fields[1].isdigit():
            width, height = int(fields[0]), int(fields[1])
            if width * height > MAX_WEB_CELLS:
                raise bad_input(
                    f"board {width}x{height} is larger than the web app's limit of "
                    f"{MAX_WEB_CELLS} cells"
                )
        return


def read_position(text: str, mines: int | None) -> Board:
    """The position in ``text`` (our position format), with ``mines`` as its total when given.

    :raises ApiError: (400) for a malformed or too large position.
    """
    check_header(text)
    try:
        board = parse_board(text, "board")
    except (MapFormatError, ValueError) as error:
        raise bad_input(str(error)) from None
    if mines is not None:
        cells = board.width * board.height
        if not 0 <= mines <= cells:
            raise bad_input(f"'mines' {mines} out of range 0..{cells} for this board")
        board.total_mines = mines
    return board


def _grid(values: list[Any], width: int) -> list[list[Any]]:
    return [values[i : i + width] for i in range(0, len(values), width)]


def position_weights(board: Board) -> Weights:
    """``count_position(board, any_count=True)``: from the compiled count's exact residues
    when it can (the same integers), else from the exact engine.

    :raises InconsistentBoardError: when no layout fits.
    """
    if board.total_mines is not None and board.grid.size <= FLOAT_CELLS and ready():
        from ..float_weights import exact_weights

        weights = exact_weights(board)
        if weights is not None:
            return weights
    return count_position(board, any_count=True)


def analysis(board: Board, agent_name: str | None = None) -> dict[str, Any]:
    """The analyse answer for ``board`` (see the module), advised by ``agent_name``.

    :raises ApiError: (400) for an impossible position or an agent that cannot advise.
    """
    agent = None
    if agent_name is not None:
        try:
            agent = search_agent(agent_name)
        except ValueError as error:
            raise bad_input(str(error)) from None
    try:
        weights = position_weights(board)
        risk = mine_probabilities(board).reshape(-1).tolist()
        numbers, numbers_complete = number_chances(board, weights, NUMBERS_SECONDS)
        advice = None
        note = None
        if agent is not None:
            try:
                advice = position_advice(agent, board.copy(), weights)
            except NothingToProbe as error:
                note = str(error)
    except InconsistentBoardError as error:
        raise bad_input(str(error)) from None
    width, layouts = board.width, weights.layouts
    covered = board.grid.reshape(-1) == COVERED
    proven = sorted(c for c, w in weights.mine_weight.items() if w is not None and covered[c])
    return {
        "width": width,
        "height": board.height,
        "total_mines": board.total_mines,
        "probabilities": _grid([None if math.isnan(p) else p for p in risk], width),
        "safe": [[c % width, c // width] for c in proven if weights.mine_weight[c] == 0],
        "mines": [[c % width, c // width] for c in proven if weights.mine_weight[c] == layouts],
        "numbers": numbers,
        "numbers_complete": numbers_complete,
        "advice": advice,
        "note": note,
    }


def analyse_request(payload: dict[str, Any]) -> dict[str, Any]:
    """The answer to an analyse request body ``{"board", "mines", "agent"}``."""
    text = text_field(payload, "board")
    if text is None:
        raise bad_input("'board' (the position text) is required")
    mines = int_field(payload, "mines", 0, MAX_WEB_CELLS)
    agent_name = text_field(payload, "agent")
    return analysis(read_position(text, mines), agent_name)
