"""Helpers for the ladder's tests: apps on a temporary database, players, a settable clock."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doubles import FakeClock

from minesweeper.ladder.app import create_app
from minesweeper.ladder.config import LadderConfig, PasswordCost
from minesweeper.ladder.service import Ladder

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx: not ours to act on
    from fastapi.testclient import TestClient

#: argon2id at its cheapest: tests check the flow, not the cost.
CHEAP = PasswordCost(time_cost=1, memory_kib=8, parallelism=1)
PASSWORD = "correct horse"


#: Wall-clock seconds at which a test site starts (they move only when a test says so).
START = 1_800_000_000.0


def config(url: str, clock: FakeClock | None = None, **changes: Any) -> LadderConfig:
    extra: dict[str, Any] = {"password_cost": CHEAP, **changes}
    if clock is not None:
        extra["clock"] = clock
    return LadderConfig(database_url=url, **extra)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'ladder.sqlite3'}"


@dataclass
class Site:
    """A ladder app under test and its service."""

    service: Ladder
    client: TestClient
    clock: FakeClock = field(default_factory=lambda: FakeClock(START))

    def sign_up(self, name: str, password: str = PASSWORD) -> dict[str, str]:
        answer = self.client.post("/api/accounts", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        return {"Authorization": f"Bearer {answer.json()['token']}"}

    def new_game(self, headers: dict[str, str], **body: Any) -> dict[str, Any]:
        answer = self.client.post("/api/games", json=body, headers=headers)
        assert answer.status_code == 201, answer.text
        return answer.json()

    def move(self, headers: dict[str, str], game: str, kind: str, cell: int, **extra: Any) -> Any:
        return self.client.post(
            f"/api/games/{game}/moves", json={"kind": kind, "cell": cell, **extra}, headers=headers
        )


def make_site(url: str, clock: FakeClock | None = None, **changes: Any) -> Site:
    clock = clock if clock is not None else FakeClock(START)
    service = Ladder(config(url, clock, **changes))
    return Site(service, TestClient(create_app(ladder_service=service)), clock)
