"""The page's routes, added to the ladder's FastAPI app by `mount`."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from minesweeper.errors import MinesweeperError
from minesweeper.ladder.errors import BadRequest
from minesweeper.play.replay import Replay
from minesweeper.web import videos
from minesweeper.web.boards import MAX_DRAWN_CELLS, DrawingError, TopologyView, topology_of
from minesweeper.web.playback import frames

STATIC = files("minesweeper.web") / "static"
#: The page's own rules for browsers: nothing but this origin runs or loads.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


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

    @routes.post("/api/geometry", tags=["page"])
    def geometry(view: TopologyView) -> dict[str, Any]:
        """Where each cell of a board is drawn: its polygon, or a graph's node points and
        links (see `minesweeper.topology.geometry`), for a topology as a game's JSON shows it."""
        try:
            return topology_of(view).geometry().as_json()
        except DrawingError as error:
            raise BadRequest(str(error)) from None

    @routes.post("/api/replay/frames", tags=["page"])
    async def replay_frames(request: Request) -> dict[str, Any]:
        """A replay (the project's replay JSON, docs/replay.md) as frames for playback, with
        the board's geometry."""
        body = await request.body()
        try:
            replay = Replay.from_bytes(body)
            topology = replay.board.topology
            if topology.size > MAX_DRAWN_CELLS:
                raise DrawingError(f"the page draws boards of at most {MAX_DRAWN_CELLS:,} cells")
            return {
                "geometry": topology.geometry().as_json(),
                "player": replay.player,
                "date": replay.date,
                "result": replay.as_json()["result"],
                "stats": replay.stats().as_json(),
                "frames": frames(replay),
            }
        except MinesweeperError as error:
            raise BadRequest(str(error)) from None

    return routes


def mount(app: FastAPI) -> None:
    """Serve the page from ``app`` (the ladder's): its routes, and its files under ``/static``."""
    app.include_router(router())
    app.include_router(videos.router())
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
