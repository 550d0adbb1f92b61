"""What a route takes from its request (FastAPI dependencies): the service, the client's
address, the bearer token, and for a signed-in route its transaction and player at once.

`SignedIn` is the one dependency behind every route that acts for a player: it opens
the request's transaction, finds the player its token signs in (401 if none), and
commits when the route returns, before the answer is sent (FastAPI's ``scope="function"``),
or rolls back if the route raises; a route only calls the service.
"""

# No `from __future__ import annotations`: FastAPI reads these aliases' annotations.
import ipaddress
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from minesweeper.ladder.accounts import Player
from minesweeper.ladder.games import Games
from minesweeper.ladder.service import Ladder

bearer = HTTPBearer(auto_error=False, description="the token from sign-up or sign-in")


async def ladder_of(request: Request) -> Ladder:
    """The service the app serves (`create_app` keeps it in ``app.state``)."""
    service: Ladder = request.app.state.ladder
    return service


async def token_of(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str | None:
    """The bearer token, if the request sends one (checked in the route's transaction)."""
    return None if credentials is None else credentials.credentials


async def address_of(request: Request) -> str:
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


Service = Annotated[Ladder, Depends(ladder_of)]
Token = Annotated[str | None, Depends(token_of)]
Address = Annotated[str, Depends(address_of)]


@dataclass(frozen=True)
class Turn:
    """A signed-in request: its transaction, and the player its token signs in."""

    service: Ladder
    db: Session
    player: Player

    @property
    def games(self) -> Games:
        return self.service.games


def signed_in(service: Service, token: Token) -> Iterator[Turn]:
    """The request's transaction and player (401 without a valid token)."""
    with service.transaction() as db:
        yield Turn(service, db, service.accounts.player(db, token))


def transaction(service: Service) -> Iterator[Session]:
    """The request's transaction, for a route that needs no player."""
    with service.transaction() as db:
        yield db


SignedIn = Annotated[Turn, Depends(signed_in, scope="function")]
Transaction = Annotated[Session, Depends(transaction, scope="function")]
