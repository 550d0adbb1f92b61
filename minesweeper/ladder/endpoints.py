"""The API's routes, each a call of the service: the dependencies (`minesweeper.ladder.depends`)
give it its transaction and player, and the service answers with the API's models."""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations.
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from minesweeper.ladder import api
from minesweeper.ladder.accounts import Issued, Player
from minesweeper.ladder.categories import GameRequest, board_period, ranked_categories
from minesweeper.ladder.depends import Address, Service, SignedIn, Token, Transaction
from minesweeper.ladder.ladders import BOARDS, PERIODS, ladder, player_page
from minesweeper.ladder.service import Ladder
from minesweeper.ladder.views import iso_ms

Board = Annotated[str, Query(description="time, 3bv/s or win-rate")]
Players = Annotated[str, Query(pattern="^(people|bots)$")]
Limit = Annotated[int, Query(ge=1, le=100)]


def router() -> APIRouter:
    """Every route of the API (under ``/api`` once included)."""
    routes = APIRouter()
    for add in (_accounts, _games, _practice, _ladders):
        add(routes)
    return routes


def _accounts(routes: APIRouter) -> None:
    @routes.post("/accounts", status_code=201, response_model=api.SignedIn, tags=["accounts"])
    def sign_up(
        body: api.Credentials, service: Service, db: Transaction, address: Address
    ) -> api.SignedIn:
        """Make an account and sign in to it."""
        return _signed_in(service.accounts.sign_up(db, body.name, body.password, address))

    @routes.post("/sessions", response_model=api.SignedIn, tags=["accounts"])
    def sign_in(
        body: api.Credentials, service: Service, db: Transaction, address: Address
    ) -> api.SignedIn:
        """Sign in: a new token that expires."""
        return _signed_in(service.accounts.sign_in(db, body.name, body.password, address))

    @routes.post("/guests", status_code=201, response_model=api.SignedIn, tags=["accounts"])
    def guest(service: Service, db: Transaction, address: Address) -> api.SignedIn:
        """A guest account, signed in: practice games without signing up (never ranked)."""
        return _signed_in(service.accounts.guest(db, address))

    @routes.delete("/sessions/current", status_code=204, tags=["accounts"])
    def sign_out(service: Service, db: Transaction, token: Token) -> Response:
        """Sign out: the token is deleted and refused from now on."""
        service.accounts.sign_out(db, token)
        return Response(status_code=204)

    @routes.get("/me", response_model=api.PlayerOut, tags=["accounts"])
    def me(turn: SignedIn) -> api.PlayerOut:
        """Who the token signs in."""
        return _player_out(turn.player)


def _games(routes: APIRouter) -> None:
    @routes.post("/games", status_code=201, response_model=api.GameOut, tags=["games"])
    def new_game(body: api.NewGame, turn: SignedIn, address: Address) -> api.GameOut:
        """Deal a game: ranked (the presets, a secret seed), daily or weekly (the day's or
        the week's board), or practice (any size, topology, no-guess; never ranked)."""
        asked = GameRequest(**body.model_dump(exclude={"seed"}, exclude_none=True))
        return turn.games.create(turn.db, turn.player, asked, body.seed, address)

    @routes.get("/games", response_model=list[api.GameSummary], tags=["games"])
    def my_games(
        turn: SignedIn, limit: Annotated[int, Query(ge=1, le=200)] = 50
    ) -> list[api.GameSummary]:
        """Your games, newest first."""
        return turn.games.summaries(turn.db, turn.player, limit)

    @routes.get("/games/{game_id}", response_model=api.GameOut, tags=["games"])
    def game_state(game_id: str, turn: SignedIn) -> api.GameOut:
        """Where your game stands: what you see of it (the mines once it is over)."""
        return turn.games.state(turn.db, turn.player, game_id)

    @routes.post("/games/{game_id}/moves", response_model=api.MoveOut, tags=["games"])
    def make_move(game_id: str, body: api.MoveIn, turn: SignedIn) -> api.MoveOut:
        """Open, flag or chord a cell (a cell id); stored before it is answered."""
        return turn.games.move(
            turn.db, turn.player, game_id, body.kind, body.cell, body.expect, body.map
        )

    @routes.post("/games/{game_id}/resign", response_model=api.Resigned, tags=["games"])
    def resign(game_id: str, turn: SignedIn) -> api.Resigned:
        """Give up a game (a started ranked game counts as not won)."""
        return turn.games.resign(turn.db, turn.player, game_id)

    @routes.get("/games/{game_id}/replay", tags=["games"])
    def replay(game_id: str, service: Service, db: Transaction, address: Address) -> dict[str, Any]:
        """The replay of a finished game (docs/replay.md's format); anyone may watch it."""
        # Public, and a random tiling's board is drawn again from its seed: heavy work.
        with service.public.held("replays", address):
            return service.games.replay(db, game_id).as_json()


