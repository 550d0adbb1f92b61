"""The endpoints anyone may call without signing in cost a bounded amount: bodies refused by
size as they arrive, work that grows with what was asked (not its square), done in a worker
thread holding one of a few slots, never in the event loop that answers everyone else."""

from __future__ import annotations

import asyncio
import json
import math
import random
import threading
import time
from typing import Any

import httpx
import pytest
from ladder_helpers import PASSWORD, Site, TestClient, config, sqlite_url

from minesweeper.board import Board
from minesweeper.ladder.app import MAX_BODY_BYTES, create_app
from minesweeper.ladder.games import moves_allowed
from minesweeper.ladder.service import Ladder
from minesweeper.play.replay import Replay
from minesweeper.play.session import Action, GameSession, Settings
from minesweeper.topology import SquareTopology
from minesweeper.topology import geometry as geometry_module
from minesweeper.topology.tiling import TilingTopology
from minesweeper.web import mount
from minesweeper.web import routes as web_routes
from minesweeper.web.routes import MAX_DRAWING_BODY


def make_site(tmp_path, **changes: Any) -> Site:
    service = Ladder(config(sqlite_url(tmp_path), **changes))
    return Site(service, TestClient(create_app(ladder_service=service, extensions=[mount])))


@pytest.fixture
def site(tmp_path):
    made = make_site(tmp_path)
    yield made
    made.service.close()


