"""Helpers for the ladder's tests: apps on a temporary database, players, a settable clock."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minesweeper.ladder.app import create_app
from minesweeper.ladder.config import LadderConfig, PasswordCost
from minesweeper.ladder.service import Ladder

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx: not ours to act on
    from fastapi.testclient import TestClient

#: argon2id at its cheapest: tests check the flow, not the cost.
CHEAP = PasswordCost(time_cost=1, memory_kib=8, parallelism=1)
PASSWORD = "correct horse"


@dataclass
class Clock:
    """Wall-clock seconds that move only when a test says so."""

    now: float = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def config(url: str, clock: Clock | None = None, **changes: Any) -> LadderConfig:
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
    clock: Clock = field(default_factory=Clock)

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


def make_site(url: str, clock: Clock | None = None, **changes: Any) -> Site:
    clock = clock if clock is not None else Clock()
    service = Ladder(config(url, clock, **changes))
    return Site(service, TestClient(create_app(ladder_service=service)), clock)