def _practice(routes: APIRouter) -> None:
    @routes.post("/games/{game_id}/computer", response_model=api.ComputerOut, tags=["practice"])
    def computer(game_id: str, turn: SignedIn) -> api.ComputerOut:
        """Practice: the computer makes its next decision's clicks (noted as help)."""
        return turn.games.computer(turn.db, turn.player, game_id)

    @routes.post("/games/{game_id}/hint", response_model=api.HintOut, tags=["practice"])
    def hint(game_id: str, turn: SignedIn) -> api.HintOut:
        """Practice: the cell to open next, proved safe or the safest (noted as help)."""
        return turn.games.hint(turn.db, turn.player, game_id)

    @routes.post("/games/{game_id}/odds", response_model=api.OddsOut, tags=["practice"])
    def odds(game_id: str, turn: SignedIn) -> api.OddsOut:
        """Practice: every closed cell's exact mine probability (noted as help)."""
        return turn.games.odds(turn.db, turn.player, game_id)


def _ladders(routes: APIRouter) -> None:
    @routes.get("/ladders", response_model=api.LaddersOut, tags=["ladders"])
    async def ladders(service: Service) -> api.LaddersOut:
        """The ranked categories, the ladders each has, and the periods."""
        return api.LaddersOut(
            categories=ranked_categories(),
            boards=list(BOARDS),
            periods=list(PERIODS),
            win_rate_minimum=service.config.win_rate_minimum,
        )

    @routes.get("/ladders/{preset}/{rules}", response_model=api.LadderOut, tags=["ladders"])
    def ranked_ladder(
        preset: str,
        rules: str,
        service: Service,
        db: Transaction,
        board: Board = "time",
        period: Annotated[str, Query(description="all or month")] = "all",
        players: Players = "people",
        limit: Limit = 20,
    ) -> api.LadderOut:
        """A category's ladder: each player's best, with a link to its replay."""
        return _ladder(service, db, f"{preset}/{rules}", board, period, players, limit)

    @routes.get("/daily/{preset}/{rules}", response_model=api.LadderOut, tags=["ladders"])
    def daily_ladder(
        preset: str,
        rules: str,
        service: Service,
        db: Transaction,
        day: Annotated[str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$")] = None,
        board: Board = "time",
        players: Players = "people",
        limit: Limit = 20,
    ) -> api.LadderOut:
        """The ladder of a day's board (today's by default, UTC)."""
        day = day or board_period("daily", service.now_ms())
        category = f"{preset}/{rules}"
        return _ladder(service, db, category, board, "all", players, limit, ("daily", day))

    @routes.get("/weekly/{preset}/{rules}", response_model=api.LadderOut, tags=["ladders"])
    def weekly_ladder(
        preset: str,
        rules: str,
        service: Service,
        db: Transaction,
        week: Annotated[str | None, Query(pattern=r"^\d{4}-W\d{2}$")] = None,
        board: Board = "time",
        players: Players = "people",
        limit: Limit = 20,
    ) -> api.LadderOut:
        """The ladder of a week's board (this ISO week's by default, UTC)."""
        week = week or board_period("weekly", service.now_ms())
        category = f"{preset}/{rules}"
        return _ladder(service, db, category, board, "all", players, limit, ("weekly", week))

    @routes.get("/players/{name}", response_model=api.PlayerPage, tags=["ladders"])
    def player(name: str, service: Service, db: Transaction, address: Address) -> api.PlayerPage:
        """A player's public page: per kind of game (ranked, daily, weekly, practice) the
        figures per category, and the latest ranked, daily and weekly games."""
        with service.public.held("player pages", address):
            return player_page(db, name)  # up to 10,000 games of each kind: heavy work

    @routes.get("/health", tags=["service"])
    def health(db: Transaction) -> dict[str, str]:
        """The service answers and its database too."""
        db.execute(select(1))
        return {"status": "ok"}


def _ladder(
    service: Ladder,
    db: Session,
    category: str,
    board: str,
    period: str,
    players: str,
    limit: int,
    shared: tuple[str, str] | None = None,
) -> api.LadderOut:
    """A ranked ladder, or with ``shared`` (a mode and its period: ``("daily",
    "2026-02-14")``, ``("weekly", "2026-W07")``) that shared board's ladder."""
    mode, day = shared if shared is not None else ("ranked", None)
    return ladder(
        db,
        category,
        board,
        period=period,
        bots=players == "bots",
        mode=mode,
        day=day,
        now_ms=service.now_ms(),
        win_rate_minimum=service.config.win_rate_minimum,
        limit=limit,
    )


def _signed_in(issued: Issued) -> api.SignedIn:
    return api.SignedIn(
        token=issued.token,
        expires=iso_ms(issued.expires_ms) or "",
        player=_player_out(issued.player),
    )


def _player_out(player: Player) -> api.PlayerOut:
    return api.PlayerOut(name=player.name, bot=player.is_bot, guest=player.is_guest)
