"""The one error the API answers with: an HTTP status and a one-line message."""

from __future__ import annotations


class ApiError(Exception):
    """A request the API refuses: answered as ``{"error": message}`` with ``status``.

    :param status: 400 for bad input, 404 for an unknown game or run, 413 for a body
        over the size limit, 503 when the work budget ran out.
    """

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = " ".join(message.split())  # one line, whatever the source said


def bad_input(message: str) -> ApiError:
    """A 400: the request's content is wrong."""
    return ApiError(400, message)
