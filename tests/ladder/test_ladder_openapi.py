"""schemathesis against the ladder's OpenAPI description: no request makes a 5xx.

Every operation gets generated requests (bounded: a few examples each), signed in
as a real player who has a game on the board, so the routes behind the token are
reached; the answers must also match the schema the description gives.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import warnings
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from ladder_helpers import make_site
from schemathesis.checks import not_a_server_error, response_schema_conformance

from minesweeper.ladder.config import Backoff, RateLimit

warnings.filterwarnings("ignore", category=DeprecationWarning)

LOOSE = RateLimit(10_000, 60)
NO_WAIT = Backoff(10_000, 60, 1)
# The schema is read when the tests are collected, so the app is made then (in a temporary
# folder: a fresh SQLite database).
_FOLDER = Path(tempfile.mkdtemp(prefix="ladder-openapi-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
SITE = make_site(
    f"sqlite:///{_FOLDER / 'ladder.sqlite3'}",
    sign_in_per_address=LOOSE,
    sign_in_failures_per_address=NO_WAIT,
    sign_in_failures_per_name=NO_WAIT,
    sign_up_per_address=LOOSE,
    guests_per_address=LOOSE,
    games_per_account=LOOSE,
    games_per_address=LOOSE,
    open_games=10_000,
)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", SITE.client.app)


@pytest.fixture(scope="module")
def headers() -> dict[str, str]:
    headers = SITE.sign_up("schema")
    game = SITE.new_game(headers, mode="practice", seed=1)
    SITE.move(headers, game["id"], "open", 40)
    return headers


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_a_server_error(case, headers) -> None:
    case.call_and_validate(
        headers=headers, checks=[not_a_server_error, response_schema_conformance]
    )
