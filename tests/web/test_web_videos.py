"""Community videos sent by the page: read as the terminal reads them, bounded, and answered
as frames to play back (ms-toollib reads them: the dev extra has it)."""

from __future__ import annotations

import threading

import pytest
from ladder_helpers import Site, TestClient, config, sqlite_url
from paths import TESTS
from test_web_bounds import SlowPlayback, frames_from

from minesweeper.ladder.app import create_app
from minesweeper.ladder.service import Ladder
from minesweeper.web import mount
from minesweeper.web import routes as web_routes
from minesweeper.web.videos import MAX_VIDEO_BYTES

pytest.importorskip("ms_toollib")

VIDEOS = TESTS / "play" / "data" / "videos"


@pytest.fixture
def site(tmp_path):
    service = Ladder(config(sqlite_url(tmp_path)))
    yield Site(service, TestClient(create_app(ladder_service=service, extensions=[mount])))
    service.close()


def send(site: Site, data: bytes, kind: str = "avf"):
    return site.client.post(
        "/api/videos/frames",
        params={"format": kind},
        content=data,
        headers={"Content-Type": "application/octet-stream"},
    )


def test_an_arbiter_video_plays_back_as_it_was_won(site: Site) -> None:
    answer = send(site, (VIDEOS / "arbiter-beginner.avf").read_bytes())
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["player"] == "Wang Jianing G15208" and data["result"]["won"]
    assert data["stats"]["bbbv"] == 24 and data["stats"]["clicks"]["total"] == 38
    assert len(data["frames"]) == 38 and len(data["geometry"]["polygons"]) == 64
    assert data["video"]["software"] == "Arbiter"
    assert data["video"]["figures"].startswith("as Arbiter counts them (ms-toollib): 42 clicks")


def test_a_viennasweeper_video_too(site: Site) -> None:
    answer = send(site, (VIDEOS / "viennasweeper-24px.rmv").read_bytes(), "rmv")
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"] == "Thomas Kolar"


@pytest.mark.parametrize(
    ("data", "kind", "status", "said"),
    [
        (b"not a video at all", "avf", 400, "not a video ms-toollib can read"),
        (b"", "avf", 400, "no video"),
        (b"x", "mp4", 422, "format"),
        (b"x" * (MAX_VIDEO_BYTES + 1), "avf", 413, ""),
    ],
)
def test_what_is_not_a_video_is_refused_in_one_sentence(site, data, kind, status, said) -> None:
    answer = send(site, data, kind)
    assert answer.status_code == status, answer.text
    if status == 413:
        return  # refused as it streams in, by FastAPI itself
    message = answer.json()["error"]["message"]
    assert said in message
    assert "upload" not in message and "/tmp" not in message  # no server path


def test_a_video_waits_for_the_public_slots_as_a_replay_does(tmp_path, monkeypatch) -> None:
    # Read in the ladder's pool of public heavy work: while replays hold every slot, a video
    # is refused at once (503), and the event loop is never the thread reading it.
    service = Ladder(config(sqlite_url(tmp_path), cpu_slots=1, cpu_wait_seconds=0.2))
    client = TestClient(create_app(ladder_service=service, extensions=[mount]))
    made = Site(service, client)

    work = SlowPlayback(1.5)
    monkeypatch.setattr(web_routes, "playback", work)
    # From another address: an address has one public job at a time (429 for a second).
    hog = threading.Thread(target=frames_from, args=(client.app, "198.51.100.7"))
    hog.start()
    assert work.started.wait(timeout=30)  # the replay holds the only slot
    busy = send(made, (VIDEOS / "arbiter-beginner.avf").read_bytes())
    hog.join()
    assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
    assert send(made, (VIDEOS / "arbiter-beginner.avf").read_bytes()).status_code == 200
    service.close()
