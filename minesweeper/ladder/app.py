"""The ladder's HTTP face: a FastAPI app over `Ladder`, every route under ``/api``.

`create_app` builds it; ``extensions`` are called with the app once the API is in
place, which is how the browser front end adds its pages and static files
(anything outside ``/api``) without this package knowing it.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations, some of
# them aliases local to `_router`.
import ipaddress
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select
from starlette.exceptions import HTTPException as StarletteHTTPException

from minesweeper.ladder import api
from minesweeper.ladder.accounts import Issued, Player
from minesweeper.ladder.categories import GameRequest, ranked_categories
from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.errors import LadderError
from minesweeper.ladder.games import iso_ms
from minesweeper.ladder.ladders import BOARDS, PERIODS, ladder, player_page
from minesweeper.ladder.schema import Game
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

bearer = HTTPBearer(auto_error=False, description="the token from sign-up or sign-in")


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
    app.include_router(_router(service), prefix="/api", responses=ERRORS)
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


def _address(request: Request) -> str:
    """Who a request is from, for the per-address limits: its IP address, or for IPv6 its
    /64 network (one host's share: it could rotate through 2^64 addresses of it)."""
    host = request.client.host if request.client is not None else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:45]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _signed_in(issued: Issued) -> api.SignedIn:
    return api.SignedIn(
        token=issued.token,
        expires=iso_ms(issued.expires_ms) or "",
        player=_player_out(issued.player),
    )


def _player_out(player: Player) -> api.PlayerOut:
    return api.PlayerOut(name=player.name, bot=player.is_bot, guest=player.is_guest)


