"""The ladder's HTTP face: a FastAPI app over `Ladder`, every route under ``/api``.

`create_app` builds it: the routes (`minesweeper.ladder.endpoints`), their limits and
the error answers. ``extensions`` are called with the app once the API is in place,
which is how the browser front end adds its pages and static files (anything
outside ``/api``) without this package knowing it.
"""

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from minesweeper.ladder import api
from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.endpoints import router
from minesweeper.ladder.errors import LadderError
from minesweeper.ladder.service import Ladder

#: Adds routes or mounts to the app (the web front end's pages, say).
Extension = Callable[[FastAPI], None]
#: The largest request body a route takes unless it says otherwise (FastAPI's own limit,
#: enforced as the body streams in: a larger one is refused, 413, before it is read whole).
#: The API's bodies (a sign-in, a new game, a move) take a few hundred bytes.
MAX_BODY_BYTES = 16 * 1024

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": api.ErrorOut, "description": text}
    for status, text in (
        (400, "A value that makes no sense"),
        (401, "No token, or a forged, expired or signed-out one"),
        (403, "Another player's game"),
        (404, "No such thing"),
        (409, "Too late or out of turn (a move after the end...)"),
        (413, "A request body past the route's limit (refused before it is read)"),
        (422, "A body or parameter of the wrong shape (malformed JSON...)"),
        (429, "Too many attempts"),
        (503, "Busy: every slot for heavy work is taken (try again after Retry-After)"),
    )
}


def create_app(
    config: LadderConfig | None = None,
    *,
    ladder_service: Ladder | None = None,
    extensions: Sequence[Extension] = (),
) -> FastAPI:
    """The app serving ``ladder_service`` (or a new `Ladder` on ``config``)."""
    if ladder_service is None:
        if config is None:
            raise ValueError("create_app needs a config or a ladder")
        ladder_service = Ladder(config)
    service = ladder_service
    app = FastAPI(
        title="minesweeper ladder",
        version="1",
        description="Ranked minesweeper: the server deals and judges every game (docs/ladder.md).",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        max_body_size=MAX_BODY_BYTES,
    )
    app.state.ladder = service
    _error_handlers(app)
    app.include_router(router(), prefix="/api", responses=ERRORS)
    for extend in extensions:
        extend(app)
    return app


def _error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(LadderError)
    async def ladder_error(_request: Request, error: LadderError) -> JSONResponse:
        retry_after = getattr(error, "retry_after", None)  # rate limited, or busy
        headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
        return JSONResponse(
            _error_body(error.code, str(error)), status_code=error.status, headers=headers
        )

    @app.exception_handler(RequestValidationError)
    async def bad_shape(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()))
        message = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        return JSONResponse(_error_body("malformed", message), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
        code = codes.get(error.status_code, "http_error")
        return JSONResponse(
            _error_body(code, str(error.detail)),
            status_code=error.status_code,
            headers=getattr(error, "headers", None),
        )
