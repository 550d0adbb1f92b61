"""The page's routes, added to the ladder's FastAPI app by `install`."""

from __future__ import annotations

from importlib.resources import files
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles

from minesweeper.errors import MinesweeperError
from minesweeper.ladder.accounts import Player
from minesweeper.ladder.errors import BadRequest
from minesweeper.ladder.service import Ladder
from minesweeper.play.replay import Replay
from minesweeper.web import practice
from minesweeper.web.boards import MAX_DRAWN_CELLS, DrawingError, TopologyView, topology_of
from minesweeper.web.playback import frames

STATIC = files("minesweeper.web") / "static"
#: The page's own rules for browsers: nothing but this origin runs or loads.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

bearer = HTTPBearer(auto_error=False)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _service(request: Request) -> Ladder:
    return request.app.state.ladder  # type: ignore[no-any-return]


def _player(service: Ladder, credentials: HTTPAuthorizationCredentials | None) -> Player:
    with service.transaction() as db:
        return service.accounts.player(db, None if credentials is None else credentials.credentials)


def router() -> APIRouter:
    """The page (``/``), its drawing endpoints, guests and the practice aids."""
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

    @routes.post("/api/guests", status_code=201, tags=["page"])
    def guest(request: Request) -> dict[str, Any]:
        """Sign in as a new guest, for practice without an account (no password: the token
        is the only way back in)."""
        service = _service(request)
        address = request.client.host if request.client is not None else "unknown"
        with service.transaction() as db:
            issued = practice.make_guest(service, db, address)
        return {
            "token": issued.token,
            "expires_ms": issued.expires_ms,
            "player": {"name": issued.player.name, "bot": False, "guest": True},
        }

    @routes.post("/api/games/{game_id}/odds", tags=["practice aids"])
    def odds(game_id: str, request: Request, credentials: Credentials) -> dict[str, Any]:
        """Every cell's exact mine probability in a practice game (null: opened, or unknown
        before the first open)."""
        service = _service(request)
        player = _player(service, credentials)
        with service.transaction() as db:
            state, _, view = practice.practice_view(service, db, player, game_id)
        return {"odds": practice.odds(view, state["started"])}

    @routes.post("/api/games/{game_id}/hint", tags=["practice aids"])
    def hint(game_id: str, request: Request, credentials: Credentials) -> dict[str, Any]:
        """The cell to open next in a practice game: a proved safe one, else the safest."""
        service = _service(request)
        player = _player(service, credentials)
        with service.transaction() as db:
            state, _, view = practice.practice_view(service, db, player, game_id)
        return practice.hint(view, state["started"], state["flags"])

    @routes.post("/api/games/{game_id}/computer", tags=["practice aids"])
    def computer(game_id: str, request: Request, credentials: Credentials) -> dict[str, Any]:
        """The computer makes the next move of a practice game (as the ladder answers moves)."""
        service = _service(request)
        player = _player(service, credentials)
        with service.transaction() as db:
            state, _, view = practice.practice_view(service, db, player, game_id)
        cell = practice.computer_cell(view, state["started"])
        with service.transaction() as db:
            if cell in state["flags"]:  # a flag of the player's in the way: lift it first
                service.games.move(db, player, game_id, "flag", cell)
            return service.games.move(db, player, game_id, "open", cell)

    return routes


def install(app: FastAPI) -> None:
    """Serve the page from ``app`` (the ladder's): its routes, and its files under ``/static``."""
    app.include_router(router())
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