def flag_replay(rows: int, cols: int, clicks: int) -> bytes:
    """A replay of ``clicks`` flag toggles on a closed ``rows x cols`` board (F5's attack)."""
    rng = random.Random(1)
    topology = SquareTopology(rows, cols)
    board = Board(topology, rng.sample(range(topology.size), rows * cols // 5))
    settings = Settings.preset("expert").replace(rows=rows, cols=cols, mines=board.mine_count)
    session = GameSession.from_board(board, settings)
    actions = tuple(Action(0, "flag", cell % topology.size) for cell in range(clicks))
    return Replay(session.settings.category(), board, actions).to_bytes()


class Counted:
    """Counts the calls of a function it stands in for, failing past ``limit`` of them."""

    def __init__(self, function: Any, limit: int | None = None) -> None:
        self.function = function
        self.limit = limit
        self.calls = 0

    def __call__(self, *args: Any, **named: Any) -> Any:
        self.calls += 1
        assert self.limit is None or self.calls <= self.limit, "past the bound of the work"
        return self.function(*args, **named)


# -- F5: POST /api/replay/frames ----------------------------------------------------------------


def test_a_replays_frames_cost_its_clicks_not_clicks_times_cells(site, monkeypatch) -> None:
    # F5: 1000 flag clicks on 100x100 asked each click for all 10,000 cells (9.9 s).
    counted = Counted(GameSession.cell_state)
    monkeypatch.setattr(GameSession, "cell_state", lambda self, cell: counted(self, cell))
    answer = site.client.post("/api/replay/frames", content=flag_replay(100, 100, 1000))
    assert answer.status_code == 200, answer.text
    frames = answer.json()["frames"]
    assert len(frames) == 1000 and frames[0]["cells"] == [[0, "flagged", None]]
    assert counted.calls <= 2 * 10_000 + 4 * 1000


def test_a_replay_with_more_clicks_than_a_game_allows_is_refused_unread(site, monkeypatch) -> None:
    counted = Counted(GameSession.cell_state)
    monkeypatch.setattr(GameSession, "cell_state", lambda self, cell: counted(self, cell))
    allowed = moves_allowed(81)
    answer = site.client.post("/api/replay/frames", content=flag_replay(9, 9, allowed + 1))
    assert answer.status_code == 400
    assert f"at most {allowed:,}" in answer.json()["error"]["message"]
    assert counted.calls == 0
    huge = json.dumps({"format": "minesweeper-replay", "version": 1, "rows": 1000, "cols": 1000})
    answer = site.client.post("/api/replay/frames", content=huge)
    assert answer.status_code == 400 and "at most 10,000 cells" in answer.text


def test_help_noted_more_than_once_per_kind_is_no_replay(site) -> None:
    # Each click looked through every assist: a million of them made each click slow.
    document = json.loads(flag_replay(9, 9, 3))
    document["assists"] = [["hint", 0]] * 2
    answer = site.client.post("/api/replay/frames", content=json.dumps(document))
    assert answer.status_code == 400 and "noted once" in answer.json()["error"]["message"]


class SlowPlayback:
    """A replay's playback that takes ``seconds``; ``started`` is set once one runs (it then
    holds a slot: a test waits for that, not for a fixed time a loaded machine may outrun)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = threading.Event()

    def __call__(self, _body: bytes) -> dict[str, Any]:
        self.started.set()
        time.sleep(self.seconds)  # stands in for CPU work: it holds its thread, not the loop
        return {"frames": []}


def test_frames_are_worked_out_off_the_event_loop(site, monkeypatch) -> None:
    # F5: the frames were made inside an `async def`; /api/health waited 9.8 s.
    monkeypatch.setattr(web_routes, "playback", SlowPlayback(1.0))
    app = site.client.app
    finished: list[str] = []

    async def call(method: str, path: str, delay: float = 0.0, **extra: Any) -> None:
        await asyncio.sleep(delay)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            answer = await client.request(method, path, **extra)
        assert answer.status_code == 200, answer.text
        finished.append(path)

    async def both() -> None:
        await asyncio.gather(
            call("POST", "/api/replay/frames", content=b"{}"),
            call("GET", "/api/health", delay=0.2),
        )

    asyncio.run(both())
    assert finished == ["/api/health", "/api/replay/frames"]


def frames_from(app: Any, host: str) -> httpx.Response:
    """``POST /api/replay/frames`` (an empty replay) sent from the address ``host``."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(host, 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post("/api/replay/frames", content=b"{}")

    return asyncio.run(send())


def test_heavy_work_beyond_the_slots_is_refused_at_once(tmp_path, monkeypatch) -> None:
    made = make_site(tmp_path, cpu_slots=1, cpu_wait_seconds=0.2)
    work = SlowPlayback(1.0)
    monkeypatch.setattr(web_routes, "playback", work)
    answers: list[httpx.Response] = []

    def post(host: str) -> None:
        answers.append(frames_from(made.client.app, host))

    first = threading.Thread(target=post, args=("198.51.100.7",))
    first.start()
    assert work.started.wait(timeout=30)  # the first holds the only slot
    post("203.0.113.9")
    first.join()
    assert sorted(answer.status_code for answer in answers) == [200, 503]
    busy = next(answer for answer in answers if answer.status_code == 503)
    assert busy.json()["error"]["code"] == "busy" and int(busy.headers["Retry-After"]) > 0
    made.service.close()


def test_one_address_holds_one_public_slot_at_a_time(tmp_path, monkeypatch) -> None:
    # Issue 44, tried again: with no sign-in and no per-address bound, one client sending
    # replays of 40,000 clicks (1.2 s of CPU each) on two connections held both public
    # slots: everyone else's replays, drawings and player pages waited 2 s or got 503.
    made = make_site(tmp_path, cpu_slots=2, cpu_wait_seconds=0.2)
    work = SlowPlayback(1.0)
    monkeypatch.setattr(web_routes, "playback", work)
    answers: list[tuple[str, int]] = []

    def post(host: str) -> None:
        answers.append((host, frames_from(made.client.app, host).status_code))

    first = threading.Thread(target=post, args=("198.51.100.7",))
    first.start()
    assert work.started.wait(timeout=30)  # the first holds a slot
    post("198.51.100.7")  # the same address again: refused at once, the other slot kept
    post("203.0.113.9")  # anyone else: the slot left
    first.join()
    assert sorted(answers) == [("198.51.100.7", 200), ("198.51.100.7", 429), ("203.0.113.9", 200)]
    made.service.close()


# -- F6: POST /api/geometry ---------------------------------------------------------------------


def graph_view(size: int, edges: list[tuple[int, int]], coordinates: Any = None) -> dict:
    neighbours: list[list[int]] = [[] for _ in range(size)]
    for u, v in edges:
        neighbours[u].append(v)
        neighbours[v].append(u)
    view = {"name": "graph", "rows": 1, "cols": size, "size": size, "neighbours": neighbours}
    if coordinates is not None:
        view["coordinates"] = coordinates
    return view


@pytest.mark.parametrize("size", [500, 2000])
def test_a_large_graph_without_coordinates_is_drawn_without_scipy(site, size) -> None:
    # F6: networkx's spring layout needs scipy from 500 nodes on: a 500 error.
    answer = site.client.post(
        "/api/geometry", json=graph_view(size, [(i, i + 1) for i in range(size - 1)])
    )
    assert answer.status_code == 200, answer.text
    centres = answer.json()["centres"]
    assert len(centres) == size and len(set(map(tuple, centres))) == size


def test_nearest_nodes_are_not_found_one_pair_at_a_time(site, monkeypatch) -> None:
    # F6: 10,000 nodes with coordinates and no edges: 10^8 distances in Python, 65.6 s.
    counted = Counted(math.dist, limit=10_000)
    monkeypatch.setattr(geometry_module.math, "dist", counted)
    rng = random.Random(3)
    points = [[rng.uniform(0, 100), rng.uniform(0, 100)] for _ in range(10_000)]
    answer = site.client.post("/api/geometry", json=graph_view(10_000, [], points))
    assert answer.status_code == 200, answer.text
    assert site.client.post("/api/geometry", json=graph_view(10_001, [])).status_code == 400


def test_a_tiling_too_large_to_draw_is_refused_before_its_pieces_are_made(
    site, monkeypatch
) -> None:
    made = Counted(TilingTopology.__init__, limit=0)
    monkeypatch.setattr(TilingTopology, "__init__", made)
    layout = [[(row * 300 + col) // 2 for col in range(300)] for row in range(100)]
    answer = site.client.post(
        "/api/geometry", json={"name": "domino", "rows": 100, "cols": 300, "layout": layout}
    )
    assert answer.status_code == 400 and "at most 10,000 cells" in answer.text


# -- F9: bodies refused by size before they are read --------------------------------------------


async def send_body(
    app: Any, path: str, chunks: int, chunk: bytes, declared: int | None
) -> tuple[int, int]:
    """POST ``chunks`` pieces of ``chunk`` to ``path`` straight through ASGI: the status and
    how many pieces the app pulled."""
    pulled = 0
    status = 0
    headers = [(b"content-type", b"application/json")]
    if declared is not None:
        headers.append((b"content-length", str(declared).encode()))

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if pulled >= chunks:
            await asyncio.sleep(3600)
        pulled += 1
        return {"type": "http.request", "body": chunk, "more_body": pulled < chunks}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": headers, "client": ("10.0.0.9", 1), "server": ("test", 80),
    }  # fmt: skip
    await asyncio.wait_for(app(scope, receive, send), 60)
    return status, pulled


MIB = b"x" * (1 << 20)


@pytest.mark.parametrize(
    ("path", "limit"),
    [("/api/games", MAX_BODY_BYTES), ("/api/accounts", MAX_BODY_BYTES),
     ("/api/replay/frames", MAX_DRAWING_BODY), ("/api/geometry", MAX_DRAWING_BODY)],
)  # fmt: skip
def test_a_100_mb_body_is_refused_before_it_is_read(site, path: str, limit: int) -> None:
    # F9: a 100 MB body was read and parsed before the 422 (RSS 140 -> 432 MB).
    app = site.client.app
    status, pulled = asyncio.run(send_body(app, path, 100, MIB, declared=100 << 20))
    assert (status, pulled) == (413, 0)  # the declared length alone refuses it
    status, pulled = asyncio.run(send_body(app, path, 100, MIB, declared=None))
    assert status == 413 and pulled <= limit // len(MIB) + 1  # streamed: cut off at the limit
    assert site.client.post(path, content=b"x" * (limit + 1)).status_code == 413


def test_a_streamed_body_past_the_limit_gets_the_apis_error(site) -> None:
    answer = site.client.post("/api/games", content=iter([b"x" * MAX_BODY_BYTES, b"y"]))
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "too_large"


@pytest.mark.slow  # 2.5 s or more end to end
def test_public_work_holding_its_slots_stops_no_sign_in_and_no_game(tmp_path, monkeypatch) -> None:
    # One pool for all heavy work let anyone, signed in or not, keep sign-ins from hashing.
    made = make_site(tmp_path, cpu_slots=1, cpu_wait_seconds=0.2)
    headers = made.sign_up("alice")
    game = made.new_game(headers, mode="practice", no_guess=True, seed=2)
    work = SlowPlayback(2.0)
    monkeypatch.setattr(web_routes, "playback", work)
    hog = threading.Thread(target=lambda: made.client.post("/api/replay/frames", content=b"{}"))
    hog.start()
    assert work.started.wait(timeout=30)
    busy = made.client.post("/api/replay/frames", content=b"{}")
    assert busy.status_code == 429  # the same address: its one public job at a time
    signed = made.client.post("/api/sessions", json={"name": "alice", "password": PASSWORD})
    assert signed.status_code == 200
    assert made.move(headers, game["id"], "open", 40).status_code == 200  # a no-guess deal
    assert made.client.post(f"/api/games/{game['id']}/odds", headers=headers).status_code == 200
    hog.join()
    made.service.close()
