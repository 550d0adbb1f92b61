"""The page's routes, added to the ladder's FastAPI app by `mount`.

Its drawing endpoints (and the videos', `minesweeper.web.videos`) take no sign-in, so
each is bounded: a body of at most `MAX_DRAWING_BODY` bytes (refused by FastAPI as it
streams in), read and worked on in a worker thread holding one of the ladder's slots for
public heavy work (`Ladder.public`), never in the event loop that answers every other
request.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations.
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from minesweeper.errors import MinesweeperError
from minesweeper.ladder.depends import Address, Service
from minesweeper.ladder.errors import BadRequest
from minesweeper.web import videos
from minesweeper.web.boards import TopologyView, topology_of
from minesweeper.web.playback import playback

STATIC = files("minesweeper.web") / "static"
#: The page's own rules for browsers: nothing but this origin runs or loads.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
#: The largest body of a drawing endpoint: the replay of the longest game of the largest
#: board (10,000 cells, 40,000 clicks) takes about 1 MB, its topology less.
MAX_DRAWING_BODY = 2 * 1024 * 1024


def _json_body(model: type[TopologyView]) -> dict[str, Any]:
    """The OpenAPI description of a JSON body a route reads itself (to parse it off the loop)."""
    schema = {"content": {"application/json": {"schema": model.model_json_schema()}}}
    return {"requestBody": {"required": True, **schema}}


def geometry_of(body: bytes) -> dict[str, Any]:
    """The geometry of the topology view in ``body``; `BadRequest` naming the first problem."""
    try:
        view = TopologyView.model_validate_json(body)
        return topology_of(view).geometry().as_json()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise BadRequest(f"body.{where}: {first['msg']}" if where else first["msg"]) from None
    except MinesweeperError as error:
        raise BadRequest(str(error)) from None


def frames_of(body: bytes) -> dict[str, Any]:
    """The replay in ``body`` as frames; `BadRequest` naming the first problem."""
    try:
        return playback(body)
    except MinesweeperError as error:
        raise BadRequest(str(error)) from None


def router() -> APIRouter:
    """The page (``/``) and its drawing endpoints."""
    routes = APIRouter()

    @routes.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> HTMLResponse:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return HTMLResponse(
            html,
            headers={
                "Content-Security-Policy": CONTENT_SECURITY_POLICY,
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
            },
        )

    @routes.post(
        "/api/geometry",
        tags=["page"],
        max_body_size=MAX_DRAWING_BODY,
        openapi_extra=_json_body(TopologyView),
    )
    async def geometry(request: Request, service: Service, address: Address) -> dict[str, Any]:
        """Where each cell of a board is drawn: its polygon, or a graph's node points and
        links (see `minesweeper.topology.geometry`), for a topology as a game's JSON shows it."""
        body = await request.body()
        return await service.public.run(lambda: geometry_of(body), "drawings", address)

    @routes.post("/api/replay/frames", tags=["page"], max_body_size=MAX_DRAWING_BODY)
    async def replay_frames(request: Request, service: Service, address: Address) -> dict[str, Any]:
        """A replay (the project's replay JSON, docs/replay.md) as frames for playback, with
        the board's geometry."""
        body = await request.body()
        return await service.public.run(lambda: frames_of(body), "replays", address)

    return routes


def mount(app: FastAPI) -> None:
    """Serve the page from ``app`` (the ladder's): its routes, and its files under ``/static``."""
    app.include_router(router())
    app.include_router(videos.router())
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
