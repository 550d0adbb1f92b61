"""Through the API a client learns what the screen would show and nothing more.

Random games of random moves on every topology: after each answer, the cells the
client has been told are exactly the cells a `GameSession` replaying the same moves
on the same board shows opened, with the same numbers; no answer names a mine
before the game is over; the protocol map says the same.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ladder_helpers import Site, make_site, sqlite_url

from minesweeper.ladder.schema import Game
from minesweeper.ladder.stored import stored_board
from minesweeper.play.session import GameSession
from minesweeper.protocol import UNKNOWN

TOPOLOGIES = ["square", "hex", "triangle", "parquet", "domino", "tromino", "tetromino", "graph"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Site:
    return make_site(sqlite_url(tmp_path_factory.mktemp("leaks")), open_games=10_000)


@pytest.fixture(scope="module")
def headers(site: Site) -> dict[str, str]:
    return site.sign_up("prober")


moves = st.lists(
    st.tuples(
        st.sampled_from(["open", "open", "flag", "chord"]), st.floats(0, 1, exclude_max=True)
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    topology=st.sampled_from(TOPOLOGIES),
    rules=st.sampled_from(["modern", "classic", "acm"]),
    seed=st.integers(0, 2**32),
    plan=moves,
)
@pytest.mark.slow
def test_every_answer_is_what_the_visible_map_shows(
    site: Site, headers: dict[str, str], topology: str, rules: str, seed: int, plan: list
) -> None:
    game = site.new_game(
        headers, mode="practice", topology=topology, rules=rules, rows=6, cols=8, seed=seed
    )
    size = game["topology"]["size"]
    told: dict[int, int] = {}
    answers = []
    for kind, where in plan:
        answer = site.move(headers, game["id"], kind, int(where * size), map=True).json()
        answers.append(answer)
        if answer["state"] == "playing":
            assert answer["end"] is None
            assert set(answer) == {
                "game", "number", "kind", "cell", "opened", "flagged", "state", "ms", "end", "map"
            }  # fmt: skip
        told.update(dict(map(tuple, answer["opened"])))
        if answer["state"] != "playing":
            break
    with site.service.transaction() as db:
        row = db.get(Game, game["id"])
        if row.board is None:  # only flags and chords: nothing opened, nothing laid
            assert not told
            return
        board = stored_board(row)
    # The reference: the terminal game's session, replaying the same clicks on the same board.
    reference = GameSession.from_board(board)
    seen: dict[int, int] = {}
    for answer in answers:
        {"open": reference.open, "chord": reference.chord, "flag": reference.toggle_flag}[
            "flag" if answer["kind"] in ("flag", "unflag") else answer["kind"]
        ](answer["cell"])
        seen.update(dict(map(tuple, answer["opened"])))
        assert seen == reference.opened()
        assert answer["state"] == reference.state.value
        assert answer["flagged"] == (answer["cell"] in reference.flags)
        text = answer["map"].replace("\n", "")
        shown = {
            board.topology.cell_at(*divmod(i, board.topology.shape[1]))
            for i, char in enumerate(text)
            if char != UNKNOWN
        }
        if reference.state.value == "playing":
            assert shown == set(seen)
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert dict(map(tuple, state["opened"])) == told
    if state["state"] == "playing":
        assert state["end"] is None
        site.client.post(f"/api/games/{game['id']}/resign", headers=headers)
    else:
        assert set(state["end"]["mines"]) == set(board.mines)
