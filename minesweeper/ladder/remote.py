"""Playing on a ladder over the network: an HTTP client of the API, and bots through it.

`LadderClient` sends the API's requests (httpx) and turns every error answer into a
`RemoteError` carrying the server's one-line message. `play_bot_games` lets any
strategy play ranked games through the assignment's Execute/ReadMap client
(`minesweeper.client.Client`): each of its moves is a request, and the map it
reads back is the one the server prints for the revealed cells. `TokenStore`
keeps a person's sign-in for `minesweeper play --ladder`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import platformdirs

from minesweeper.client import Client, MapError
from minesweeper.game import State
from minesweeper.ladder.categories import parse_ranked
from minesweeper.ladder.errors import LadderError
from minesweeper.outputs import write_atomically
from minesweeper.solver.strategy import Strategy, StrategyError
from minesweeper.variant import Variant


class RemoteError(LadderError):
    """The ladder answered with an error, or could not be reached; ``status`` is the HTTP
    status (None when there was no answer)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status  # type: ignore[assignment]  # None: the ladder never answered


class LadderClient:
    """The ladder's HTTP API at ``url``, signed in with ``token`` (when given)."""

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        http: httpx.Client | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.token = token
        #: ``http`` (tests pass an in-process app's client) or a new one for ``url``.
        self._http = http if http is not None else httpx.Client(base_url=self.url, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> LadderClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One request; the JSON answer, or `RemoteError` with the server's message."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            answer = self._http.request(method, f"/api{path}", json=body, headers=headers)
        except httpx.HTTPError as error:
            raise RemoteError(f"cannot reach the ladder at {self.url}: {error}") from None
        if answer.status_code >= 400:
            try:
                message = answer.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = answer.text[:200] or answer.reason_phrase
            raise RemoteError(f"the ladder says: {message}", answer.status_code)
        return answer.json() if answer.content else None

    # -- accounts -------------------------------------------------------------------------

    def sign_in(self, name: str, password: str, *, new: bool = False) -> dict[str, Any]:
        """Sign in (``new``: sign up first); the token is kept for the next requests."""
        path = "/accounts" if new else "/sessions"
        answer = self.request("POST", path, {"name": name, "password": password})
        self.token = answer["token"]
        return dict(answer)

    def me(self) -> dict[str, Any]:
        return dict(self.request("GET", "/me"))

    # -- games ----------------------------------------------------------------------------

    def new_game(self, **body: Any) -> dict[str, Any]:
        return dict(self.request("POST", "/games", body))

    def state(self, game: str) -> dict[str, Any]:
        return dict(self.request("GET", f"/games/{game}"))

    def move(
        self, game: str, kind: str, cell: int, *, expect: int | None = None, map: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"kind": kind, "cell": cell, "map": map}
        if expect is not None:
            body["expect"] = expect
        return dict(self.request("POST", f"/games/{game}/moves", body))

    def resign(self, game: str) -> None:
        self.request("POST", f"/games/{game}/resign")


@dataclass(frozen=True)
class BotResult:
    """How one ranked game of a bot went, as the server judged it."""

    game: str
    state: str
    ms: int | None
    bbbv: int | None
    bbbv_per_second: float | None
    problem: str | None = None

    @property
    def won(self) -> bool:
        return self.state == "won"

    def describe(self) -> str:
        if self.problem:
            return f"game {self.game}: {self.state} ({self.problem})"
        if not self.won:
            return f"game {self.game}: {self.state}"
        rate = "" if self.bbbv_per_second is None else f", {self.bbbv_per_second:.2f} 3BV/s"
        return f"game {self.game}: won in {(self.ms or 0) / 1000:.3f} s (3BV {self.bbbv}{rate})"


def play_bot_game(remote: LadderClient, variant: Variant, strategy: Strategy) -> BotResult:
    """One ranked game of ``variant``, played by ``strategy`` through Execute/ReadMap."""
    variant = parse_ranked(str(variant))  # the server deals presets: only ranked ones
    game = remote.new_game(mode="ranked", preset=variant.preset_name, rules=variant.rules.value)
    topology = variant.make_topology()
    moves = {"made": game["moves"]}
    last: dict[str, Any] = {}

    def send(move: Sequence[int]) -> str:
        cell = topology.cell_from_move(move)
        answer = remote.move(game["id"], "open", cell, expect=moves["made"], map=True)
        moves["made"] = answer["number"]
        last.update(answer)
        return str(answer["map"])

    client = Client(topology, send, strategy)
    client.mine_count = variant.mines  # the ranked rules tell the count
    problem = None
    try:
        client.InitGame(variant.start)
        client.run()
    except (MapError, StrategyError) as error:
        problem = str(error)
    if client.outcome is State.PLAYING:
        remote.resign(game["id"])
        return BotResult(game["id"], "resigned", None, None, None, problem or "move limit")
    end = last.get("end") or {}
    stats = end.get("stats") or {}
    return BotResult(
        game["id"],
        str(last.get("state")),
        end.get("ms"),
        stats.get("bbbv"),
        stats.get("bbbv_per_second"),
        problem,
    )


def play_bot_games(
    remote: LadderClient,
    category: str,
    games: int,
    strategy: Callable[[int], Strategy],
) -> Iterator[BotResult]:
    """``games`` ranked games of ``category`` (``expert``, ``expert/classic``...), each by a
    fresh ``strategy(index)``."""
    variant = parse_ranked(category)
    for index in range(games):
        yield play_bot_game(remote, variant, strategy(index))


# -- the token a person's terminal keeps ---------------------------------------------------------

CONFIG_DIR_ENV = "MINESWEEPER_CONFIG_DIR"
TOKENS_FILE = "ladder-tokens.json"


def tokens_path() -> Path:
    """``$MINESWEEPER_CONFIG_DIR/ladder-tokens.json``, else in the user's config folder."""
    base = os.environ.get(CONFIG_DIR_ENV) or platformdirs.user_config_dir("minesweeper")
    return Path(base) / TOKENS_FILE


class TokenStore:
    """The tokens of the ladders this user signed in to, by URL, in a file only they can
    read (mode 0600, in a folder of mode 0700; written atomically)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else tokens_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return {}  # a damaged file is only a lost sign-in: the next one rewrites it
        return data if isinstance(data, dict) else {}

    def get(self, url: str) -> str | None:
        entry = self._read().get(url.rstrip("/"))
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) else None

    def put(self, url: str, name: str, token: str) -> None:
        data = self._read()
        data[url.rstrip("/")] = {"name": name, "token": token}
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomically(self.path, (json.dumps(data, indent=2) + "\n").encode())

    def forget(self, url: str) -> None:
        data = self._read()
        if data.pop(url.rstrip("/"), None) is not None:
            write_atomically(self.path, (json.dumps(data, indent=2) + "\n").encode())
