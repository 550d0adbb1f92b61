"""The ladder's errors, typed by what went wrong; the HTTP face maps each kind to a status."""

from __future__ import annotations

from minesweeper.errors import MinesweeperError


class LadderError(MinesweeperError):
    """Something a ladder request asked for that cannot be done; ``status`` is its HTTP code."""

    status = 400
    #: A short machine-readable name of the kind of error (``code`` in the JSON answer).
    code = "bad_request"


class BadRequest(LadderError):
    """A request whose values make no sense (a cell off the board, an unknown preset...)."""


class Unauthorized(LadderError):
    """No token, or one that is forged, expired or signed out; or a wrong password."""

    status = 401
    code = "unauthorized"


class Forbidden(LadderError):
    """A signed-in player asking for what is not theirs (another player's game)."""

    status = 403
    code = "forbidden"


class NotFound(LadderError):
    """No such game, player or category."""

    status = 404
    code = "not_found"


class Conflict(LadderError):
    """A request that comes too late or out of turn: a move after the end, a name taken."""

    status = 409
    code = "conflict"


class RateLimited(LadderError):
    """Too many attempts; ``retry_after`` says in how many seconds to try again."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
