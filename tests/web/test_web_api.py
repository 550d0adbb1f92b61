"""The page's routes on the ladder's app: the page and its files, geometry, replay frames,
through HTTP, on a real SQLite database."""

from __future__ import annotations

import json
import random

import pytest
from ladder_helpers import Site, TestClient, config, sqlite_url

from minesweeper.ladder.app import create_app
from minesweeper.ladder.schema import Game
from minesweeper.ladder.service import Ladder
from minesweeper.play.replay import Replay
from minesweeper.play.session import CellState
from minesweeper.topology import TOPOLOGIES, GraphTopology
from minesweeper.web import mount
from minesweeper.web.boards import TopologyView, topology_of
from minesweeper.web.playback import frames


@pytest.fixture
def site(tmp_path):
    service = Ladder(config(sqlite_url(tmp_path)))
    yield Site(service, TestClient(create_app(ladder_service=service, extensions=[mount])))
    service.close()


def guest(site: Site) -> dict[str, str]:
    answer = site.client.post("/api/guests")
    assert answer.status_code == 201, answer.text
    assert answer.json()["player"]["name"].startswith("guest-")
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def mines_of(site: Site, game_id: str) -> list[int]:
    """The test's oracle: the mines the server laid (read from its database)."""
    with site.service.transaction() as db:
        return json.loads(db.get(Game, game_id).board)


def test_the_page_and_its_files_are_served_with_a_strict_policy(site):
    page = site.client.get("/")
    assert page.status_code == 200
    assert '<script type="module" src="/static/app.js">' in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    for name in ("app.js", "board.js", "game.js", "replay.js", "api.js", "dom.js", "style.css"):
        answer = site.client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        # Nothing is fetched from elsewhere: no absolute address outside this origin.
        assert "http://" not in answer.text.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in answer.text
    assert site.client.get("/static/../routes.py").status_code == 404


@pytest.mark.parametrize("name", sorted(TOPOLOGIES))
def test_geometry_of_a_games_topology_is_its_own(site, name):
    headers = guest(site)
    game = site.new_game(headers, mode="practice", topology=name, preset="beginner")
    answer = site.client.post("/api/geometry", json=game["topology"])
    assert answer.status_code == 200, answer.text
    topology = topology_of(TopologyView(**game["topology"]))
    assert answer.json() == json.loads(json.dumps(topology.geometry().as_json()))
    assert [list(n) for n in map(topology.neighbours, topology.cells())] == game["topology"][
        "neighbours"
    ]


@pytest.mark.parametrize(
    "view, problem",
    [
        ({"name": "cube", "rows": 2, "cols": 2}, "unknown topology 'cube'"),
        ({"name": "square", "rows": 2000, "cols": 2000}, "too large"),
        ({"name": "domino", "rows": 1, "cols": 2}, "layout of piece ids"),
        ({"name": "domino", "rows": 1, "cols": 3, "layout": [[0, 0, 0]]}, "more than 2"),
        ({"name": "graph", "rows": 1, "cols": 2, "size": 2, "neighbours": [[1], []]}, "does not"),
        ({"name": "graph", "rows": 1, "cols": 1, "size": 1, "neighbours": [[0]]}, "self-loop"),
        ({"name": "graph", "rows": 1, "cols": 2, "size": 2}, "neighbour lists"),
    ],
)
def test_a_bad_topology_gets_one_clear_error(site, view, problem):
    answer = site.client.post("/api/geometry", json=view)
    assert answer.status_code == 400
    assert problem in answer.json()["error"]["message"]


def test_a_graph_is_drawn_where_its_coordinates_say(site):
    graph = GraphTopology.random(3, 4, random.Random(2))
    view = {
        "name": "graph",
        "rows": 1,
        "cols": graph.size,
        "size": graph.size,
        "neighbours": [list(graph.neighbours(c)) for c in graph.cells()],
        "coordinates": [list(p) for p in graph.coordinates],
    }
    drawn = site.client.post("/api/geometry", json=view).json()
    assert drawn["polygons"] is None
    assert sorted(map(tuple, drawn["links"])) == graph.edges()
    # Node 5 is (1, 1) on the grid: one link length right of and below node 0.
    (x0, y0), (x5, y5) = drawn["centres"][0], drawn["centres"][5]
    assert x5 - x0 == pytest.approx(y5 - y0) and x5 > x0


def play_to_the_end(site: Site, headers, game_id: str, lose: bool) -> None:
    first = site.move(headers, game_id, "open", 0).json()
    mines = set(mines_of(site, game_id))
    if first["end"]:
        return
    size = len(
        site.client.get(f"/api/games/{game_id}", headers=headers).json()["topology"]["neighbours"]
    )
    site.move(headers, game_id, "flag", sorted(mines)[0])
    for cell in range(size):
        if lose and cell in mines:
            site.move(headers, game_id, "open", cell)
            return
        if cell not in mines:
            answer = site.move(headers, game_id, "open", cell).json()
            if answer["end"]:
                return


def test_replay_frames_replay_the_game_click_by_click(site):
    headers = site.sign_up("framer")
    game = site.new_game(headers, mode="practice", topology="hex", seed=5)
    play_to_the_end(site, headers, game["id"], lose=False)
    replay_json = site.client.get(f"/api/games/{game['id']}/replay").json()
    answer = site.client.post("/api/replay/frames", content=json.dumps(replay_json))
    assert answer.status_code == 200, answer.text
    data = answer.json()
    replay = Replay.from_bytes(json.dumps(replay_json).encode())
    assert len(data["frames"]) == len(replay.actions)
    assert data["result"]["won"] and data["stats"]["bbbv"] == replay.stats().bbbv
    # Applying every frame's changes gives the final board, cell by cell.
    shown = {cell: ("closed", None) for cell in range(replay.board.size)}
    for frame in data["frames"]:
        for cell, state, count in frame["cells"]:
            shown[cell] = (state, count)
    final = replay.final
    assert shown == {
        cell: (final.cell_state(cell).value, final.count(cell)) for cell in range(replay.board.size)
    }
    assert data["frames"][0]["cells"], "the first open opens something"


def test_frames_show_the_mine_that_went_off_and_wrong_flags(site):
    headers = site.sign_up("loser")
    game = site.new_game(headers, mode="practice", seed=9)
    site.move(headers, game["id"], "open", 40)
    mines = set(mines_of(site, game["id"]))
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    opened = {cell for cell, _ in state["opened"]}
    wrong = next(c for c in range(81) if c not in mines and c not in opened)
    site.move(headers, game["id"], "flag", wrong)
    site.move(headers, game["id"], "open", min(mines))
    replay = Replay.from_bytes(site.client.get(f"/api/games/{game['id']}/replay").content)
    last = frames(replay)[-1]["cells"]
    states = {cell: state for cell, state, _ in last}
    assert states[min(mines)] == CellState.EXPLODED.value
    assert states[wrong] == CellState.WRONG_FLAG.value
    assert {c for c, s in states.items() if s == "mine"} == mines - {min(mines)}


def test_a_bad_replay_gets_one_clear_error(site):
    answer = site.client.post("/api/replay/frames", content=b'{"format": "something else"}')
    assert answer.status_code == 400
    assert answer.json()["error"]["message"]
