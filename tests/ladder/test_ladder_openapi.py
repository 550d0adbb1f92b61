"""schemathesis against the ladder's OpenAPI description: no request makes a 5xx.

Every operation gets generated requests, valid and invalid (bounded: a few examples
each), signed in as a real player who has a game on the board, in a session of its
own (one operation signs out), so the routes behind the token are reached; the
answers must also match the schema the description gives.
"""

from __future__ import annotations

import warnings

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ladder_helpers import PASSWORD, Site, make_site, sqlite_url
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error, response_schema_conformance
from schemathesis.schemas import APIOperation

from minesweeper.ladder.config import Backoff, RateLimit

warnings.filterwarnings("ignore", category=DeprecationWarning)

LOOSE = RateLimit(10_000, 60)
NO_WAIT = Backoff(10_000, 60, 1)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return make_site(
        sqlite_url(tmp_path_factory.mktemp("ladder-openapi")),
        sign_in_per_address=LOOSE,
        sign_in_failures_per_address=NO_WAIT,
        sign_in_failures_per_name=NO_WAIT,
        sign_up_per_address=LOOSE,
        guests_per_address=LOOSE,
        games_per_account=LOOSE,
        games_per_address=LOOSE,
        open_games=10_000,
    )


@pytest.fixture(scope="module")
def player(site: Site) -> str:
    """A real player with a game on the board; each operation signs in afresh (below)."""
    headers = site.sign_up("schema")
    game = site.new_game(headers, mode="practice", seed=1)
    site.move(headers, game["id"], "open", 40)
    return "schema"


def signed_in(site: Site, name: str) -> dict[str, str]:
    """A new session's headers: signing out (one of the operations) ends only its own."""
    answer = site.client.post("/api/sessions", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def operations(site: Site) -> list[APIOperation]:
    """Every operation the description lists; read here, at run time, not when every worker
    collects the tests (schemathesis's pytest plugin would, for two seconds a worker)."""
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", site.client.app)
    return [result.ok() for result in schema.get_all_operations()]


def test_the_description_lists_every_route(site: Site) -> None:
    listed = {(operation.method.upper(), operation.path) for operation in operations(site)}
    assert ("POST", "/api/games") in listed
    assert len(listed) >= 15


def test_no_request_makes_a_server_error(site: Site, player: str) -> None:
    for operation in operations(site):
        try:
            answers_within_the_schema(operation, signed_in(site, player))
        except Exception as error:
            error.add_note(f"operation: {operation.method.upper()} {operation.path}")
            raise


def answers_within_the_schema(operation: APIOperation, headers: dict[str, str]) -> None:
    """Requests made to the description and against it, each answered without a 5xx."""
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=cases)
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    def answers(case: Case) -> None:
        case.call_and_validate(
            headers=headers, checks=[not_a_server_error, response_schema_conformance]
        )

    answers()