def _router(service: Ladder) -> APIRouter:
    router = APIRouter()
    Token = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]

    def token_of(credentials: HTTPAuthorizationCredentials | None) -> str | None:
        return None if credentials is None else credentials.credentials

    async def bearer_token(credentials: Token) -> str | None:
        # Only the token: each route checks it in its own transaction (one trip to a
        # worker thread and one transaction per request).
        return token_of(credentials)

    Me = Annotated[str | None, Depends(bearer_token)]

    # -- accounts -------------------------------------------------------------------------

    @router.post("/accounts", status_code=201, response_model=api.SignedIn, tags=["accounts"])
    def sign_up(body: api.Credentials, request: Request) -> api.SignedIn:
        """Make an account and sign in to it."""
        with service.transaction() as db:
            issued = service.accounts.sign_up(db, body.name, body.password, _address(request))
        return _signed_in(issued)

    @router.post("/sessions", response_model=api.SignedIn, tags=["accounts"])
    def sign_in(body: api.Credentials, request: Request) -> api.SignedIn:
        """Sign in: a new token that expires."""
        with service.transaction() as db:
            issued = service.accounts.sign_in(db, body.name, body.password, _address(request))
        return _signed_in(issued)

    @router.post("/guests", status_code=201, response_model=api.SignedIn, tags=["accounts"])
    def guest(request: Request) -> api.SignedIn:
        """A guest account, signed in: practice games without signing up (never ranked)."""
        with service.transaction() as db:
            issued = service.accounts.guest(db, _address(request))
        return _signed_in(issued)

    @router.delete("/sessions/current", status_code=204, tags=["accounts"])
    def sign_out(credentials: Token) -> Response:
        """Sign out: the token is deleted and refused from now on."""
        with service.transaction() as db:
            service.accounts.sign_out(db, token_of(credentials))
        return Response(status_code=204)

    @router.get("/me", response_model=api.PlayerOut, tags=["accounts"])
    def me(token: Me) -> api.PlayerOut:
        """Who the token signs in."""
        with service.transaction() as db:
            return _player_out(service.accounts.player(db, token))

    # -- games ----------------------------------------------------------------------------

    @router.post("/games", status_code=201, response_model=api.GameOut, tags=["games"])
    def new_game(body: api.NewGame, token: Me, request: Request) -> dict[str, Any]:
        """Deal a game: ranked (the presets, a secret seed), daily (the day's board), or
        practice (any size, topology, no-guess; never ranked)."""
        asked = GameRequest(**body.model_dump(exclude={"seed"}, exclude_none=True))
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.create(db, player, asked, body.seed, _address(request))

    @router.get("/games", response_model=list[api.GameSummary], tags=["games"])
    def my_games(
        token: Me, limit: Annotated[int, Query(ge=1, le=200)] = 50
    ) -> list[dict[str, Any]]:
        """Your games, newest first."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            games = db.scalars(
                select(Game)
                .where(Game.account_id == player.id)
                .order_by(Game.created_ms.desc())
                .limit(limit)
            )
            return [
                {
                    "id": game.id,
                    "mode": game.mode,
                    "category": game.category,
                    "day": game.day,
                    "state": game.state,
                    "started": iso_ms(game.started_ms),
                    "ms": game.ms,
                    "bbbv": game.bbbv,
                    "bbbv_per_second": game.bbbv_per_second,
                }
                for game in games
            ]

    @router.get("/games/{game_id}", response_model=api.GameOut, tags=["games"])
    def game_state(game_id: str, token: Me) -> dict[str, Any]:
        """Where your game stands: what you see of it (the mines once it is over)."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.state(db, player, game_id)

    @router.post("/games/{game_id}/moves", response_model=api.MoveOut, tags=["games"])
    def make_move(game_id: str, body: api.MoveIn, token: Me) -> dict[str, Any]:
        """Open, flag or chord a cell (a cell id); stored before it is answered."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.move(
                db, player, game_id, body.kind, body.cell, body.expect, body.map
            )

    @router.post("/games/{game_id}/computer", response_model=api.ComputerOut, tags=["practice"])
    def computer(game_id: str, token: Me) -> dict[str, Any]:
        """Practice: the computer makes its next decision's clicks (noted as help)."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.computer(db, player, game_id)

    @router.post("/games/{game_id}/hint", response_model=api.HintOut, tags=["practice"])
    def hint(game_id: str, token: Me) -> dict[str, Any]:
        """Practice: the cell to open next, proved safe or the safest (noted as help)."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.hint(db, player, game_id)

    @router.post("/games/{game_id}/odds", response_model=api.OddsOut, tags=["practice"])
    def odds(game_id: str, token: Me) -> dict[str, Any]:
        """Practice: every closed cell's exact mine probability (noted as help)."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.odds(db, player, game_id)

    @router.post("/games/{game_id}/resign", response_model=api.Resigned, tags=["games"])
    def resign(game_id: str, token: Me) -> dict[str, Any]:
        """Give up a game (a started ranked game counts as not won)."""
        with service.transaction() as db:
            player = service.accounts.player(db, token)
            return service.games.resign(db, player, game_id)

    @router.get("/games/{game_id}/replay", tags=["games"])
    def replay(game_id: str) -> dict[str, Any]:
        """The replay of a finished game (docs/replay.md's format); anyone may watch it."""
        # Public, and a random tiling's board is drawn again from its seed: heavy work.
        with service.transaction() as db, service.public.held("replays"):
            return service.games.replay(db, game_id).as_json()

    # -- ladders --------------------------------------------------------------------------

    @router.get("/ladders", tags=["ladders"])
    def ladders() -> dict[str, Any]:
        """The ranked categories, the ladders each has, and the periods."""
        return {
            "categories": ranked_categories(),
            "boards": list(BOARDS),
            "periods": list(PERIODS),
            "win_rate_minimum": service.config.win_rate_minimum,
        }

    def _ladder(
        preset: str,
        rules: str,
        board: str,
        period: str,
        players: str,
        limit: int,
        mode: str = "ranked",
        day: str | None = None,
    ) -> dict[str, Any]:
        with service.transaction() as db:
            return ladder(
                db,
                f"{preset}/{rules}",
                board,
                period=period,
                bots=players == "bots",
                mode=mode,
                day=day,
                now_ms=service.now_ms(),
                win_rate_minimum=service.config.win_rate_minimum,
                limit=limit,
            )

    Board = Annotated[str, Query(description="time, 3bv/s or win-rate")]
    Players = Annotated[str, Query(pattern="^(people|bots)$")]
    Limit = Annotated[int, Query(ge=1, le=100)]

    @router.get("/ladders/{preset}/{rules}", response_model=api.LadderOut, tags=["ladders"])
    def ranked_ladder(
        preset: str,
        rules: str,
        board: Board = "time",
        period: Annotated[str, Query(description="all or month")] = "all",
        players: Players = "people",
        limit: Limit = 20,
    ) -> dict[str, Any]:
        """A category's ladder: each player's best, with a link to its replay."""
        return _ladder(preset, rules, board, period, players, limit)

    @router.get("/daily/{preset}/{rules}", response_model=api.LadderOut, tags=["ladders"])
    def daily_ladder(
        preset: str,
        rules: str,
        day: Annotated[str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$")] = None,
        board: Board = "time",
        players: Players = "people",
        limit: Limit = 20,
    ) -> dict[str, Any]:
        """The ladder of a day's board (today's by default, UTC)."""
        today = datetime.fromtimestamp(service.now_ms() / 1000, UTC).date().isoformat()
        return _ladder(preset, rules, board, "all", players, limit, "daily", day or today)

    @router.get("/players/{name}", response_model=api.PlayerPage, tags=["ladders"])
    def player(name: str) -> dict[str, Any]:
        """A player's public page: ranked results per category and the latest games."""
        with service.transaction() as db, service.public.held("player pages"):
            return player_page(db, name)  # all of a player's ranked games: heavy work

    @router.get("/health", tags=["service"])
    def health() -> dict[str, str]:
        """The service answers and its database too."""
        with service.transaction() as db:
            db.execute(select(1))
        return {"status": "ok"}

    return router
